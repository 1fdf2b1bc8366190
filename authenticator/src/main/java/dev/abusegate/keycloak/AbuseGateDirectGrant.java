package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaProvider;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.authentication.authenticators.directgrant.AbstractDirectGrantAuthenticator;
import org.keycloak.authentication.authenticators.directgrant.ValidatePassword;
import org.keycloak.authentication.authenticators.directgrant.ValidateUsername;
import org.keycloak.events.Details;
import org.keycloak.events.Errors;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.theme.Theme;
import org.keycloak.util.JsonSerialization;

/**
 * The gate for the token endpoint's password grant: replaces "Username Validation" and "Password" in a
 * copy of the direct grant flow. The gate runs first, on the {@code username} parameter and the client
 * address; when it allows the attempt, Keycloak's own username and password validators run unchanged,
 * so wrong credentials keep Keycloak's answer. Gate answers are HTTP 429 with a JSON body that never says
 * which layer fired. A captcha solution comes back as the {@code captcha_token} parameter.
 */
public class AbuseGateDirectGrant extends AbstractDirectGrantAuthenticator {

    public static final String ID = "abuse-gate-direct-grant";
    public static final String CAPTCHA_TOKEN = "captcha_token";

    private static final Logger LOG = Logger.getLogger(AbuseGateDirectGrant.class);
    private static final AuthenticationExecutionModel.Requirement[] REQUIREMENTS = {
        AuthenticationExecutionModel.Requirement.REQUIRED, AuthenticationExecutionModel.Requirement.DISABLED
    };

    private final ValidateUsername username = new ValidateUsername();
    private final ValidatePassword password = new ValidatePassword();

    @Override
    public void authenticate(AuthenticationFlowContext context) {
        MultivaluedMap<String, String> params = context.getHttpRequest().getDecodedFormParameters();
        String identifier = params.getFirst(AuthenticationManager.FORM_USERNAME);
        GateSupport.Check check = GateSupport.run(context, identifier, captcha -> params.getFirst(CAPTCHA_TOKEN), false);
        if (!check.allowed()) {
            context.forceChallenge(answer(context, check));
            return;
        }
        String pw = params.getFirst(CredentialRepresentation.PASSWORD);
        if (identifier != null && GateSupport.blankPassword(pw)) {
            // Decided from the request alone, before any lookup: Keycloak's answer to wrong credentials,
            // and nothing verified, for every name alike (a missing username is left to Keycloak: it
            // answers that without a lookup).
            GateSupport.abandon(context, check);
            context.getEvent().detail(Details.USERNAME, identifier.trim()).error(Errors.INVALID_USER_CREDENTIALS);
            context.forceChallenge(errorResponse(Response.Status.BAD_REQUEST.getStatusCode(), "invalid_grant", "Invalid user credentials"));
            return;
        }
        try {
            username.authenticate(context);
            if (context.getStatus() != FlowStatus.SUCCESS) {
                // An unknown name (Keycloak's dummy hash), a service account, a disabled account (Keycloak
                // checks its password) and Keycloak's own brute-force lock (dummy hash) all answer
                // "invalid_grant" and are all counted as failed verifications, so the gate's counters never
                // tell them apart. A missing username checked no password.
                GateSupport.settle(context, check, identifier != null ? GateSupport.Verification.FAILED
                        : GateSupport.Verification.NOT_VERIFIED, pw);
                return;
            }
            password.authenticate(context);
            FlowStatus status = context.getStatus();
            GateSupport.settle(context, check, status == FlowStatus.SUCCESS ? GateSupport.Verification.VERIFIED
                    : status == FlowStatus.FAILED ? GateSupport.Verification.FAILED
                    : GateSupport.Verification.NOT_VERIFIED, pw);
        } catch (RuntimeException e) {
            GateSupport.abandon(context, check);
            throw e;
        }
    }

    private static Response answer(AuthenticationFlowContext ctx, GateSupport.Check check) {
        boolean blocked = check.blocked();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", check.decision.outcome().code());
        body.put("error_description", message(ctx.getSession(), ctx.getRealm(), blocked ? "abuseGateBlocked" : "abuseGateCaptchaRequired"));
        if (!blocked && check.captcha != null) {
            body.put("captcha_provider", check.captcha.provider().id());
            body.put("captcha_site_key", check.captcha.siteKey() == null ? "" : check.captcha.siteKey());
            if (check.captcha.provider() == CaptchaProvider.ALTCHA) {
                try {
                    String challenge = GateSupport.altchaChallenge(ctx, check.captcha);
                    if (challenge != null) { // null: no key to sign with, no ALTCHA offered
                        body.put("captcha_challenge", JsonSerialization.readValue(challenge, Map.class));
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("cannot build the ALTCHA challenge", e);
                }
            }
        }
        try {
            return Response.status(Response.Status.TOO_MANY_REQUESTS)
                    .type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(JsonSerialization.writeValueAsString(body))
                    .build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The localized message from the realm's login theme (our theme-resources ship the texts). */
    static String message(KeycloakSession session, RealmModel realm, String key) {
        try {
            Locale locale = session.getContext().resolveLocale(null);
            Theme theme = session.theme().getTheme(Theme.Type.LOGIN);
            Properties messages = theme.getEnhancedMessages(realm, locale == null ? Locale.ENGLISH : locale);
            String text = messages.getProperty(key);
            if (text != null) {
                return text;
            }
        } catch (IOException | RuntimeException e) {
            LOG.debugf("Abuse gate: login theme messages unavailable: %s", e.getClass().getSimpleName());
        }
        return "abuseGateBlocked".equals(key)
                ? "Too many sign-in attempts. Please wait a few minutes before trying again."
                : "Too many sign-in attempts. Please confirm you are a person, then sign in again.";
    }

    @Override
    public boolean requiresUser() {
        return false;
    }

    @Override
    public boolean configuredFor(KeycloakSession session, RealmModel realm, UserModel user) {
        return true;
    }

    @Override
    public void setRequiredActions(KeycloakSession session, RealmModel realm, UserModel user) {
    }

    @Override
    public boolean isUserSetupAllowed() {
        return false;
    }

    @Override
    public String getDisplayType() {
        return "Username and Password (abuse gate)";
    }

    @Override
    public String getReferenceCategory() {
        return null;
    }

    @Override
    public boolean isConfigurable() {
        return true;
    }

    @Override
    public AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return REQUIREMENTS;
    }

    @Override
    public String getHelpText() {
        return "Replaces 'Username Validation' and 'Password' in a copy of the direct grant flow: the four-layer abuse gate "
                + "runs on the 'username' parameter before the user lookup and the password hash; gate answers are HTTP 429 JSON. " + GateConfig.STEP_HELP;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return GateConfig.properties();
    }

    @Override
    public String getId() {
        return ID;
    }
}
