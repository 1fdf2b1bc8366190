package dev.abusegate.keycloak;

import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator;
import org.keycloak.authentication.authenticators.browser.PasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.models.UserModel;

/**
 * Keycloak's Password Form (identity-first flows: "Username Form", then this) with the gate in front.
 * The identifier is the one chosen on the username page.
 */
public class AbuseGatePasswordForm extends PasswordForm {

    public AbuseGatePasswordForm(KeycloakSession session) {
        super(session);
    }

    @Override
    protected boolean validateForm(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return GateSupport.gated(context, chosenIdentifier(context), formData, true, () -> super.validateForm(context, formData));
    }

    /** The account Keycloak already found on the username page (one budget whether typed as name or e-mail). */
    private static String chosenIdentifier(AuthenticationFlowContext context) {
        UserModel user = context.getUser();
        if (user != null) {
            return user.getUsername();
        }
        return context.getAuthenticationSession().getAuthNote(AbstractUsernameFormAuthenticator.ATTEMPTED_USERNAME);
    }
}
