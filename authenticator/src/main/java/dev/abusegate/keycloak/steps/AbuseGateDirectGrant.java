package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.Passwords;
import dev.abusegate.keycloak.answer.MissingPasswordAnswer;
import dev.abusegate.keycloak.answer.TooManyAttemptsJson;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.runtime.PasswordCheckQueue;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.authentication.authenticators.util.AuthenticatorUtils;
import org.keycloak.authentication.authenticators.directgrant.ValidatePassword;
import org.keycloak.authentication.authenticators.directgrant.ValidateUsername;
import org.keycloak.events.Errors;
import org.keycloak.events.Event;
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

    /**
     * The captcha solution this step verifies for a request: its {@code captcha_token} when the request will have a
     * password checked (a username and a password that is not missing), else null. The edge asks the same.
     */
    static String verifiedToken(MultivaluedMap<String, String> params) {
        boolean checksNone = Passwords.missing(params.getFirst(CredentialRepresentation.PASSWORD))
                || params.getFirst(AuthenticationManager.FORM_USERNAME) == null;
        return checksNone ? null : params.getFirst(CAPTCHA_TOKEN);
    }

    @Override
    void authenticate(AuthenticationFlowContext context, GateRuntime runtime) {
        MultivaluedMap<String, String> params = context.getHttpRequest().getDecodedFormParameters();
        String identifier = params.getFirst(AuthenticationManager.FORM_USERNAME);
        String pw = params.getFirst(CredentialRepresentation.PASSWORD);
        boolean missing = Passwords.missing(pw);
        // an attempt that will check no password (none, or no username) spends no captcha solution (it is not even verified)
        boolean checksNone = missing || identifier == null;
        GatedAttempt attempt = GatedAttempt.evaluate(runtime, context, identifier, captcha -> verifiedToken(params),
                false, LayerScope.ALL, !checksNone, pw);
        if (!attempt.allowed()) {
            context.forceChallenge(TooManyAttemptsJson.of(context, attempt));
            return;
        }
        Settlement settlement = attempt.settlement();
        if (identifier != null && missing) {
            // Decided from the request alone, before any lookup: Keycloak's answer to wrong credentials,
            // and nothing verified, for every name alike (a missing username is left to Keycloak: it
            // answers that without a lookup).
            settlement.abandon();
            MissingPasswordAnswer.onTokenEndpoint(context, identifier,
                    password.errorResponse(Response.Status.BAD_REQUEST.getStatusCode(), "invalid_grant", "Invalid user credentials"));
            return;
        }
        if (!attempt.spend(attempt.verifiedCaptcha())) {
            // the solution was spent elsewhere meanwhile (or cannot be recorded): evaluated again without it
            settlement.abandon();
            attempt = GatedAttempt.evaluate(runtime, context, identifier, captcha -> null, false, LayerScope.ALL, true, pw);
            if (!attempt.allowed()) {
                context.forceChallenge(TooManyAttemptsJson.of(context, attempt));
                return;
            }
        }
        try (PasswordCheckQueue.Turn turn = attempt.passwordCheckTurn()) {
            // the realm may have entered "under attack" while this attempt waited for its turn
            GatedAttempt late = attempt.realmEnteredMeanwhile(null);
            if (late != null) {
                attempt.settlement().abandon();
                context.forceChallenge(TooManyAttemptsJson.of(context, late));
                return;
            }
            check(context, attempt.settlement(), identifier, pw);
        }
    }

    /** Keycloak's own check: its username step (the lookup), then its password step, settled on layer 3. */
    private void check(AuthenticationFlowContext context, Settlement checked, String identifier, String pw) {
        checked.guard(() -> {
            Event event = context.getEvent().getEvent();
            event.setError(null);
            username.authenticate(context);
            if (context.getStatus() != FlowStatus.SUCCESS) {
                // An unknown name, a service account and Keycloak's own brute-force lock (each with Keycloak's dummy
                // hash), a disabled account and an e-mail two accounts share (no hash from Keycloak: the gate spends
                // the dummy hash) all answer "invalid_grant" and are all counted as failed verifications, each at the
                // cost of a hash, so the gate's counters never tell them apart and none is counted for free. A
                // missing username checked no password.
                if (identifier != null && (event.getError() == null || Errors.USER_DISABLED.equals(event.getError()))) {
                    AuthenticatorUtils.dummyHash(context);
                }
                checked.settle(identifier != null ? Verification.FAILED : Verification.NOT_VERIFIED, pw);
                return;
            }
            password.authenticate(context);
            FlowStatus status = context.getStatus();
            checked.settle(status == FlowStatus.SUCCESS ? Verification.VERIFIED
                    : status == FlowStatus.FAILED ? Verification.FAILED : Verification.NOT_VERIFIED, pw);
        });
    }
}
