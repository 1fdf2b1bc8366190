package dev.abusegate.keycloak.answer;

import jakarta.ws.rs.core.Response;
import java.util.HashMap;
import java.util.Map;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.forms.login.LoginFormsProvider;

/**
 * The login forms' 429 page ({@value #TEMPLATE}): "too many sign-in attempts", with the captcha widget in the captcha
 * band, and the fields of the form it stands for offered again. Sent as a force challenge, which Keycloak's own
 * brute-force protection does not count.
 */
public final class TooManyAttemptsPage {

    public static final String TEMPLATE = "abuse-gate-login.ftl";

    /** Which fields the page offers again. */
    public enum Fields {
        USERNAME_AND_PASSWORD, PASSWORD, USERNAME
    }

    private TooManyAttemptsPage() {
    }

    /** Answers {@code attempt}, which the gate did not let through, with the page. */
    public static void show(AuthenticationFlowContext ctx, Refusal attempt, String identifier, Fields shown,
                            boolean rememberMe) {
        boolean passwordOnly = shown == Fields.PASSWORD;
        boolean blocked = attempt.blocked();
        Map<String, Object> page = new HashMap<>();
        page.put("code", attempt.code());
        page.put("message", blocked ? LoginThemeMessages.BLOCKED : LoginThemeMessages.CAPTCHA_REQUIRED);
        page.put("username", passwordOnly || identifier == null ? "" : clip(identifier));
        page.put("passwordOnly", passwordOnly);
        page.put("usernameOnly", shown == Fields.USERNAME);
        page.put("rememberMe", rememberMe);
        LoginFormsProvider form = ctx.form()
                .setExecution(ctx.getExecution().getId())
                .setStatus(Response.Status.TOO_MANY_REQUESTS);
        if (attempt.offeredCaptcha() != null) {
            page.put("captcha", attempt.captchas().widget(ctx.getSession(), ctx.getRealm(),
                    attempt.offeredCaptcha(), form));
            page.put("captchaFailed", attempt.captchaSubmitted());
        }
        form.setAttribute("abuseGate", page);
        ctx.forceChallenge(form.createForm(TEMPLATE));
    }

    /** The typed username is kept in the form, but never more of it than a username can be. */
    private static String clip(String identifier) {
        String s = identifier.trim();
        return s.length() > 255 ? s.substring(0, 255) : s;
    }
}
