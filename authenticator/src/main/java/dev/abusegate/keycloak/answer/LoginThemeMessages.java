package dev.abusegate.keycloak.answer;

import java.io.IOException;
import java.util.Locale;
import java.util.Properties;
import org.jboss.logging.Logger;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.theme.Theme;

/** The gate's texts for API answers, localized from the realm's login theme (our theme-resources ship them). */
public final class LoginThemeMessages {

    public static final String BLOCKED = "abuseGateBlocked";
    public static final String CAPTCHA_REQUIRED = "abuseGateCaptchaRequired";

    private static final Logger LOG = Logger.getLogger(LoginThemeMessages.class);

    private LoginThemeMessages() {
    }

    /** The localized message {@code key} ({@link #BLOCKED} or {@link #CAPTCHA_REQUIRED}); English when the theme has none. */
    public static String message(KeycloakSession session, RealmModel realm, String key) {
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
        return BLOCKED.equals(key)
                ? "Too many sign-in attempts. Please wait a few minutes before trying again."
                : "Too many sign-in attempts. Please confirm you are a person, then sign in again.";
    }
}
