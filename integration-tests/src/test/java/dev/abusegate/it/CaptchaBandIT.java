package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Captcha, the band: when the form asks for a captcha and what an attempt in the band counts (free attempts below
 * it; unsolved ones challenged again and counting nothing; a solved one let through and counted), and its edge under
 * parallel requests. With the default provider, ALTCHA, solved by the Java solver the way the widget would. Which
 * solutions pass is {@link CaptchaAltchaIT} and {@link CaptchaVendorIT}, the widget in a browser {@link CaptchaWidgetIT}.
 */
class CaptchaBandIT extends ServerTest {

    private static final String PW = "alice-Secret-1";
    private static final Pattern WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");

    private static String realm;

    /** One realm for the class (the tests share its counters by design): {@link GateIt#captchaBandConfig()}. */
    @BeforeAll
    static void realm() {
        realm = importClassRealm(RealmBuilder.unique("band")
                .user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.captchaBandConfig()));
    }

    private static void assertCaptchaRequired(LoginResult r, boolean expectWrongSolutionNote) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.gateCode()).as(r.toString()).contains("captcha_required");
        assertThat(r.gateMessage()).contains(GateIt.messages("en").getProperty("abuseGateCaptchaRequired"));
        assertThat(BrowserLogin.attributeOfElement(r.body(), "abuse-gate-captcha", "data-provider")).contains("altcha");
        assertThat(WIDGET.matcher(r.body()).find()).as("altcha-widget in the page").isTrue();
        assertThat(r.body().contains("id=\"abuse-gate-captcha-error\"")).as("wrong-solution note").isEqualTo(expectWrongSolutionNote);
    }

    private static String challengeJson(LoginResult page) {
        String json = GateIt.altchaChallenge(page.body());
        assertThat(Json.parseMap(json)).containsKeys("algorithm", "challenge", "maxnumber", "salt", "signature");
        return json;
    }

    private static long pairAttempts(String address) {
        return stateNumber(admin.gateState(realm, address, "alice"), "pair", "attempts");
    }

    @Test
    void band_asks_for_a_captcha_challenges_wrong_solutions_without_counting_and_lets_a_solved_attempt_through() throws Exception {
        String a = "192.0.2.150";
        // threshold 6 x factor 0.5: three free attempts
        for (int i = 1; i <= 3; i++) {
            LoginResult r = attempt(realm, "alice", "wrong-" + i, a);
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            assertThat(r.gateCode()).isEmpty();
        }
        BrowserLogin browser = server.newBrowser();
        LoginResult page = browser.login(realm, "alice", PW, a);
        assertCaptchaRequired(page, false);
        assertThat(BrowserLogin.attributeOfElement(page.body(), "username", "value")).contains("alice");

        // missing, garbage and wrong solutions: challenged again (more often than the 3 slots left), never blocked
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of());
        assertCaptchaRequired(page, false);
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", "garbage"));
        assertCaptchaRequired(page, true);
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", tampered(AltchaSolver.solve(challengeJson(page)))));
        assertCaptchaRequired(page, true);
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", ""));
        assertCaptchaRequired(page, false);
        // ... and they counted nothing
        assertThat(pairAttempts(a)).isEqualTo(3);
        assertThat(stateNumber(admin.gateState(realm, a, null), "address", "attempts")).isEqualTo(3);

        // solving the page's challenge lets the attempt through: right password, logged in
        String solution = AltchaSolver.solve(challengeJson(page));
        assertThat(solution).isNotNull();
        LoginResult solved = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", solution));
        assertThat(solved.status()).as(solved.toString()).isEqualTo(302);
        assertThat(solved.loginSucceeded()).as(solved.toString()).isTrue();
        assertThat(pairAttempts(a)).isEqualTo(4);

        // the same solution again (another browser) is challenged again and counts nothing
        LoginResult replay = server.newBrowser().login(realm, "alice", PW, a, Map.of("altcha", solution));
        assertCaptchaRequired(replay, true);
        assertThat(pairAttempts(a)).isEqualTo(4);
    }

    /** A well-formed payload for the right challenge with a wrong number. */
    private static String tampered(String payload) throws Exception {
        ObjectNode p = (ObjectNode) Json.MAPPER.readTree(Base64.getDecoder().decode(payload));
        p.put("number", p.path("number").asLong() + 1);
        return Base64.getEncoder().encodeToString(p.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void below_the_band_no_captcha_is_shown() {
        LoginResult r = attempt(realm, "alice", PW, "192.0.2.151");
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        assertThat(Optional.ofNullable(r.body()).orElse("")).doesNotContain("altcha-widget");
    }

    /**
     * Bots send in parallel: twenty simultaneous wrong guesses for one account from one address, in a realm whose
     * only layer is per address + account (threshold 10, captcha band from 5). Exactly five reach Keycloak's password
     * check; the other fifteen are asked for a captcha, none blocked, on the token endpoint and on the login form.
     */
    @Nested
    class AtItsEdge {

        private static final int REQUESTS = 20;
        private static final int BAND_START = 5;
        private static String edgeRealm;

        @BeforeAll
        static void realm() {
            Map<String, String> config = GateIt.quietConfig("perIpAccount.threshold", "10", "captcha.enabled", "true",
                    "captcha.factor", "0.5");
            edgeRealm = importClassRealm(RealmBuilder.unique("band-edge")
                    .user("alice", "alice-Secret-1")
                    .user("bob", "bob-Secret-1")
                    .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config)
                    .gatedDirectGrantFlow("abuse-gate-direct-grant", config));
        }

        @Test
        void twenty_simultaneous_token_requests_let_exactly_the_band_start_reach_the_password_check() throws Exception {
            List<TokenClient.TokenResponse> answers = together(REQUESTS, i -> tokens.passwordGrant(edgeRealm, "alice", "wrong-" + i,
                    null, "203.0.113.210"));
            assertThat(answers).filteredOn(TokenClient.TokenResponse::isKeycloakInvalidGrant).hasSize(BAND_START);
            assertThat(answers).filteredOn(r -> r.status() == 429 && r.body().contains("captcha_required"))
                    .hasSize(REQUESTS - BAND_START);
            assertThat(stateNumber(admin.gateState(edgeRealm, "203.0.113.210", "alice"), "pair", "attempts"))
                    .isEqualTo(BAND_START);
        }

        @Test
        void twenty_simultaneous_form_posts_let_exactly_the_band_start_reach_the_password_check() throws Exception {
            String address = "203.0.113.211";
            List<BrowserLogin> browsers = new ArrayList<>();
            List<BrowserLogin.LoginResult> pages = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                BrowserLogin b = server.newBrowser();
                BrowserLogin.LoginResult p = b.openLoginPage(edgeRealm, address);
                p.requireFormAction();
                browsers.add(b);
                pages.add(p);
            }
            List<LoginResult> results = together(REQUESTS, i -> browsers.get(i).submit(pages.get(i), "bob", "wrong-" + i, address,
                    Map.of()));
            assertThat(results).filteredOn(r -> r.status() == 200 && r.gateCode().isEmpty() && r.keycloakError().isPresent())
                    .as("reached the password check").hasSize(BAND_START);
            assertThat(results).filteredOn(r -> r.status() == 429 && r.gateCode().filter("captcha_required"::equals).isPresent())
                    .as("asked for a captcha").hasSize(REQUESTS - BAND_START);
            assertThat(stateNumber(admin.gateState(edgeRealm, address, "bob"), "pair", "attempts")).isEqualTo(BAND_START);
        }
    }

    interface Call<T> {
        T run(int i) throws Exception;
    }

    /** Runs {@code n} calls released together and returns their results. */
    private static <T> List<T> together(int n, Call<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.run(index);
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(180, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
