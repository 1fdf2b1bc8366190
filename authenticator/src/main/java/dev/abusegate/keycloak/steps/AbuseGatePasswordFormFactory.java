package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.authenticators.browser.PasswordFormFactory;

/** "Password Form (abuse gate)": a drop-in for "Password Form" after "Username Form" in identity-first flows. */
public class AbuseGatePasswordFormFactory extends GatedFormFactory {

    public static final String ID = "abuse-gate-password-form";

    public AbuseGatePasswordFormFactory() {
        super(new PasswordFormFactory(), true, ID, "Password Form (abuse gate)",
                "Keycloak's password form for identity-first flows, with the four-layer abuse gate checked before the password "
                        + "hash, keyed by the username chosen on the previous page.",
                AbuseGatePasswordForm::new);
    }
}
