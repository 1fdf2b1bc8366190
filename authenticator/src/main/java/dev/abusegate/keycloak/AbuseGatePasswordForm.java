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
        GateSupport.Check check = GateSupport.check(context, chosenIdentifier(context), formData, true);
        if (!check.allowed()) {
            return false;
        }
        boolean ok;
        try {
            ok = super.validateForm(context, formData);
        } catch (RuntimeException e) {
            GateSupport.abandon(context, check);
            throw e;
        }
        GateSupport.settle(context, check, ok, formData.getFirst(CredentialRepresentation.PASSWORD));
        return ok;
    }

    private static String chosenIdentifier(AuthenticationFlowContext context) {
        String typed = context.getAuthenticationSession().getAuthNote(AbstractUsernameFormAuthenticator.ATTEMPTED_USERNAME);
        if (typed != null && !typed.isEmpty()) {
            return typed;
        }
        UserModel user = context.getUser();
        return user == null ? null : user.getUsername();
    }
}
