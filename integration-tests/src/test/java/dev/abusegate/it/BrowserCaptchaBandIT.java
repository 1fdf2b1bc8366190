package dev.abusegate.it;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abusegate.captcha.Altcha;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The captcha band on the browser form at the HTTP level, with the default provider (ALTCHA, solved by the
 * Java solver the way the widget would): free attempts, the challenge, wrong/missing solutions challenged
 * again without counting, a solved attempt let through, a replayed solution refused.
 */
class BrowserCaptchaBandIT extends ServerTest {

    private static final String PW = "alice-Secret-1";
    private static final Pattern WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");

    private static String realm;

    /** One realm for the class (the tests share its counters by design); runs after the shared server is up. */
    @BeforeAll
    static void realm() {
        realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("band"))
                .user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM,
                        quietConfig("perIpAccount.threshold", "6", "captcha.enabled", "true")));
    }

    @AfterAll
    static void deleteRealm() {
        if (admin != null && realm != null) {
            admin.deleteRealm(realm);
        }
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
        Matcher m = Pattern.compile("<altcha-widget\\b[^>]*\\bchallengejson\\s*=\\s*\"([^\"]*)\"").matcher(page.body());
        assertThat(m.find()).as("challengejson attribute in " + page).isTrue();
        String json = BrowserLogin.unescape(m.group(1));
        Map<String, Object> parsed = Json.parseMap(json);
        assertThat(parsed).containsKeys("algorithm", "challenge", "maxnumber", "salt", "signature");
        return json;
    }

    private static long pairAttempts(String address) {
        return stateNumber(GateIt.state(admin, realm, address, "alice"), "pair", "attempts");
    }

    @Test
    void band_asks_for_a_captcha_challenges_wrong_solutions_without_counting_and_lets_a_solved_attempt_through() throws Exception {
        String a = "192.0.2.150";
        // threshold 6 x factor 0.5: three free attempts
        for (int i = 1; i <= 3; i++) {
            LoginResult r = GateIt.attempt(server, realm, "alice", "wrong-" + i, a);
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
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", tampered(Altcha.solve(challengeJson(page)))));
        assertCaptchaRequired(page, true);
        page = browser.submit(page.nextPage(), "alice", PW, a, Map.of("altcha", ""));
        assertCaptchaRequired(page, false);
        // ... and they counted nothing
        assertThat(pairAttempts(a)).isEqualTo(3);
        assertThat(stateNumber(GateIt.state(admin, realm, a, null), "address", "attempts")).isEqualTo(3);

        // solving the page's challenge lets the attempt through: right password, logged in
        String solution = Altcha.solve(challengeJson(page));
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
        LoginResult r = GateIt.attempt(server, realm, "alice", PW, "192.0.2.151");
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        assertThat(Optional.ofNullable(r.body()).orElse("")).doesNotContain("altcha-widget");
    }
}
