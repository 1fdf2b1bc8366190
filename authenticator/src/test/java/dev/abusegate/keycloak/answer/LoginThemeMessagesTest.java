package dev.abusegate.keycloak.answer;

import static dev.abusegate.keycloak.KeycloakStubs.stub;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.keycloak.models.KeycloakContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.ThemeManager;
import org.keycloak.theme.Theme;

/**
 * The 429's text comes from the realm's login theme and its localization texts, per realm and locale, and a change of
 * the realm's texts shows within the time a text is kept.
 */
class LoginThemeMessagesTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final AtomicReference<Locale> locale = new AtomicReference<>(Locale.ENGLISH);
    /** What the theme gives per realm id and locale (the realm's texts merged in, as Keycloak does). */
    private final Map<String, Properties> texts = new ConcurrentHashMap<>();

    @BeforeEach
    void movableClock() {
        LoginThemeMessages.forget();
        LoginThemeMessages.nanoClock = nanos::get;
    }

    @AfterEach
    void systemClock() {
        LoginThemeMessages.nanoClock = System::nanoTime;
        LoginThemeMessages.forget();
    }

    @Test
    void each_realm_and_locale_gets_its_own_text() {
        say("realm-a", Locale.ENGLISH, "Slow down (a)");
        say("realm-b", Locale.ENGLISH, "Slow down (b)");
        say("realm-a", Locale.GERMAN, "Langsamer (a)");

        assertThat(message("realm-a")).isEqualTo("Slow down (a)");
        assertThat(message("realm-b")).isEqualTo("Slow down (b)");
        locale.set(Locale.GERMAN);
        assertThat(message("realm-a")).isEqualTo("Langsamer (a)");
    }

    @Test
    void a_changed_realm_text_shows_once_the_kept_text_expires() {
        say("realm-a", Locale.ENGLISH, "before");
        assertThat(message("realm-a")).isEqualTo("before");

        say("realm-a", Locale.ENGLISH, "after");
        nanos.addAndGet(LoginThemeMessages.TTL_NANOS - 1);
        assertThat(message("realm-a")).as("kept").isEqualTo("before");
        nanos.addAndGet(1);
        assertThat(message("realm-a")).isEqualTo("after");
    }

    @Test
    void a_theme_without_the_text_gives_the_english_default() {
        assertThat(message("realm-a")).startsWith("Too many sign-in attempts. Please wait");
    }

    @Test
    void a_full_table_is_emptied_and_still_answers_right() {
        for (int i = 0; i < LoginThemeMessages.MAX_ENTRIES + 10; i++) {
            say("realm-" + i, Locale.ENGLISH, "text " + i);
            assertThat(message("realm-" + i)).isEqualTo("text " + i);
        }
        assertThat(message("realm-3")).isEqualTo("text 3");
    }

    private void say(String realmId, Locale l, String text) {
        Properties p = new Properties();
        p.setProperty(LoginThemeMessages.BLOCKED, text);
        texts.put(realmId + "/" + l, p);
    }

    private String message(String realmId) {
        RealmModel realm = stub(RealmModel.class, (m, a) -> "getId".equals(m) ? realmId : null);
        Theme theme = stub(Theme.class, (m, a) -> switch (m) {
            case "getName" -> "keycloak.v2";
            case "getEnhancedMessages" -> texts.getOrDefault(((RealmModel) a[0]).getId() + "/" + a[1], new Properties());
            default -> null;
        });
        ThemeManager themes = stub(ThemeManager.class, (m, a) -> "getTheme".equals(m) ? theme : null);
        KeycloakContext context = stub(KeycloakContext.class, (m, a) -> "resolveLocale".equals(m) ? locale.get() : null);
        KeycloakSession session = stub(KeycloakSession.class, (m, a) -> switch (m) {
            case "theme" -> themes;
            case "getContext" -> context;
            default -> null;
        });
        return LoginThemeMessages.message(session, realm, LoginThemeMessages.BLOCKED);
    }
}
