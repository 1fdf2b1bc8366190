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
}
