package dev.abusegate.keycloak.answer;

import jakarta.ws.rs.core.Response;
import java.util.function.Supplier;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.util.AuthenticatorUtils;
import org.keycloak.events.Details;
import org.keycloak.events.Errors;
import org.keycloak.events.EventBuilder;
import org.keycloak.models.UserModel;

/**
 * An imitation of Keycloak's answer to a missing password, given from the request alone, without looking anybody up
 * or hashing anything: the same answer and the same event for every name, known or not, so that nothing about
 * accounts can be learnt from leaving the password out.
 */
public final class MissingPasswordAnswer {

    private MissingPasswordAnswer() {
    }

    /**
     * Whether a submitted password counts as missing: absent, empty or only whitespace (Keycloak refuses
     * such a password when one is set, {@code Validation.isBlank}). Decided from the request alone.
     */
    public static boolean blank(String password) {
        return password == null || password.trim().isEmpty();
    }

    /**
     * A login form's answer: the form again with "invalid username or password" (or the form's own message) and event
     * {@code invalid_user_credentials}; a force challenge, so Keycloak's brute-force detection counts it no more than
     * it counts its own.
     *
     * @param knownUser the user Keycloak already chose before this form (re-authentication, identity-first),
     *                  else null
     * @param page      Keycloak's form page with its wrong-password message; built after the re-authentication
     *                  attributes are set
     */
    public static void onForm(AuthenticationFlowContext ctx, String typedUsername, UserModel knownUser,
                              Supplier<Response> page) {
        EventBuilder event = ctx.getEvent();
        if (knownUser != null) {
            event.user(knownUser);
        } else if (typedUsername != null && !typedUsername.isEmpty()) {
            event.detail(Details.USERNAME, typedUsername.trim());
        }
        event.error(Errors.INVALID_USER_CREDENTIALS);
        AuthenticatorUtils.setupReauthenticationInUsernamePasswordFormError(ctx);
        ctx.forceChallenge(page.get());
    }

    /**
     * The token endpoint's answer: Keycloak's answer to wrong credentials ({@code wrongCredentials}: HTTP 400,
     * {@code invalid_grant}) and event {@code invalid_user_credentials} with the typed name.
     */
    public static void onTokenEndpoint(AuthenticationFlowContext ctx, String typedUsername, Response wrongCredentials) {
        ctx.getEvent().detail(Details.USERNAME, typedUsername.trim()).error(Errors.INVALID_USER_CREDENTIALS);
        ctx.forceChallenge(wrongCredentials);
    }
}
