package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.answer.MissingPasswordAnswer;
import dev.abusegate.keycloak.answer.TooManyAttemptsJson;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.authentication.authenticators.directgrant.ValidatePassword;
import org.keycloak.authentication.authenticators.directgrant.ValidateUsername;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * The gate for the token endpoint's password grant: replaces "Username Validation" and "Password" in a
 * copy of the direct grant flow. The gate runs first, on the {@code username} parameter and the client
 * address; when it allows the attempt, Keycloak's own username and password validators run unchanged,
 * so wrong credentials keep Keycloak's answer. Gate answers are HTTP 429 with a JSON body that never says
 * which layer fired. A captcha solution comes back as the {@code captcha_token} parameter.
 */
public class AbuseGateDirectGrant extends GatedRequestStep {

    public static final String ID = "abuse-gate-direct-grant";
    public static final String CAPTCHA_TOKEN = "captcha_token";

    private final ValidateUsername username = new ValidateUsername();
    private final ValidatePassword password = new ValidatePassword();

    public AbuseGateDirectGrant() {
        super(ID, "Username and Password (abuse gate)",
                "Replaces 'Username Validation' and 'Password' in a copy of the direct grant flow: the four-layer abuse gate "
                        + "runs on the 'username' parameter before the user lookup and the password hash; gate answers are HTTP 429 JSON.",
                ValidatePassword.PROVIDER_ID, AuthenticationExecutionModel.Requirement.REQUIRED, AuthenticationExecutionModel.Requirement.DISABLED);
    }

    @Override
    public void authenticate(AuthenticationFlowContext context) {
        MultivaluedMap<String, String> params = context.getHttpRequest().getDecodedFormParameters();
        String identifier = params.getFirst(AuthenticationManager.FORM_USERNAME);
        GatedAttempt attempt = GatedAttempt.evaluate(context, identifier, captcha -> params.getFirst(CAPTCHA_TOKEN), false, LayerScope.ALL);
        if (!attempt.allowed()) {
            context.forceChallenge(TooManyAttemptsJson.of(context, attempt));
            return;
        }
        Settlement settlement = attempt.settlement();
        String pw = params.getFirst(CredentialRepresentation.PASSWORD);
        if (identifier != null && MissingPasswordAnswer.blank(pw)) {
            // Decided from the request alone, before any lookup: Keycloak's answer to wrong credentials,
            // and nothing verified, for every name alike (a missing username is left to Keycloak: it
            // answers that without a lookup).
            settlement.abandon();
            MissingPasswordAnswer.onTokenEndpoint(context, identifier,
                    password.errorResponse(Response.Status.BAD_REQUEST.getStatusCode(), "invalid_grant", "Invalid user credentials"));
            return;
        }
        settlement.guard(() -> {
            username.authenticate(context);
            if (context.getStatus() != FlowStatus.SUCCESS) {
                // An unknown name (Keycloak's dummy hash), a service account, a disabled account (Keycloak
                // checks its password) and Keycloak's own brute-force lock (dummy hash) all answer
                // "invalid_grant" and are all counted as failed verifications, so the gate's counters never
                // tell them apart. A missing username checked no password.
                settlement.settle(identifier != null ? Verification.FAILED : Verification.NOT_VERIFIED, pw);
                return;
            }
            password.authenticate(context);
            FlowStatus status = context.getStatus();
            settlement.settle(status == FlowStatus.SUCCESS ? Verification.VERIFIED
                    : status == FlowStatus.FAILED ? Verification.FAILED : Verification.NOT_VERIFIED, pw);
        });
    }
}
