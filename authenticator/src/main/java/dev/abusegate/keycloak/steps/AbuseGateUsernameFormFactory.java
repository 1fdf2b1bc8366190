package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.authenticators.browser.UsernameFormFactory;

/** "Username Form (abuse gate)": a drop-in for "Username Form" in identity-first flows, before "Password Form (abuse gate)". */
public class AbuseGateUsernameFormFactory extends GatedFormFactory {

    public static final String ID = "abuse-gate-username-form";

    public AbuseGateUsernameFormFactory() {
        super(new UsernameFormFactory(), false, ID, "Username Form (abuse gate)",
                "Keycloak's username form for identity-first flows, with the abuse gate's per-address, per-address-and-account "
                        + "and credential-stuffing layers (and their captcha band) checked before the user lookup. Follow it with "
                        + "'Password Form (abuse gate)', which then adds only the account-lockout layer.",
                AbuseGateUsernameForm::new);
    }
}
