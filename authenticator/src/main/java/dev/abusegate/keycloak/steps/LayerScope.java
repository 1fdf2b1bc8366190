package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;

/**
 * Which layers one step runs. A single-page form runs them all. The identity-first username step runs layers 1, 2
 * and 4 (and their captcha band) before the lookup; the password step that follows it runs only layer 3, for the one
 * password check the username step let through (see {@link IdentityFirstHandover}). A step that cannot carry a
 * captcha (HTTP Basic) runs layers 1 to 4 without the realm-wide layer: that layer only ever asks for a captcha, which
 * such a client cannot give, so there it would be a refusal, and it never blocks on its own.
 */
public enum LayerScope {
    ALL, BEFORE_LOOKUP, LOCKOUT_ONLY, ALL_WITHOUT_CAPTCHA;

    /**
     * Whether the step applies the realm-wide layer (and its harder ALTCHA): not before the lookup (the password step
     * that follows does), and not where no captcha can be carried.
     */
    boolean realmLayer() {
        return this != BEFORE_LOOKUP && this != ALL_WITHOUT_CAPTCHA;
    }

    GateOptions apply(GateOptions options) {
        switch (this) {
            case BEFORE_LOOKUP:
                return options.without(Layer.ACCOUNT_LOCKOUT);
            case LOCKOUT_ONLY:
                return options.without(Layer.PER_IP, Layer.PER_IP_ACCOUNT, Layer.CREDENTIAL_STUFFING);
            default:
                return options;
        }
    }
}
