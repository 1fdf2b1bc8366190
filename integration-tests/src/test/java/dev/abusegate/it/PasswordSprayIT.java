package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

/**
 * The password-spray layer on a real Keycloak, on both endpoints: 30 addresses each try one name (known or not) with one
 * password; the first 10 get Keycloak's own wrong-password answer, every later one {@code captcha_required}, whatever its
 * address. Meanwhile a real user with another password logs in at once from a fresh address, and a user whose own
 * password is the sprayed one logs in after the captcha, which the operator sees on the login event (the user sees
 * nothing of it). Each test has its realm and its own addresses (10.46.x.y) through the trusted-proxy header.
 */
class PasswordSprayIT extends ServerTest {

    private static final String SPRAYED = "Winter2026!";
    private static final int THRESHOLD = 10;
    private static final int ADDRESSES = 30;
    private static final String CAROL = "carol";
    private static final String CAROL_PASSWORD = "carol-Secret-1";
    /** A real user whose password happens to be the one sprayed. */
    private static final String DAVE = "dave";

    private static Map<String, String> config() {
        // every other layer at its defaults: the spray stays below each of them
        return Map.of("passwordSpray.threshold", String.valueOf(THRESHOLD), "captcha.altcha.maxNumber", "5000");
    }

    private String realm(String prefix) {
        RealmBuilder b = RealmBuilder.named(RealmBuilder.uniqueName(prefix)).user(CAROL, CAROL_PASSWORD).user(DAVE, SPRAYED);
        for (int i = 0; i < ADDRESSES; i += 2) {
            b.user("user-" + i, "user-Secret-" + i);
        }
        return importRealm(b.gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config())
                .gatedDirectGrantFlow("abuse-gate-direct-grant", config()));
    }

    /** The i-th sprayed name: every other one an account of the realm, the rest unknown. */
    private static String name(int i) {
        return i % 2 == 0 ? "user-" + i : "nobody-" + i;
    }

    @Test
    void the_login_form_asks_for_a_captcha_from_the_eleventh_account_on() {
        String realm = realm("pw-bucket-form");
        Map<String, String> labels = Map.of("realm", realm, "layer", "password_spray", "outcome", "captcha_required");
        double before = Metrics.sum(server.metrics(), "abuse_gate_decisions_total", labels);
        for (int i = 0; i < ADDRESSES; i++) {
            LoginResult r = server.newBrowser().login(realm, name(i), SPRAYED, "10.46.1." + (i + 1));
            if (i < THRESHOLD) {
                GateIt.assertWrongPassword(r);
            } else {
                GateIt.assertCaptchaRequired(r);
                assertThat(r.body()).doesNotContainIgnoringCase("spray");
            }
            if (i == 15) {
                // meanwhile: a real user with another password, from a fresh address, in at once
                LoginResult carol = server.newBrowser().login(realm, CAROL, CAROL_PASSWORD, "10.46.2.1");
                assertThat(carol.loginSucceeded()).as(carol.toString()).isTrue();
            }
        }
        assertThat(Metrics.sum(server.metrics(), "abuse_gate_decisions_total", labels) - before).isEqualTo(ADDRESSES - THRESHOLD);
        // the buckets were written to the store's table of their own, not to the addresses' cheap table
        assertThat(Metrics.sum(server.metrics(), "abuse_gate_table_share", Map.of("realm", realm, "table", "spray")))
                .as("the realm's use of its share of the spray table").isPositive();
        EventRepresentation asked = admin.awaitEvent(realm, e -> "abuse_gate_captcha_required".equals(e.getError()),
                Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(asked.getDetails()).containsEntry("abuse_gate_layer", "password_spray");

        // dave's own password is the sprayed one: asked for the captcha, in with it, and the operator is told
        var browser = server.newBrowser();
        LoginResult challenged = browser.login(realm, DAVE, SPRAYED, "10.46.2.2");
        GateIt.assertCaptchaRequired(challenged);
        LoginResult in = browser.submit(challenged.nextPage(), DAVE, SPRAYED, "10.46.2.2",
                Map.of("altcha", AltchaSolver.solve(GateIt.altchaChallenge(challenged.body()))));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
        assertThat(in.body()).doesNotContainIgnoringCase("spray");
        EventRepresentation login = admin.awaitEvent(realm, e -> "10.46.2.2".equals(e.getIpAddress()), Duration.ofSeconds(10), "LOGIN");
        assertThat(login.getDetails()).containsEntry("abuse_gate_password_sprayed", "true");
        EventRepresentation carolLogin = admin.awaitEvent(realm, e -> "10.46.2.1".equals(e.getIpAddress()), Duration.ofSeconds(10),
                "LOGIN");
        assertThat(carolLogin.getDetails()).doesNotContainKey("abuse_gate_password_sprayed");
    }

    @Test
    void the_token_endpoint_asks_for_a_captcha_from_the_eleventh_account_on() {
        String realm = realm("pw-bucket-grant");
        TokenClient tokens = new TokenClient(server.baseUrl());
        for (int i = 0; i < ADDRESSES; i++) {
            TokenResponse r = tokens.passwordGrant(realm, name(i), SPRAYED, null, "10.46.3." + (i + 1));
            if (i < THRESHOLD) {
                // Keycloak's own answer to wrong credentials (400 or 401 by Keycloak's step), nothing from the gate
                assertThat(r.status()).as(r.toString()).isIn(400, 401);
                assertThat(r.json()).as(r.toString()).containsEntry("error", "invalid_grant");
            } else {
                assertThat(r.status()).as(r.toString()).isEqualTo(429);
                assertThat(r.json()).as(r.toString()).containsEntry("error", "captcha_required");
                assertThat(r.body()).doesNotContainIgnoringCase("spray");
            }
            if (i == 15) {
                TokenResponse carol = tokens.passwordGrant(realm, CAROL, CAROL_PASSWORD, null, "10.46.4.1");
                assertThat(carol.status()).as(carol.toString()).isEqualTo(200);
            }
        }
        // a blank password is no password: never counted, and answered as Keycloak answers it
        for (int i = 0; i < THRESHOLD + 2; i++) {
            assertThat(tokens.passwordGrant(realm, "blank-" + i, "  ", null, "10.46.5." + (i + 1)).status()).isNotEqualTo(429);
        }

        TokenResponse challenged = tokens.passwordGrant(realm, DAVE, SPRAYED, null, "10.46.4.2");
        assertThat(challenged.status()).as(challenged.toString()).isEqualTo(429);
        String solution = AltchaSolver.solve(Json.write(challenged.json().get("captcha_challenge")));
        TokenResponse in = tokens.passwordGrant(realm, DAVE, SPRAYED, solution, "10.46.4.2");
        assertThat(in.status()).as(in.toString()).isEqualTo(200);
        EventRepresentation login = admin.awaitEvent(realm, e -> "10.46.4.2".equals(e.getIpAddress()), Duration.ofSeconds(10), "LOGIN");
        assertThat(login.getDetails()).containsEntry("abuse_gate_password_sprayed", "true");
    }
}
