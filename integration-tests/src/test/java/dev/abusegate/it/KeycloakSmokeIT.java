package dev.abusegate.it;

import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;
import org.keycloak.representations.info.ServerInfoRepresentation;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The provider in a real Keycloak (the release under test, {@code keycloak.it.version}): the server's version and
 * providers, the gate's steps offered in the flow editor, logins through the stock browser flow with
 * X-Forwarded-For as the client address in events, the gate's metrics on the management port, and a log without errors.
 */
@CrossVersion
class KeycloakSmokeIT extends ServerTest {

    private static String realm;

    @BeforeAll
    static void importSmokeRealm() {
        realm = importClassRealm(RealmBuilder.unique("smoke")
                .user("alice", "alice-secret-1")
                .user("bob", "bob-secret-1"));
    }

    @Test
    void the_flow_editor_offers_the_gates_steps_under_the_names_the_docs_give() {
        // docs/flows.md's table; the docker step needs --features=docker (DockerHttpBasicIT)
        Map<String, Object> offered = new HashMap<>();
        admin.realm(realm).flows().getAuthenticatorProviders().forEach(p -> offered.put((String) p.get("id"), p.get("displayName")));
        assertThat(offered).contains(
                entry("abuse-gate-username-password-form", "Username Password Form (abuse gate)"),
                entry("abuse-gate-username-form", "Username Form (abuse gate)"),
                entry("abuse-gate-password-form", "Password Form (abuse gate)"),
                entry("abuse-gate-direct-grant", "Username and Password (abuse gate)"),
                entry("abuse-gate-idp-username-password",
                        "Username Password Form for identity provider reauthentication (abuse gate)"),
                entry("abuse-gate-http-basic", "HTTP Basic Authentication (abuse gate)"));
    }

    @Test
    void the_server_is_the_keycloak_under_test_with_the_gates_steps() {
        ServerInfoRepresentation info = admin.keycloak().serverInfo().getInfo();
        assertThat(info.getSystemInfo().getVersion()).isEqualTo(KeycloakServer.version());
        assertThat(info.getProviders().get("authenticator").getProviders().keySet()).contains("auth-username-password-form",
                "abuse-gate-username-password-form", "abuse-gate-username-form", "abuse-gate-password-form", "abuse-gate-direct-grant");
        assertThat(admin.realmExists(realm)).isTrue();
    }

    @Test
    void the_right_password_logs_in() {
        BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "alice-secret-1", "192.0.2.10");
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        assertThat(r.code()).isPresent();
        assertThat(r.gateCode()).isEmpty();
    }

    @Test
    void a_wrong_password_shows_keycloaks_error_on_the_login_page() {
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult r = browser.login(realm, "bob", "not-bobs-password", "192.0.2.11");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.loginSucceeded()).isFalse();
        assertThat(r.keycloakError()).contains("Invalid username or password.");
        assertThat(r.gateCode()).isEmpty();
        // same authentication session: the re-rendered form works
        BrowserLogin.LoginResult again = browser.submit(r.nextPage(), "bob", "bob-secret-1", "192.0.2.11", Map.of());
        assertThat(again.loginSucceeded()).as(again.toString()).isTrue();
    }

    @Test
    void x_forwarded_for_is_the_client_address_in_events() {
        server.newBrowser().login(realm, "alice", "alice-secret-1", "192.0.2.20");
        server.newBrowser().login(realm, "alice", "wrong", "198.51.100.7");

        EventRepresentation login = admin.awaitEvent(realm, e -> "192.0.2.20".equals(e.getIpAddress()),
                Duration.ofSeconds(10), "LOGIN");
        assertThat(login.getType()).isEqualTo("LOGIN");
        EventRepresentation error = admin.awaitEvent(realm, e -> "198.51.100.7".equals(e.getIpAddress()),
                Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(error.getError()).isEqualTo("invalid_user_credentials");
    }

    @Test
    void a_gated_login_is_counted_on_the_management_ports_metrics_by_realm_only() {
        String gated = importRealm(RealmBuilder.unique("smoke-gated")
                .user("carol", "carol-secret-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.quietConfig()));
        Map<String, String> allowed = Map.of("realm", gated, "outcome", "allow");

        BrowserLogin.LoginResult r = server.newBrowser().login(gated, "carol", "carol-secret-1", "192.0.2.30");

        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        String metrics = server.metrics();
        assertThat(Metrics.sum(metrics, "abuse_gate_decisions_total", allowed)).isEqualTo(1.0);
        assertThat(metrics).doesNotContain("carol").doesNotContain("192.0.2.30");
    }

    @Test
    void the_log_has_no_errors() {
        server.newBrowser().login(realm, "alice", "alice-secret-1", "192.0.2.40");
        assertThat(server.logText()).contains("Keycloak " + KeycloakServer.version() + " ");
        assertThat(server.logLines("ERROR", "")).isEmpty();
        assertThat(server.logLines("FATAL", "")).isEmpty();
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }
}
