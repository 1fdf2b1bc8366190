package dev.abusegate.engine;

/**
 * The one rule for "no password", used by every gated step, the captcha service and the settlement: a submitted
 * password is missing when it is absent, empty or only whitespace. Keycloak never accepts such a password when one
 * is set ({@code Validation.isBlank}), so an attempt with it checks no password: it is answered from the request
 * alone and writes no protective state (no failure count, lock, used captcha, device budget or realm-tally entry).
 */
public final class Passwords {

    private Passwords() {
    }

    /**
     * Whether {@code password} counts as missing: null, empty, or nothing but whitespace and control characters (every
     * character at most U+0020, what {@link String#trim()} removes). That is Keycloak's own rule for a blank password
     * ({@code Validation.isBlank}), which no account can have; a password of other Unicode spaces (U+2003) can be set,
     * so it is not missing.
     */
    public static boolean missing(String password) {
        return password == null || password.trim().isEmpty();
    }
}
