package dev.abusegate.it;

import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the browser form's settings come from: production defaults without a saved config, values from
 * an imported realm JSON, a per-key fallback (and one WARN) for an invalid value, and the identity-first
 * variant ({@code abuse-gate-password-form} after Keycloak's Username Form).
 */
class BrowserGateConfigIT extends ServerTest {

    private static final String PW = "Secret-pw-1";
    private static final Duration WAIT = Duration.ofSeconds(15);


    private String realm(RealmBuilder b) {
        return importRealm(b);
    }

    @SuppressWarnings("unchecked")
    private static String layerOfLastGateEvent(String realm, String error, String address) {
        EventRepresentation e = admin.awaitEvent(realm, ev -> error.equals(ev.getError()) && address.equals(ev.getIpAddress()),
                WAIT, "LOGIN_ERROR");
        return e.getDetails().get("abuse_gate_layer");
    }

    @Test
    void without_a_saved_config_the_production_defaults_apply() {
        String realm = realm(RealmBuilder.unique("defaults").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null));
        assertThat(admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW))
                .filteredOn(e -> GateIt.USERNAME_PASSWORD_FORM.equals(e.getProviderId()))
                .singleElement()
                .satisfies(e -> assertThat(e.getAuthenticationConfig()).isNull());

        String a = "198.51.100.140";
        // per address and account: threshold 10 x captcha factor 0.5 = five free attempts
        for (int i = 1; i <= 5; i++) {
            GateIt.assertWrongPassword(attempt(realm, "alice", "wrong-" + i, a));
        }
        LoginResult sixth = attempt(realm, "alice", "wrong-6", a);
        GateIt.assertGate(sixth, "captcha_required");
        assertThat(layerOfLastGateEvent(realm, "abuse_gate_captcha_required", a)).isEqualTo("per_ip_account");
        // another account from the same address is far from every default threshold
        admin.createUser(realm, "bob", PW);
        assertThat(attempt(realm, "bob", PW, a).loginSucceeded()).isTrue();
    }

    @CrossVersion
    @Test
    void a_value_from_an_imported_realm_json_takes_effect() {
        RealmBuilder builder = RealmBuilder.unique("json").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, Map.of("perIpAccount.threshold", "2", "captcha.enabled", "false"));
        String json = Json.write(builder.toMap());
        assertThat(json).contains("\"authenticatorConfig\"").contains("\"perIpAccount.threshold\":\"2\"");
        String realm = admin.importRealm(json);
        deleteAfterTest(realm);

        String configId = admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW).stream()
                .filter(e -> GateIt.USERNAME_PASSWORD_FORM.equals(e.getProviderId())).findFirst().orElseThrow().getAuthenticationConfig();
        assertThat(admin.realm(realm).flows().getAuthenticatorConfig(configId).getConfig()).isEqualTo(Map.of("perIpAccount.threshold", "2", "captcha.enabled", "false"));

        // 2 instead of the default 10: the third attempt for the pair is blocked, even with the right password
        String a = "198.51.100.141";
        assertThat(attempt(realm, "alice", PW, a).loginSucceeded()).isTrue();
        GateIt.assertWrongPassword(attempt(realm, "alice", "wrong", a));
        GateIt.assertGate(attempt(realm, "alice", PW, a), "blocked");
        assertThat(attempt(realm, "alice", PW, "198.51.100.142").loginSucceeded()).isTrue();
    }

    @Test
    void an_invalid_value_falls_back_to_that_keys_default_with_one_warning() {
        String realm = realm(RealmBuilder.unique("invalid").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, quietConfig(
                        "perIp.threshold", "lots",
                        "captcha.enabled", "true",
                        "captcha.factor", "0.05")));
        String warning = "realm '" + realm + "' has an invalid value for 'perIp.threshold'";
        String a = "198.51.100.150";
        // perIp.threshold falls back to 100; captcha.factor keeps its saved 0.05: the band starts at 5 attempts.
        // (1000, the other thresholds, x 0.05 = 50; an unparsed/zero threshold would answer at once.)
        for (int i = 1; i <= 5; i++) {
            GateIt.assertWrongPassword(attempt(realm, "alice", "wrong-" + i, a));
        }
        GateIt.assertGate(attempt(realm, "alice", "wrong-6", a), "captcha_required");
        assertThat(layerOfLastGateEvent(realm, "abuse_gate_captcha_required", a)).isEqualTo("per_ip");

        GateIt.await("the WARN for perIp.threshold", WAIT, () -> server.logTextSince(logMark).contains(warning));
        // later attempts (other addresses, other outcomes) do not repeat it
        GateIt.assertWrongPassword(attempt(realm, "alice", "wrong-7", "198.51.100.151"));
        GateIt.assertGate(attempt(realm, "alice", "wrong-8", a), "captcha_required");
        List<String> warnings = KeycloakServer.filterLog(server.logTextSince(logMark), "WARN", "dev.abusegate").stream()
                .filter(l -> l.contains(warning)).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).doesNotContain("lots");
        assertThat(server.logTextSince(logMark).lines().filter(l -> l.contains(warning)).count()).isEqualTo(1);
    }

    // ------------------------------------------------------------------------------------------
    // Identity-first

    /** Username page, then password page, in one browser; returns the answer to the password POST. */
    private static LoginResult identityFirst(String realm, String user, String password, String address) {
        BrowserLogin browser = server.newBrowser();
        LoginResult passwordPage = browser.submit(browser.openLoginPage(realm, address), user, null, address, Map.of());
        assertThat(passwordPage.status()).as(passwordPage.toString()).isEqualTo(200);
        assertThat(passwordPage.body()).contains("name=\"password\"").doesNotContain("name=\"username\"");
        return browser.submit(passwordPage.nextPage(), null, password, address, Map.of());
    }

    @CrossVersion
    @Test
    void identity_first_password_page_is_gated_by_the_chosen_identifier() {
        String realm = realm(RealmBuilder.unique("idfirst").user("alice", PW).user("bob", PW)
                .identityFirstGatedBrowserFlow(GateIt.PASSWORD_FORM,
                        quietConfig("accountLockout.threshold", "2", "accountLockout.lockoutSeconds", "600")));
        assertThat(admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW))
                .anyMatch(e -> "auth-username-form".equals(e.getProviderId()))
                .anyMatch(e -> GateIt.PASSWORD_FORM.equals(e.getProviderId()));

        LoginResult ok = identityFirst(realm, "alice", PW, "198.51.100.160");
        assertThat(ok.loginSucceeded()).as(ok.toString()).isTrue();
        GateIt.assertWrongPassword(identityFirst(realm, "alice", "wrong-1", "198.51.100.161"));
        GateIt.assertWrongPassword(identityFirst(realm, "alice", "wrong-2", "198.51.100.162"));

        // alice is locked: her right password, from a fresh address, gets the gate's answer on the password page
        LoginResult blocked = identityFirst(realm, "alice", PW, "198.51.100.163");
        GateIt.assertGate(blocked, "blocked");
        assertThat(blocked.gateMessage()).contains(GateIt.messages("en").getProperty("abuseGateBlocked"));
        assertThat(blocked.body()).contains("name=\"password\"").doesNotContain("name=\"username\"");
        assertThat(blocked.nextPage().formAction()).isNotNull();
        // the identifier is the one chosen on the username page (normalized: case does not matter)
        GateIt.assertGate(identityFirst(realm, "ALICE", PW, "198.51.100.164"), "blocked");
        assertThat(layerOfLastGateEvent(realm, "abuse_gate_blocked", "198.51.100.163")).isEqualTo("account_lockout");

        // another identifier from the same address passes
        LoginResult bob = identityFirst(realm, "bob", PW, "198.51.100.163");
        assertThat(bob.loginSucceeded()).as(bob.toString()).isTrue();
    }
}
