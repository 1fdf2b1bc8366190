package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.GateConfig;

import java.util.List;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordFormFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.provider.ProviderConfigProperty;

/**
 * "Username Password Form for identity provider reauthentication (abuse gate)": a drop-in for the stock step in a
 * copy of the first broker login flow ("Verify Existing Account by Re-authentication").
 */
public class AbuseGateIdpUsernamePasswordFormFactory extends IdpUsernamePasswordFormFactory {

    /** 32 characters: Keycloak stores provider ids in a 36-character column. */
    public static final String ID = "abuse-gate-idp-username-password";

    @Override
    public Authenticator create(KeycloakSession session) {
        return new AbuseGateIdpUsernamePasswordForm(session);
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Username Password Form for identity provider reauthentication (abuse gate)";
    }

    @Override
    public String getHelpText() {
        return "Keycloak's 'Authenticate to link your account' form of the first broker login flow, with the four-layer abuse "
                + "gate checked before the user lookup and the password hash. " + GateConfig.STEP_HELP;
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
