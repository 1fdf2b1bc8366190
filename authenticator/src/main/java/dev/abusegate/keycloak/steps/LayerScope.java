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
                return options.toBuilder().disable(Layer.ACCOUNT_LOCKOUT).build();
            case LOCKOUT_ONLY:
                return options.toBuilder().disable(Layer.PER_IP).disable(Layer.PER_IP_ACCOUNT)
                        .disable(Layer.CREDENTIAL_STUFFING).build();
            default:
                return options;
        }
    }
}
