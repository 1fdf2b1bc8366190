package dev.abusegate.engine.config;

/** The four layers, in the order the gate evaluates them. */
public enum Layer {
    /** Every attempt from one address, any account. */
    PER_IP("perIp", "per_ip"),
    /** Every attempt for one address and one identifier. */
    PER_IP_ACCOUNT("perIpAccount", "per_ip_account"),
    /** Failed password verifications for one identifier, from any address. */
    ACCOUNT_LOCKOUT("accountLockout", "account_lockout"),
    /** Distinct identifiers tried from one address. */
    CREDENTIAL_STUFFING("credentialStuffing", "credential_stuffing");

    private final String configPrefix;
    private final String label;

    Layer(String configPrefix, String label) {
        this.configPrefix = configPrefix;
        this.label = label;
    }

    /** The prefix of this layer's configuration keys, e.g. {@code perIp} in {@code perIp.threshold}. */
    public String configPrefix() {
        return configPrefix;
    }

    /** A short label for events and metrics. Never shown to the person logging in. */
    public String label() {
        return label;
    }
}
