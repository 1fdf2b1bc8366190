package dev.abusegate.engine.config;

/**
 * The per-subject layers, in the order the gate evaluates them, and the password-spray layer, which counts a bucket of
 * the password (see {@code dev.abusegate.engine.spray}).
 */
public enum Layer {
    /** Every attempt from one address, any account. */
    PER_IP("perIp", "per_ip"),
    /** Every attempt for one address and one identifier. */
    PER_IP_ACCOUNT("perIpAccount", "per_ip_account"),
    /** Failed password verifications for one identifier, from any address. */
    ACCOUNT_LOCKOUT("accountLockout", "account_lockout"),
    /** Distinct identifiers tried from one address. */
    CREDENTIAL_STUFFING("credentialStuffing", "credential_stuffing"),
    /** Distinct accounts one password (a 20-bit keyed bucket of it) failed for, in the realm. Never blocks. */
    PASSWORD_SPRAY("passwordSpray", "password_spray");

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

    /** Whether the layer may block an attempt: every layer but the password-spray layer, which only asks for a captcha. */
    public boolean blocks() {
        return this != PASSWORD_SPRAY;
    }

    /** A short label for events and metrics. Never shown to the person logging in. */
    public String label() {
        return label;
    }
}
