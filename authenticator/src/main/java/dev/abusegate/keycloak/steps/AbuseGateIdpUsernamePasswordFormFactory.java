package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordFormFactory;

/**
 * "Username Password Form for identity provider reauthentication (abuse gate)": a drop-in for the stock step in a
 * copy of the first broker login flow ("Verify Existing Account by Re-authentication").
 */
public class AbuseGateIdpUsernamePasswordFormFactory extends GatedFormFactory {

    /** 32 characters: Keycloak stores provider ids in a 36-character column. */
    public static final String ID = "abuse-gate-idp-username-password";

    public AbuseGateIdpUsernamePasswordFormFactory() {
        super(new IdpUsernamePasswordFormFactory(), true, ID, "Username Password Form for identity provider reauthentication (abuse gate)",
                "Keycloak's 'Authenticate to link your account' form of the first broker login flow, with the four-layer abuse "
                        + "gate checked before the user lookup and the password hash.",
                AbuseGateIdpUsernamePasswordForm::new);
    }
}
