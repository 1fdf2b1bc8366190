package dev.abusegate.keycloak.answer;

import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.events.Details;
import org.keycloak.events.Errors;

/**
 * A missing password ({@link dev.abusegate.engine.Passwords#missing}), decided from the request alone, and the token endpoint's answer to it, given without looking
 * anybody up or hashing anything: the same answer and the same event for every name, known or not, so that nothing
 * about accounts can be learnt from leaving the password out. (The login forms answer with Keycloak's own
 * {@code validatePassword}, which answers an empty password the same way; see {@code GatedForm}.)
 */
public final class MissingPasswordAnswer {

    private MissingPasswordAnswer() {
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
