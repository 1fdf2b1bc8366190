package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.GateConfig;

import java.util.List;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.authenticators.browser.UsernameFormFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.provider.ProviderConfigProperty;

/** "Username Form (abuse gate)": a drop-in for "Username Form" in identity-first flows, before "Password Form (abuse gate)". */
public class AbuseGateUsernameFormFactory extends UsernameFormFactory {

    public static final String ID = "abuse-gate-username-form";

    @Override
    public Authenticator create(KeycloakSession session) {
        return new AbuseGateUsernameForm(session);
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Username Form (abuse gate)";
    }

    @Override
    public String getHelpText() {
        return "Keycloak's username form for identity-first flows, with the abuse gate's per-address, per-address-and-account "
                + "and credential-stuffing layers (and their captcha band) checked before the user lookup. Follow it with "
                + "'Password Form (abuse gate)', which then adds only the account-lockout layer. " + GateConfig.STEP_HELP;
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
