package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.answer.LoginThemeMessages;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Passwords;
import dev.abusegate.engine.config.LayerPolicy;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.nio.charset.Charset;
import java.util.Base64;
import java.util.List;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.authentication.authenticators.util.AuthenticatorUtils;
import org.keycloak.events.Errors;
import org.keycloak.events.Event;
import org.keycloak.models.AuthenticationExecutionModel;

/**
 * A gated flow step for a stock Keycloak step that checks HTTP Basic credentials ({@code Authorization: Basic}).
 * The gate runs first, on the username of the header and the client address, before Keycloak looks anybody up or
 * hashes anything; when it allows the attempt, the stock step runs unchanged and its outcome feeds the account-lockout
 * layer ({@link GatedAttempt}). A subclass names the stock step and gives its protocol's answers in two hooks; it is its own factory ({@link GatedRequestStep}: one stateless
 * instance, as Keycloak's own HTTP Basic steps are).
 *
 * <p>An unknown name costs Keycloak's dummy hash here, as on its username form: Keycloak's HTTP Basic steps hash
 * nothing for a name they cannot find, so without it an unknown name would cost a fraction of a known one, tell itself
 * apart by its response time, and write a counted failure almost for free. A password that is missing ({@link
 * Passwords#missing}) is answered from the request alone, with the protocol's wrong-credentials answer: counted on
 * layers 1, 2 and 4 like every attempt, never as a failure, and nobody is looked up or hashed.
 *
 * <p>No captcha can be solved on these endpoints: an attempt in the captcha band is answered like a blocked one,
 * HTTP 429, with its own code ({@code captcha_required}). Signing in once through a gated browser form (captcha
 * solved, right password) resets the account's failures.
 */
abstract class GatedHttpBasicStep extends GatedRequestStep {

    private static final String BASIC_PREFIX = "Basic ";

    /** The stock step that reads the header and checks the password (stateless, shared). */
    private final Authenticator keycloak;

    GatedHttpBasicStep(String id, String displayType, String helpText, Authenticator keycloak, String replacedPasswordStep) {
        super(id, displayType, helpText, replacedPasswordStep, AuthenticationExecutionModel.Requirement.REQUIRED,
                AuthenticationExecutionModel.Requirement.ALTERNATIVE, AuthenticationExecutionModel.Requirement.DISABLED);
        this.keycloak = keycloak;
    }

    /**
     * The protocol's answer when the gate does not let the attempt through: {@code status429}, an HTTP 429 with
     * {@code Retry-After} (seconds, the same whichever layer answered), given the protocol's body.
     *
     * @param code    {@code blocked} or {@code captcha_required}
     * @param message the realm's localized "too many sign-in attempts" text
     */
    protected abstract Response tooManyAttempts(AuthenticationFlowContext context, Response.ResponseBuilder status429, String code,
            String message);

    /** The protocol's answer to wrong credentials, for a header the gate cannot read (no password, not base64). */
    protected abstract Response wrongCredentials(AuthenticationFlowContext context);

    @Override
    void authenticate(AuthenticationFlowContext context, GateRuntime runtime) {
        Credentials credentials = Credentials.of(context.getHttpRequest().getHttpHeaders().getRequestHeader(HttpHeaders.AUTHORIZATION));
        if (credentials == null) {
            // No Basic credentials: nothing to check or count; Keycloak answers as it always does.
            keycloak.authenticate(context);
            return;
        }
        if (credentials.password == null) {
            // Not a username and a password: refused from the request alone, nobody looked up, nothing counted.
            context.attempted();
            context.getEvent().error(Errors.INVALID_USER_CREDENTIALS);
            context.forceChallenge(wrongCredentials(context));
            return;
        }
        GatedAttempt attempt = GatedAttempt.evaluate(runtime, context, credentials.username, captcha -> null, false,
                LayerScope.ALL_WITHOUT_CAPTCHA, !Passwords.missing(credentials.password), credentials.password);
        if (!attempt.allowed()) {
            String message = LoginThemeMessages.message(context.getSession(), context.getRealm(), LoginThemeMessages.BLOCKED);
            Response.ResponseBuilder status429 = Response.status(Response.Status.TOO_MANY_REQUESTS)
                    .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds(attempt.options()));
            context.forceChallenge(tooManyAttempts(context, status429, attempt.code(), message));
            return;
        }
        Settlement settlement = attempt.settlement();
        if (Passwords.missing(credentials.password)) {
            settlement.abandon(); // nothing to verify: nobody looked up, nothing hashed, no failure counted
            context.attempted();
            context.getEvent().error(Errors.INVALID_USER_CREDENTIALS);
            context.forceChallenge(wrongCredentials(context));
            return;
        }
        Event event = context.getEvent().getEvent();
        event.setError(null);
        Verification outcome = settlement.guard(() -> {
            keycloak.authenticate(context);
            Verification v = outcome(context.getStatus(), event.getError());
            if (v == Verification.FAILED && context.getSession().users().getUserByUsername(context.getRealm(), credentials.username) == null) {
                // Keycloak found no account under that name (its own lookup, by username only) and hashed nothing:
                // the dummy hash its username form spends, so that an unknown name costs and takes what a known one
                // does before it is counted. (The event cannot tell: the docker step names the typed name as its user.)
                AuthenticatorUtils.dummyHash(context);
            }
            return v;
        });
        settlement.settle(outcome, credentials.password);
    }

    /**
     * How the stock step ended, from its status and the error of its event (Keycloak's event names are its audit
     * contract): success, a wrong password (or an unknown name, counted alike so the counters never tell them apart),
     * or the right password for an account Keycloak refuses (disabled, locked by its own brute-force detection).
     */
    static Verification outcome(FlowStatus status, String eventError) {
        if (status == FlowStatus.SUCCESS) {
            return Verification.VERIFIED;
        }
        if (eventError == null || Errors.INVALID_USER_CREDENTIALS.equals(eventError)) {
            return Verification.FAILED;
        }
        return Verification.NOT_VERIFIED;
    }

    /**
     * The longest window of the enabled layers (layer 3: its lockout): one value whichever layer answered, so the
     * header never says which one did. A hint; a progressive lockout can last longer.
     */
    static long retryAfterSeconds(GateOptions options) {
        long seconds = 1;
        for (Layer layer : Layer.values()) {
            LayerPolicy p = options.policy(layer);
            if (p.enabled() && layer.blocks()) { // a layer that never blocks never refuses
                seconds = Math.max(seconds, layer == Layer.ACCOUNT_LOCKOUT ? Math.max(p.windowSeconds(), p.lockoutSeconds()) : p.windowSeconds());
            }
        }
        return seconds;
    }

    /** The username and password of an {@code Authorization: Basic} header, read as Keycloak's HTTP Basic steps read it. */
    static final class Credentials {
        final String username;
        /** Null when the header holds no password (no colon) or is not base64. */
        final String password;

        private Credentials(String username, String password) {
            this.username = username;
            this.password = password;
        }

        /** Null when there are no Basic credentials (no header, or a Basic header that is not two words). */
        static Credentials of(List<String> authorization) {
            if (authorization == null) {
                return null;
            }
            String encoded = null;
            for (String header : authorization) {
                if (header != null && header.startsWith(BASIC_PREFIX)) {
                    String[] words = header.trim().split("\\s+");
                    if (words.length != 2) {
                        return null;
                    }
                    encoded = words[1];
                }
            }
            if (encoded == null) {
                return null;
            }
            String decoded;
            try {
                // The platform charset, as Keycloak's step decodes it: the gate counts exactly the name Keycloak looks up.
                decoded = new String(Base64.getMimeDecoder().decode(encoded), Charset.defaultCharset());
            } catch (IllegalArgumentException e) {
                return new Credentials(null, null);
            }
            int colon = decoded.indexOf(':');
            return colon < 0 ? new Credentials(decoded, null) : new Credentials(decoded.substring(0, colon), decoded.substring(colon + 1));
        }
    }
}
