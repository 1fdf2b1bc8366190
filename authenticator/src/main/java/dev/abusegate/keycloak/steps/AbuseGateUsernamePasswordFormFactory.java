package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.GateConfig;

import java.util.List;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordFormFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.provider.ProviderConfigProperty;

/** "Username Password Form (abuse gate)": a drop-in for "Username Password Form" in a copy of the browser flow. */
public class AbuseGateUsernamePasswordFormFactory extends UsernamePasswordFormFactory {

    public static final String ID = "abuse-gate-username-password-form";

    @Override
    public Authenticator create(KeycloakSession session) {
        return new AbuseGateUsernamePasswordForm(session);
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Username Password Form (abuse gate)";
    }

    @Override
    public String getHelpText() {
        return "Keycloak's username and password form, with the four-layer abuse gate (per address, per address and account, "
                + "account lockout, credential stuffing, captcha band) checked before the user lookup and the password hash. " + GateConfig.STEP_HELP;
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
