package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The identity-first flow with both gated steps ({@code abuse-gate-username-form}, then
 * {@code abuse-gate-password-form}): layers 1, 2 and 4 and their captcha band answer on the username page
 * before Keycloak looks the name up, layer 3 on the password page, and each attempt is counted once on
 * each layer. A password page reached without the gated username step still runs every layer.
 */
class IdentityFirstGateIT extends ServerTest {

    private static final String PW = "alice-Secret-1";

    private String realm(String prefix, Map<String, String> config) {
        String realm = importRealm(RealmBuilder.unique(prefix).user("alice", PW).user("bob", PW)
                .identityFirstGatedBrowserFlow(GateIt.USERNAME_FORM, GateIt.PASSWORD_FORM, config));
        assertThat(admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW)).extracting(e -> e.getProviderId())
                .contains(GateIt.USERNAME_FORM, GateIt.PASSWORD_FORM).doesNotContain("auth-username-form");
        return realm;
    }

    /** Submits a name on the username page; 200 with a password-only page when Keycloak chose a user. */
    private static LoginResult username(BrowserLogin browser, BrowserLogin.LoginResult page, String name, String address,
                                        Map<String, String> extra) {
        return browser.submit(page, name, null, address, extra);
    }

    private static void assertPasswordPage(LoginResult r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.gateCode()).as(r.toString()).isEmpty();
        assertThat(r.body()).contains("name=\"password\"").doesNotContain("name=\"username\"");
    }

    private static void assertUsernamePageAnswer(LoginResult r, String code) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.gateCode()).as(r.toString()).contains(code);
        assertThat(r.body()).as("the 429 username page asks for the name only")
                .contains("name=\"username\"").doesNotContain("name=\"password\"");
        assertThat(r.nextPage().formAction()).isNotNull();
    }

    private Map<String, Object> state(String realm, String address, String name) {
        return admin.gateState(realm, address, name);
    }

    @Test
    void the_demo_realms_identity_first_flow_uses_both_gated_steps() throws Exception {
        String basedir = System.getProperty("basedir");
        Path demo = (basedir == null ? Paths.get("").toAbsolutePath() : Paths.get(basedir)).resolve("../demo/realm-demo.json").normalize();
        Map<String, Object> json = Json.parseMap(Files.readString(demo));
        String name = RealmBuilder.uniqueName("demo-if");
        json.put("realm", name);
        admin.importRealm(json);
        deleteAfterTest(name);
        assertThat(admin.executions(name, "abuse-gate identity-first")).extracting(e -> e.getProviderId())
                .containsSubsequence(GateIt.USERNAME_FORM, GateIt.PASSWORD_FORM).doesNotContain("auth-username-form");
    }

    @Test
    void each_attempt_is_counted_once_on_each_layer() {
        String realm = realm("if-once", quietConfig());
        String a = "192.0.2.201";
        BrowserLogin browser = server.newBrowser();
        LoginResult passwordPage = username(browser, browser.openLoginPage(realm, a), "alice", a, Map.of());
        assertPasswordPage(passwordPage);
        Map<String, Object> s = state(realm, a, "alice");
        assertThat(stateNumber(s, "address", "attempts")).as("layer 1 on the username page").isEqualTo(1);
        assertThat(stateNumber(s, "pair", "attempts")).as("layer 2 on the username page").isEqualTo(1);
        assertThat(stateNumber(s, "address", "distinctIdentifiers")).as("layer 4 on the username page").isEqualTo(1);
        assertThat(stateNumber(s, "identifier", "failures")).isZero();

        LoginResult wrong = browser.submit(passwordPage.nextPage(), null, "wrong-1", a, Map.of());
        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(200);
        assertThat(wrong.keycloakError()).contains("Invalid password.");
        s = state(realm, a, "alice");
        assertThat(stateNumber(s, "address", "attempts")).as("the password step does not count layer 1 again").isEqualTo(1);
        assertThat(stateNumber(s, "pair", "attempts")).isEqualTo(1);
        assertThat(stateNumber(s, "identifier", "failures")).as("layer 3 on the password page").isEqualTo(1);

        // a retry on the password page is a new attempt without a username step: every layer counts it
        LoginResult again = browser.submit(wrong.nextPage(), null, "wrong-2", a, Map.of());
        assertThat(again.keycloakError()).contains("Invalid password.");
        s = state(realm, a, "alice");
        assertThat(stateNumber(s, "address", "attempts")).isEqualTo(2);
        assertThat(stateNumber(s, "pair", "attempts")).isEqualTo(2);
        assertThat(stateNumber(s, "identifier", "failures")).isEqualTo(2);

        LoginResult ok = browser.submit(again.nextPage(), null, PW, a, Map.of());
        assertThat(ok.loginSucceeded()).as(ok.toString()).isTrue();
        s = state(realm, a, "alice");
        assertThat(stateNumber(s, "address", "attempts")).isEqualTo(3);
        assertThat(stateNumber(s, "identifier", "failures")).isZero();
    }

    @Test
    void layers_1_and_4_answer_on_the_username_page_before_the_lookup() {
        String realm = realm("if-before", quietConfig("perIp.threshold", "3", "credentialStuffing.threshold", "2"));
        String a = "192.0.2.202";
        for (int i = 0; i < 3; i++) {
            BrowserLogin b = server.newBrowser();
            LoginResult r = username(b, b.openLoginPage(realm, a), "ghost", a, Map.of());
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            assertThat(r.keycloakError()).as("Keycloak's own answer to an unknown name").contains("Invalid username or email.");
        }
        for (String name : new String[] {"ghost", "alice"}) {
            BrowserLogin b = server.newBrowser();
            assertUsernamePageAnswer(username(b, b.openLoginPage(realm, a), name, a, Map.of()), "blocked");
        }
        GateIt.await("the blocked events", Duration.ofSeconds(15),
                () -> admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked").size() >= 2);
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "user_not_found"))
                .as("blocked names were never looked up").hasSize(3);
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked"))
                .extracting(e -> (Object) e.getDetails().get("abuse_gate_layer")).containsOnly("per_ip");

        // layer 4: a third distinct name from one address
        String c = "192.0.2.203";
        BrowserLogin b1 = server.newBrowser();
        assertPasswordPage(username(b1, b1.openLoginPage(realm, c), "alice", c, Map.of()));
        BrowserLogin b2 = server.newBrowser();
        assertPasswordPage(username(b2, b2.openLoginPage(realm, c), "bob", c, Map.of()));
        BrowserLogin b3 = server.newBrowser();
        assertUsernamePageAnswer(username(b3, b3.openLoginPage(realm, c), "carol", c, Map.of()), "blocked");
        GateIt.await("layer 4's event", Duration.ofSeconds(15), () -> admin.eventsWithError(realm, "LOGIN_ERROR",
                "abuse_gate_blocked").stream().anyMatch(e -> "credential_stuffing".equals(e.getDetails().get("abuse_gate_layer"))));
    }

    @Test
    void the_captcha_band_answers_on_the_username_page_and_a_solved_attempt_signs_in() {
        String realm = realm("if-band", quietConfig("perIp.threshold", "4", "captcha.enabled", "true"));
        String a = "192.0.2.204";
        // threshold 4 x factor 0.5: two free username steps from this address
        for (int i = 0; i < 2; i++) {
            BrowserLogin b = server.newBrowser();
            assertPasswordPage(username(b, b.openLoginPage(realm, a), "alice", a, Map.of()));
        }
        BrowserLogin browser = server.newBrowser();
        LoginResult captcha = username(browser, browser.openLoginPage(realm, a), "alice", a, Map.of());
        assertUsernamePageAnswer(captcha, "captcha_required");
        assertThat(captcha.body()).contains("altcha-widget");
        assertThat(BrowserLogin.attributeOfElement(captcha.body(), "username", "value")).contains("alice");
        assertThat(stateNumber(state(realm, a, "alice"), "address", "attempts")).as("the band counts nothing").isEqualTo(2);

        String solution = AltchaSolver.solve(GateIt.altchaChallenge(captcha.body()));
        LoginResult passwordPage = username(browser, captcha.nextPage(), "alice", a, Map.of("altcha", solution));
        assertPasswordPage(passwordPage);
        assertThat(stateNumber(state(realm, a, "alice"), "address", "attempts")).isEqualTo(3);

        // the password step runs layer 3 only: layer 1's band (3 of 4) does not ask again for this attempt
        LoginResult ok = browser.submit(passwordPage.nextPage(), null, PW, a, Map.of());
        assertThat(ok.loginSucceeded()).as(ok.toString()).isTrue();
        assertThat(stateNumber(state(realm, a, "alice"), "address", "attempts")).isEqualTo(3);
    }

    @Test
    void a_password_page_without_the_gated_username_step_runs_every_layer() {
        String realm = realm("if-skip", quietConfig());
        // the username step from one address, the password from another: the hand-over does not apply
        String a = "192.0.2.205";
        String b = "198.51.100.205";
        BrowserLogin browser = server.newBrowser();
        LoginResult passwordPage = username(browser, browser.openLoginPage(realm, a), "alice", a, Map.of());
        assertPasswordPage(passwordPage);
        LoginResult wrong = browser.submit(passwordPage.nextPage(), null, "wrong-1", b, Map.of());
        assertThat(wrong.keycloakError()).contains("Invalid password.");
        Map<String, Object> sb = state(realm, b, "alice");
        assertThat(stateNumber(sb, "address", "attempts")).isEqualTo(1);
        assertThat(stateNumber(sb, "pair", "attempts")).isEqualTo(1);
        assertThat(stateNumber(sb, "identifier", "failures")).isEqualTo(1);

        // re-authentication: Keycloak skips the username page, the password page gates on its own
        LoginResult ok = browser.submit(wrong.nextPage(), null, PW, b, Map.of());
        assertThat(ok.loginSucceeded()).as(ok.toString()).isTrue();
        HttpResponse<String> reauth = browser.rawGet(browser.authUrl(realm) + "&prompt=login", b);
        assertThat(reauth.body()).contains("name=\"password\"").doesNotContain("name=\"username\"");
        LoginResult r = browser.post(BrowserLogin.formAction(reauth.body()),
                Map.of("password", "wrong-2", "credentialId", ""), b);
        assertThat(r.keycloakError()).contains("Invalid password.");
        sb = state(realm, b, "alice");
        assertThat(stateNumber(sb, "address", "attempts")).isEqualTo(3);
        assertThat(stateNumber(sb, "pair", "attempts")).isEqualTo(3);
        assertThat(stateNumber(sb, "identifier", "failures")).isEqualTo(1);
        assertThat(stateNumber(state(realm, a, "alice"), "address", "attempts")).isEqualTo(1);
    }
}
