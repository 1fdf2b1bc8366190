package dev.abusegate.keycloak.answer;

import dev.abusegate.captcha.Altcha;
import dev.abusegate.captcha.CaptchaProvider;
import dev.abusegate.keycloak.CaptchaConfig;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.util.JsonSerialization;

/**
 * The token endpoint's 429 answer: a JSON body with {@code error} ({@code blocked} or {@code captcha_required}) and
 * the localized text, never which layer fired; in the captcha band also the realm's captcha provider and site key,
 * and for ALTCHA a fresh challenge, so an API client can show a captcha and send its solution back.
 */
public final class TooManyAttemptsJson {

    private TooManyAttemptsJson() {
    }

    /** The answer to {@code attempt}, which the gate did not let through. */
    public static Response of(AuthenticationFlowContext ctx, Refusal attempt) {
        return of(ctx.getSession(), ctx.getRealm(), attempt);
    }

    /** As above, in {@code realm}: also for an attempt refused before Keycloak's flow ran (the same bytes). */
    public static Response of(KeycloakSession session, RealmModel realm, Refusal attempt) {
        boolean blocked = attempt.blocked();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", attempt.code());
        body.put("error_description", LoginThemeMessages.message(session, realm,
                blocked ? LoginThemeMessages.BLOCKED : LoginThemeMessages.CAPTCHA_REQUIRED));
        CaptchaConfig captcha = attempt.offeredCaptcha();
        if (captcha != null) {
            body.put("captcha_provider", captcha.provider().id());
            body.put("captcha_site_key", captcha.siteKey() == null ? "" : captcha.siteKey());
            if (captcha.provider() == CaptchaProvider.ALTCHA) {
                Altcha.Challenge challenge = attempt.captchas()
                        .altchaChallengeFields(session, realm, captcha);
                if (challenge != null) { // null: no key to sign with, no ALTCHA offered
                    body.put("captcha_challenge", challenge.fields());
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
}
