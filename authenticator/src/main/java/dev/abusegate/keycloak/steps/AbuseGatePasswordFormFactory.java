package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.GateConfig;

import java.util.List;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.authenticators.browser.PasswordFormFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.provider.ProviderConfigProperty;

/** "Password Form (abuse gate)": a drop-in for "Password Form" after "Username Form" in identity-first flows. */
public class AbuseGatePasswordFormFactory extends PasswordFormFactory {

    public static final String ID = "abuse-gate-password-form";

    @Override
    public Authenticator create(KeycloakSession session) {
        return new AbuseGatePasswordForm(session);
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Password Form (abuse gate)";
    }

    @Override
    public String getHelpText() {
        return "Keycloak's password form for identity-first flows, with the four-layer abuse gate checked before the password "
                + "hash, keyed by the username chosen on the previous page. " + GateConfig.STEP_HELP;
    }

    @Override
    public boolean isConfigurable() {
        return true;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return GateConfig.properties();
    }
}
