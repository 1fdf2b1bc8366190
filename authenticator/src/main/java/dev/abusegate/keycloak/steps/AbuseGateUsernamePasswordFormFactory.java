package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.authenticators.browser.UsernamePasswordFormFactory;

/** "Username Password Form (abuse gate)": a drop-in for "Username Password Form" in a copy of the browser flow. */
public class AbuseGateUsernamePasswordFormFactory extends GatedFormFactory {

    public static final String ID = "abuse-gate-username-password-form";

    public AbuseGateUsernamePasswordFormFactory() {
        super(new UsernamePasswordFormFactory(), true, ID, "Username Password Form (abuse gate)",
                "Keycloak's username and password form, with the four-layer abuse gate (per address, per address and account, "
                        + "account lockout, credential stuffing, captcha band) checked before the user lookup and the password hash.",
                AbuseGateUsernamePasswordForm::new);
    }
}
