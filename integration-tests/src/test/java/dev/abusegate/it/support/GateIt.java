package dev.abusegate.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Helpers shared by the gate ITs: gate configs, the gate's answers, the state API's sections, message bundles, polling. */
public final class GateIt {

    /** Provider ids of the gated steps: the username+password form, identity-first's username and password forms. */
    public static final String USERNAME_PASSWORD_FORM = "abuse-gate-username-password-form";
    public static final String USERNAME_FORM = "abuse-gate-username-form";
    public static final String PASSWORD_FORM = "abuse-gate-password-form";

    private static final Pattern ALTCHA_WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");
    private static final Pattern CHALLENGE_JSON = Pattern.compile("\\schallengejson\\s*=\\s*\"([^\"]*)\"");

    private static final AtomicInteger NEXT_ADDRESS = new AtomicInteger(1);

    private GateIt() {
    }

    /** Every threshold 1000 and no captcha, so only the layers named in {@code overrides} (key, value, …) matter. */
    public static Map<String, String> quietConfig(String... overrides) {
        return with(new LinkedHashMap<>(Map.of("perIp.threshold", "1000", "perIpAccount.threshold", "1000",
                "accountLockout.threshold", "1000", "credentialStuffing.threshold", "1000", "captcha.enabled", "false")), overrides);
    }

    private static Map<String, String> with(Map<String, String> config, String... overrides) {
        config.putAll(Http.fields(overrides));
        return config;
    }

    /** Per address and account, threshold 6, captcha from factor 0.5: attempts 1-3 are free, the fourth meets the captcha. */
    public static Map<String, String> captchaBandConfig(String... overrides) {
        return with(quietConfig("perIpAccount.threshold", "6", "captcha.enabled", "true", "captcha.factor", "0.5"), overrides);
    }

    /** With {@link #captchaBandConfig()}: three free wrong attempts, then the fourth's captcha answer. */
    public static BrowserLogin.LoginResult reachCaptchaBand(BrowserLogin browser, String realm, String username, String address) {
        for (int i = 1; i <= 3; i++) {
            BrowserLogin.LoginResult free = browser.login(realm, username, "wrong-" + i, address);
            assertThat(free.status()).as("free attempt %d: %s", i, free).isEqualTo(200);
            assertThat(free.gateCode()).as("free attempt %d", i).isEmpty();
            assertThat(free.keycloakError()).contains("Invalid username or password.");
        }
        BrowserLogin.LoginResult r = browser.login(realm, username, "wrong-4", address);
        assertCaptchaRequired(r);
        return r;
    }

    /** The captcha page says the submitted solution was wrong (an alert, {@code #abuse-gate-captcha-error}). */
    public static boolean showsWrongSolution(BrowserLogin.LoginResult r) {
        return BrowserLogin.attributeOfElement(r.body(), "abuse-gate-captcha-error", "role").filter("alert"::equals).isPresent();
    }

    /** The ALTCHA challenge (JSON, unescaped) of the page's {@code <altcha-widget challengejson="…">}. */
    public static String altchaChallenge(String html) {
        Matcher widget = ALTCHA_WIDGET.matcher(html);
        assertThat(widget.find()).as("an <altcha-widget> on the page").isTrue();
        Matcher challenge = CHALLENGE_JSON.matcher(widget.group());
        assertThat(challenge.find()).as("challengejson on the widget: %s", widget.group()).isTrue();
        return BrowserLogin.unescape(challenge.group(1));
    }

    /** A documentation-range client address (198.51.100.1-254) that no other caller in this JVM got. */
    public static String freshAddress() {
        int n = NEXT_ADDRESS.getAndIncrement();
        assertThat(n).as("fresh addresses left").isLessThan(255);
        return "198.51.100." + n;
    }

    /** A number inside a section of the state answer, e.g. {@code stateNumber(s, "pair", "attempts")}. */
    public static long stateNumber(Map<String, Object> state, String section, String field) {
        if (!(stateValue(state, section, field) instanceof Number n)) {
            throw new AssertionError("No " + section + "." + field + " in " + state);
        }
        return n.longValue();
    }

    /** Any value inside a section of the state answer, e.g. {@code stateValue(s, "identifier", "locked")}. */
    @SuppressWarnings("unchecked")
    public static Object stateValue(Map<String, Object> state, String section, String field) {
        Map<String, Object> s = (Map<String, Object>) state.get(section);
        if (s == null || !s.containsKey(field)) {
            throw new AssertionError("No " + section + "." + field + " in " + state);
        }
        return s.get(field);
    }

    /** The message bundle shipped in the provider jar (theme-resources/messages/messages_{lang}.properties). */
    public static Properties messages(String lang) {
        String path = "theme-resources/messages/messages_" + lang + ".properties";
        try (InputStream in = GateIt.class.getClassLoader().getResourceAsStream(path)) {
            Properties p = new Properties();
            p.load(new InputStreamReader(Objects.requireNonNull(in, "No " + path + " on the test class path"), StandardCharsets.UTF_8));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls until the condition holds; fails with {@code what} after the timeout. */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        awaitValue(what, timeout, () -> condition.getAsBoolean() ? Optional.of(true) : Optional.empty(),
                () -> "timed out after " + timeout);
    }

    /** Polls {@code probe} every 200 ms until it yields a value; after the timeout fails with {@code what} and the detail. */
    public static <T> T awaitValue(String what, Duration timeout, Supplier<Optional<T>> probe, Supplier<String> detail) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": " + detail.get());
            }
            sleep(200);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The median of durations in nanoseconds, in milliseconds. */
    public static double medianMillis(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        int n = sorted.size();
        return (n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0) / 1_000_000.0;
    }

    /** Keycloak's own answer to a wrong password: the form again with its error, nothing from the gate. */
    public static void assertWrongPassword(BrowserLogin.LoginResult r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.gateCode()).as(r.toString()).isEmpty();
        assertThat(r.keycloakError()).as(r.toString()).isPresent();
    }

    /** The gate's 429 page with {@code code} ("blocked", "captcha_required"): nobody was logged in. */
    public static void assertGate(BrowserLogin.LoginResult r, String code) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.gateCode()).as(r.toString()).contains(code);
    }

    public static void assertBlocked(BrowserLogin.LoginResult r) {
        assertGate(r, "blocked");
    }

    public static void assertCaptchaRequired(BrowserLogin.LoginResult r) {
        assertGate(r, "captcha_required");
    }
}
