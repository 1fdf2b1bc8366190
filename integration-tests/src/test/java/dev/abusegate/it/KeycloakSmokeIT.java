package dev.abusegate.it;

import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.KeycloakServer;
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
 * X-Forwarded-For as the client address in events, metrics, and a log without errors.
 */
@CrossVersion
class KeycloakSmokeIT extends ServerTest {

    private static String realm;

    @BeforeAll
    static void importSmokeRealm() {
        realm = importClassRealm(RealmBuilder.named(RealmBuilder.uniqueName("smoke"))
                .user("alice", "alice-secret-1")
                .user("bob", "bob-secret-1"));
    }

    @Test
    void theFlowEditorOffersTheGatesStepsUnderTheNamesTheDocsGive() {
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
    void serverInfoShowsTheRightKeycloak() {
        ServerInfoRepresentation info = admin.keycloak().serverInfo().getInfo();
        assertThat(info.getSystemInfo().getVersion()).isEqualTo(KeycloakServer.version());
        assertThat(info.getProviders().get("authenticator").getProviders().keySet()).contains("auth-username-password-form",
                "abuse-gate-username-password-form", "abuse-gate-username-form", "abuse-gate-password-form", "abuse-gate-direct-grant");
        assertThat(admin.realmExists(realm)).isTrue();
    }

    @Test
    void correctPasswordLogsIn() {
        BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "alice-secret-1", "192.0.2.10");
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        assertThat(r.code()).isPresent();
        assertThat(r.gateCode()).isEmpty();
    }

    @Test
    void wrongPasswordShowsKeycloaksErrorOnTheLoginPage() {
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
    void forwardedForIsTheClientAddressInEvents() {
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
    void metricsAreServedOnTheManagementPort() {
        String metrics = server.metrics();
        assertThat(metrics).contains("# TYPE");
        assertThat(server.metricValue("jvm_threads_live_threads", Map.of())).isPositive();
    }

    @Test
    void logHasNoErrors() {
        server.newBrowser().login(realm, "alice", "alice-secret-1", "192.0.2.40");
        assertThat(server.logText()).contains("Keycloak " + KeycloakServer.version() + " ");
        assertThat(server.logLines("ERROR", "")).isEmpty();
        assertThat(server.logLines("FATAL", "")).isEmpty();
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }
}
