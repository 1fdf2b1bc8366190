package dev.abusegate.engine.keys;

/**
 * One login attempt as the gate sees it, before any user lookup. Its captcha solution, if any, is not part of it:
 * {@link AbuseGate#evaluate} verifies one only when the answer depends on it.
 *
 * @param realm      an opaque realm id; counters of one realm never touch another's
 * @param address    the client address as the server resolved it (may be garbage; never trusted)
 * @param identifier the submitted username or e-mail, raw (may be null or empty)
 * @param device     the device id of a verified device cookie for the account this identifier names, or null
 */
public record Attempt(String realm, String address, String identifier, String device) {
    public Attempt {
        if (realm == null || realm.isEmpty()) {
            throw new IllegalArgumentException("realm is required");
        }
    }

    /**
     * The text an address is counted under by the per-address layers: its canonical form, IPv6 cut to
     * {@code ipv6PrefixLength}; the address as it came when it is not an IP literal (never one key for all of them).
     */
    public static String addressKey(String address, int ipv6PrefixLength) {
        String canonical = AddressKeys.canonical(address, ipv6PrefixLength);
        return canonical != null ? canonical : String.valueOf(address);
    }
}
