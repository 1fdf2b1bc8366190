package dev.abusegate.keycloak;

import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * Keycloak's Username Password Form with the gate in front: on every POST the gate runs first, with
 * the submitted username, before any user lookup or hash. When it allows the attempt, Keycloak's own
 * logic runs unchanged (dummy hash for unknown users, remember-me, passkeys, brute-force detection),
 * and its outcome feeds the account-lockout layer.
 */
public class AbuseGateUsernamePasswordForm extends UsernamePasswordForm {

    public AbuseGateUsernamePasswordForm(KeycloakSession session) {
        super(session);
    }

    @Override
    protected boolean validateForm(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        if (isUserAlreadySetBeforeUsernamePasswordAuth(context) && context.getUser() != null) {
            // Re-authentication (prompt=login, max_age, step-up): Keycloak checks the password of the user
            // it already knows and ignores any username field, so the gate counts that user.
            return GateSupport.gated(context, context.getUser().getUsername(), formData, true,
                    () -> super.validateForm(context, formData));
        }
        return GateSupport.gated(context, formData.getFirst(AuthenticationManager.FORM_USERNAME), formData, false,
                () -> super.validateForm(context, formData));
    }
}
