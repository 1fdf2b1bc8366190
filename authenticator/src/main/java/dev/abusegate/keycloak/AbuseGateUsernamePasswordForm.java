package dev.abusegate.keycloak;

import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserModel;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.services.validation.Validation;

/**
 * Keycloak's Username Password Form with the gate in front: on every POST the gate runs first, with
 * the submitted username, before any user lookup or hash. A missing (empty or blank) password is then
 * answered from the request alone, the same for every name. Otherwise Keycloak's own logic runs unchanged
 * (dummy hash for unknown users, remember-me, passkeys, brute-force detection), and its outcome feeds the
 * account-lockout layer.
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
            UserModel user = context.getUser();
            return GateSupport.gated(context, user.getUsername(), formData, GateSupport.Page.PASSWORD, GateSupport.Scope.ALL,
                    () -> super.validateForm(context, formData), () -> GateSupport.answerMissingPassword(context, null, user,
                            () -> challenge(context, getDefaultChallengeMessage(context), Validation.FIELD_PASSWORD)));
        }
        String username = formData.getFirst(AuthenticationManager.FORM_USERNAME);
        return GateSupport.gated(context, username, formData, GateSupport.Page.USERNAME_AND_PASSWORD, GateSupport.Scope.ALL,
                () -> super.validateForm(context, formData), () -> GateSupport.answerMissingPassword(context, username, null,
                        () -> challenge(context, getDefaultChallengeMessage(context), Validation.FIELD_PASSWORD)));
    }

    @Override
    public boolean validatePassword(AuthenticationFlowContext context, UserModel user, MultivaluedMap<String, String> inputData,
                                    boolean clearUser) {
        boolean ok = super.validatePassword(context, user, inputData, clearUser);
        if (ok) {
            GateSupport.passwordAccepted(context);
        }
        return ok;
    }
}
