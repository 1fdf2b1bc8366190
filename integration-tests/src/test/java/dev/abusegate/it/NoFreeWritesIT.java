package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.SamlEcp;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No free writes: an attempt that checks no password leaves nothing protective behind, and an unknown name costs what
 * a known one costs. A whitespace password sent with a solved ALTCHA (token endpoint and login form) does not spend
 * the solution, and counts no failure; the identity-first username page, which checks no password, carries its
 * solution to the password step instead of spending it; an unknown name over SAML ECP is counted and takes about as
 * long as a known one (Keycloak's dummy hash).
 */
class NoFreeWritesIT extends ServerTest {

    private static final String PW = "alice-Secret-1";
    private static final String SP = "nfw-ecp-sp";
    private static final String DIRECT_GRANT = "abuse-gate-direct-grant";
    private static SamlEcp ecp;

    @BeforeAll
    static void clients() {
        ecp = new SamlEcp(server.baseUrl(), SP);
    }

    /** Layer 1 with threshold 4: two attempts per address free, then the captcha band; every other layer quiet. */
    private static Map<String, String> bandFromTheThirdAttempt() {
        return quietConfig("perIp.threshold", "4", "captcha.enabled", "true");
    }

    @SuppressWarnings("unchecked")
    private static String solveOffered(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.json().get("error")).as(r.toString()).isEqualTo("captcha_required");
        return AltchaSolver.solve(Json.write((Map<String, Object>) r.json().get("captcha_challenge")));
    }

    private static void assertCaptchaRequired(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.json().get("error")).as(r.toString()).isEqualTo("captcha_required");
    }

    @Test
    void a_whitespace_password_with_a_solved_altcha_on_the_token_endpoint_leaves_the_solution_unspent_and_counts_no_failure() {
        String realm = importRealm(RealmBuilder.unique("nfw-dg").user("alice", PW)
                .gatedDirectGrantFlow(DIRECT_GRANT, bandFromTheThirdAttempt()));
        String a = GateIt.freshAddress();
        for (int i = 1; i <= 2; i++) {
            TokenResponse wrong = tokens.passwordGrant(realm, "alice", "wrong-" + i, null, a);
            assertThat(wrong.isKeycloakInvalidGrant()).as(wrong.toString()).isTrue();
        }
        String solution = solveOffered(tokens.passwordGrant(realm, "alice", "wrong-3", null, a));

        for (String blank : new String[] {"   ", "\t", " \n "}) {
            TokenResponse r = tokens.passwordGrant(realm, "alice", blank, solution, a);
            assertCaptchaRequired(r); // the solution was not even looked at: the band still asks for one
        }
        Map<String, Object> s = admin.gateState(realm, a, "alice");
        assertThat(stateNumber(s, "identifier", "failures")).as("a blank password is no failure").isEqualTo(2);
        assertThat(stateNumber(s, "address", "attempts")).as("only the two free attempts counted").isEqualTo(2);

        TokenResponse ok = tokens.passwordGrant(realm, "alice", PW, solution, a);
        assertThat(ok.status()).as("the solution, unspent, now with the right password: %s", ok).isEqualTo(200);
        assertCaptchaRequired(tokens.passwordGrant(realm, "alice", PW, solution, a)); // spent now: a replay
    }

    @Test
    void a_blank_password_takes_no_lockout_reservation_so_a_locked_account_answers_it_as_a_missing_password() {
        String realm = importRealm(RealmBuilder.unique("nfw-lock").user("alice", PW)
                .gatedDirectGrantFlow(DIRECT_GRANT, quietConfig("accountLockout.threshold", "2", "accountLockout.lockoutSeconds", "600")));
        for (int i = 1; i <= 2; i++) {
            TokenResponse wrong = tokens.passwordGrant(realm, "alice", "wrong-" + i, null, GateIt.freshAddress());
            assertThat(wrong.isKeycloakInvalidGrant()).as(wrong.toString()).isTrue();
        }
        TokenResponse locked = tokens.passwordGrant(realm, "alice", PW, null, GateIt.freshAddress());
        assertThat(locked.status()).as("the account is locked: %s", locked).isEqualTo(429);

        // a blank password checks nothing, so it runs without layer 3: no reservation, no write, and the same
        // answer whether the account is locked or not (Keycloak's answer to missing credentials)
        for (String blank : new String[] {"   ", "\t"}) {
            TokenResponse r = tokens.passwordGrant(realm, "alice", blank, null, GateIt.freshAddress());
            assertThat(r.isKeycloakInvalidGrant()).as("a blank password on a locked account: %s", r).isTrue();
        }
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked"))
                .as("the lock is untouched by blank passwords").isEqualTo(true);
        TokenResponse still = tokens.passwordGrant(realm, "alice", PW, null, GateIt.freshAddress());
        assertThat(still.status()).as("the lock holds: %s", still).isEqualTo(429);
    }

    @Test
    void a_whitespace_password_with_a_solved_altcha_on_the_login_form_leaves_the_solution_unspent() {
        String realm = importRealm(RealmBuilder.unique("nfw-form").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, bandFromTheThirdAttempt()));
        String a = GateIt.freshAddress();
        BrowserLogin browser = server.newBrowser();
        for (int i = 1; i <= 2; i++) {
            GateIt.assertWrongPassword(browser.login(realm, "alice", "wrong-" + i, a));
        }
        LoginResult band = browser.login(realm, "alice", "wrong-3", a);
        GateIt.assertCaptchaRequired(band);
        String solution = AltchaSolver.solve(GateIt.altchaChallenge(band.body()));

        LoginResult blank = browser.submit(band.nextPage(), "alice", "   ", a, Map.of("altcha", solution));
        GateIt.assertCaptchaRequired(blank);
        assertThat(stateNumber(admin.gateState(realm, a, "alice"), "identifier", "failures")).isEqualTo(2);

        LoginResult ok = browser.submit(blank.nextPage(), "alice", PW, a, Map.of("altcha", solution));
        assertThat(ok.loginSucceeded()).as("the solution, unspent, now with the right password: %s", ok).isTrue();
    }

    @Test
    void the_identity_first_username_page_spends_no_solution_a_second_sender_could_multiply() {
        String realm = identityFirstRealm("nfw-if");
        String a = GateIt.freshAddress();
        BrowserLogin browser = server.newBrowser();
        Map.Entry<LoginResult, String> first = usernamePageBand(browser, realm, a);
        LoginResult band = first.getKey();
        String solution = first.getValue();
        // the username page with the solution, and no password ever sent: the sender stops here
        assertPasswordPage(browser.submit(band.nextPage(), "alice", null, a, Map.of("altcha", solution)));

        // a second sender with the same solution on another username page: it passed once already
        String b = GateIt.freshAddress();
        BrowserLogin second = server.newBrowser();
        LoginResult secondBand = usernamePageBand(second, realm, b).getKey();
        GateIt.assertCaptchaRequired(second.submit(secondBand.nextPage(), "alice", null, b, Map.of("altcha", solution)));

        // the username page recorded nothing: the solution is spent once, by the first attempt that checks a password
        String c = GateIt.freshAddress();
        for (int i = 1; i <= 2; i++) {
            assertThat(tokens.passwordGrant(realm, "alice", "wrong-" + i, null, c).isKeycloakInvalidGrant()).isTrue();
        }
        assertCaptchaRequired(tokens.passwordGrant(realm, "alice", PW, null, c));
        TokenResponse ok = tokens.passwordGrant(realm, "alice", PW, solution, c);
        assertThat(ok.status()).as("the username page's solution, spent by a password check: %s", ok).isEqualTo(200);
        assertCaptchaRequired(tokens.passwordGrant(realm, "alice", PW, solution, c));
    }

    @Test
    void the_identity_first_password_step_spends_the_carried_solution_when_it_checks_a_password() {
        String realm = identityFirstRealm("nfw-if-pw");
        String a = GateIt.freshAddress();
        BrowserLogin browser = server.newBrowser();
        Map.Entry<LoginResult, String> first = usernamePageBand(browser, realm, a);
        LoginResult band = first.getKey();
        String solution = first.getValue();
        LoginResult passwordPage = browser.submit(band.nextPage(), "alice", null, a, Map.of("altcha", solution));
        assertPasswordPage(passwordPage);

        LoginResult wrong = browser.submit(passwordPage.nextPage(), null, "wrong-1", a, Map.of());
        assertThat(wrong.keycloakError()).as(wrong.toString()).contains("Invalid password.");
        Map<String, Object> s = admin.gateState(realm, a, "alice");
        assertThat(stateNumber(s, "identifier", "failures")).as("the password step checked a password").isEqualTo(1);
        assertThat(stateNumber(s, "address", "attempts")).as("counted once, on the username page").isEqualTo(3);

        // the password check spent the solution: elsewhere it is a replay
        String c = GateIt.freshAddress();
        for (int i = 1; i <= 2; i++) {
            assertThat(tokens.passwordGrant(realm, "alice", "wrong-dg-" + i, null, c).isKeycloakInvalidGrant()).isTrue();
        }
        assertCaptchaRequired(tokens.passwordGrant(realm, "alice", PW, solution, c));
    }

    @Test
    void an_unknown_name_over_saml_ecp_is_counted_and_costs_about_what_a_known_one_costs() {
        String ecpRealm = importRealm(RealmBuilder.unique("nfw-ecp").user("alice", PW)
                .set("clients", List.of(ecp.client())));
        admin.copyWithGatedStep(ecpRealm, "saml ecp", "gated saml ecp", "http-basic-authenticator", "abuse-gate-http-basic",
                quietConfig());
        admin.renameFlow(ecpRealm, "saml ecp", "saml ecp stock");
        admin.renameFlow(ecpRealm, "gated saml ecp", "saml ecp");
        String dg = importRealm(RealmBuilder.unique("nfw-dg-t").user("alice", PW)
                .gatedDirectGrantFlow(DIRECT_GRANT, quietConfig()));
        assertThat(ecp.login(ecpRealm, "alice", PW, "10.9.0.1").body()).as("control: the right password").contains(SamlEcp.SUCCESS);

        int rounds = Integer.getInteger("nfw.rounds", 20);
        List<Long> unknown = new ArrayList<>();
        List<Long> known = new ArrayList<>();
        List<Long> grantUnknown = new ArrayList<>();
        for (int i = -3; i < rounds; i++) { // three rounds to warm up, not measured
            String address = "10.9." + (1 + (i + 3) / 200) + "." + (1 + (i + 3) % 200);
            String ghost = "ghost-" + UUID.randomUUID();
            long u = timed(() -> ecp.login(ecpRealm, ghost, "wrong-" + ghost, address));
            long k = timed(() -> ecp.login(ecpRealm, "alice", "wrong-" + ghost, address));
            long g = timed(() -> tokens.passwordGrant(dg, ghost, "wrong-" + ghost, null, address));
            if (i >= 0) {
                unknown.add(u);
                known.add(k);
                grantUnknown.add(g);
            }
            if (i == 0) {
                assertThat(stateNumber(admin.gateState(ecpRealm, null, ghost), "identifier", "failures"))
                        .as("an unknown name is counted as a failed check, as a known one is").isEqualTo(1);
            }
        }
        double mu = GateIt.medianMillis(unknown);
        double mk = GateIt.medianMillis(known);
        double mg = GateIt.medianMillis(grantUnknown);
        System.out.printf("NoFreeWritesIT medians over %d interleaved rounds (ms): ECP unknown name %.1f, ECP known name %.1f,"
                + " direct grant unknown name %.1f%n", rounds, mu, mk, mg);
        assertThat(mu).as("ECP: an unknown name (median %.1f ms) is no faster than half a known one (median %.1f ms)", mu, mk)
                .isGreaterThanOrEqualTo(mk / 2);
        assertThat(stateNumber(admin.gateState(ecpRealm, null, "alice"), "identifier", "failures")).isEqualTo(rounds + 3);
    }

    // ------------------------------------------------------------------------------------------

    /** Identity-first with both gated steps and a gated direct grant, each with {@link #bandFromTheThirdAttempt()}. */
    private String identityFirstRealm(String prefix) {
        Map<String, String> config = bandFromTheThirdAttempt();
        return importRealm(RealmBuilder.unique(prefix).user("alice", PW)
                .identityFirstGatedBrowserFlow(GateIt.USERNAME_FORM, GateIt.PASSWORD_FORM, config)
                .gatedDirectGrantFlow(DIRECT_GRANT, config));
    }

    /**
     * On the identity-first username page at {@code address}: two free username steps (each from a fresh browser), then
     * {@code browser}'s step meets the band's captcha, solved here. Returns the page that asks for it and the solution.
     */
    private static Map.Entry<LoginResult, String> usernamePageBand(BrowserLogin browser, String realm, String address) {
        for (int i = 0; i < 2; i++) {
            BrowserLogin free = server.newBrowser();
            assertPasswordPage(free.submit(free.openLoginPage(realm, address), "alice", null, address, Map.of()));
        }
        LoginResult band = browser.submit(browser.openLoginPage(realm, address), "alice", null, address, Map.of());
        GateIt.assertCaptchaRequired(band);
        return Map.entry(band, AltchaSolver.solve(GateIt.altchaChallenge(band.body())));
    }

    private static void assertPasswordPage(LoginResult r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.gateCode()).as(r.toString()).isEmpty();
        assertThat(r.body()).contains("name=\"password\"").doesNotContain("name=\"username\"");
    }

    private static long timed(Supplier<?> request) {
        long start = System.nanoTime();
        request.get();
        return System.nanoTime() - start;
    }

}
