package dev.abusegate.keycloak;

import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator;
import org.keycloak.authentication.authenticators.browser.PasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserModel;
import org.keycloak.services.validation.Validation;

/**
 * Keycloak's Password Form (identity-first flows) with the gate in front. The identifier is the one chosen
 * on the username page. After the gated username step ({@link AbuseGateUsernameForm}) counted this attempt
 * on layers 1, 2 and 4, only layer 3 runs here; on its own (after the stock Username Form, on
 * re-authentication, on a retry on this page) every layer runs.
 */
public class AbuseGatePasswordForm extends PasswordForm {

    public AbuseGatePasswordForm(KeycloakSession session) {
        super(session);
    }

    @Override
    protected boolean validateForm(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return GateSupport.gated(context, chosenIdentifier(context), formData, GateSupport.Page.PASSWORD,
                GateSupport.passwordStepScope(context), () -> super.validateForm(context, formData),
                () -> GateSupport.answerMissingPassword(context, null, context.getUser(),
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

    /** The account Keycloak already found on the username page (one budget whether typed as name or e-mail). */
    private static String chosenIdentifier(AuthenticationFlowContext context) {
        UserModel user = context.getUser();
        if (user != null) {
            return user.getUsername();
        }
        return context.getAuthenticationSession().getAuthNote(AbstractUsernameFormAuthenticator.ATTEMPTED_USERNAME);
    }
}
