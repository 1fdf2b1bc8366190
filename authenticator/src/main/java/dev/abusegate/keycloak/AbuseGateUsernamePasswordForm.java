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
        String identifier = formData.getFirst(AuthenticationManager.FORM_USERNAME);
        GateSupport.Check check = GateSupport.check(context, identifier, formData, false);
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
}
