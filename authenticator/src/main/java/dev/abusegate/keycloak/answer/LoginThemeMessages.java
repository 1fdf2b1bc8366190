package dev.abusegate.keycloak.answer;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.theme.Theme;

/**
 * The gate's texts for API answers, localized from the realm's login theme (our theme-resources ship them), with the
 * realm's own localization texts applied as Keycloak applies them.
 *
 * <p>Each text is kept on the node for {@link #TTL_NANOS} per realm, theme, locale and key: merging a theme's messages
 * with the realm's texts was a seventh of a refusal's CPU. A change of the realm's texts shows within that time. The
 * table holds at most {@link #MAX_ENTRIES} texts and is emptied when full; only the realms, themes and locales the
 * server has (a locale the realm supports) can fill it.
 */
public final class LoginThemeMessages {

    public static final String BLOCKED = "abuseGateBlocked";
    public static final String CAPTCHA_REQUIRED = "abuseGateCaptchaRequired";

    static final long TTL_NANOS = 10_000_000_000L;
    static final int MAX_ENTRIES = 1024;

    private static final Logger LOG = Logger.getLogger(LoginThemeMessages.class);
    private static final Map<Key, Text> TEXTS = new ConcurrentHashMap<>();
    /** The clock of the table's times (nanoseconds); a test moves it. */
    static LongSupplier nanoClock = System::nanoTime;

    private record Key(String realmId, String theme, Locale locale, String key) {
    }

    private record Text(String value, long expiresAt) {
    }

    private LoginThemeMessages() {
    }

    /** Forgets every text kept (tests). */
    static void forget() {
        TEXTS.clear();
    }

    /** The localized message {@code key} ({@link #BLOCKED} or {@link #CAPTCHA_REQUIRED}); English when the theme has none. */
    public static String message(KeycloakSession session, RealmModel realm, String key) {
        try {
            Locale resolved = session.getContext().resolveLocale(null);
            Locale locale = resolved == null ? Locale.ENGLISH : resolved;
            Theme theme = session.theme().getTheme(Theme.Type.LOGIN);
            Key k = new Key(realm.getId(), theme.getName(), locale, key);
            long now = nanoClock.getAsLong();
            Text cached = TEXTS.get(k);
            if (cached != null && now - cached.expiresAt() < 0) {
                return cached.value();
            }
            Properties messages = theme.getEnhancedMessages(realm, locale);
            String text = messages.getProperty(key);
            if (text != null) {
                if (TEXTS.size() >= MAX_ENTRIES) {
                    TEXTS.clear();
                }
                TEXTS.put(k, new Text(text, now + TTL_NANOS));
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
