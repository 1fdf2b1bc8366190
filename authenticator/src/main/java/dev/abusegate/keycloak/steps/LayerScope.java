package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.Layer;
import dev.abusegate.engine.config.GateOptions;

/**
 * Which layers one step runs. A single-page form runs them all. The identity-first username step runs layers 1, 2
 * and 4 (and their captcha band) before the lookup; the password step that follows it runs only layer 3, for the one
 * password check the username step let through (see {@link IdentityFirstHandover}).
 */
public enum LayerScope {
    ALL, BEFORE_LOOKUP, LOCKOUT_ONLY;

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
