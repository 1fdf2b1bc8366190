package dev.abusegate.it;

import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.KeycloakProcess;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.RealmBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the harness: a real Keycloak (the release under test, {@code keycloak.it.version}) with our provider jar, realm import with the stock browser
 * flow, browser logins, X-Forwarded-For handling, events, server info, metrics and a clean log.
 */
@CrossVersion
class KeycloakSmokeIT {

    private static KeycloakServer server;
    private static AdminClient admin;
    private static String realm;

    @BeforeAll
    static void startServerAndImportRealm() {
        server = KeycloakServer.shared();
        admin = server.admin();
        realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("smoke"))
                .user("alice", "alice-secret-1")
                .user("bob", "bob-secret-1"));
    }

    @AfterAll
    static void deleteRealm() {
        if (admin != null && realm != null) {
            admin.deleteRealm(realm);
        }
    }

    @Test
    @ProcessBackendOnly("reads the server's providers/ directory")
    void distributionContainsOurProviderJar() throws Exception {
        try (var files = Files.list(((KeycloakProcess) server).home().resolve("providers"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("keycloak-abuse-gate-") && n.endsWith(".jar"));
        }
    }

    @Test
    void serverInfoShowsTheRightKeycloak() {
        Map<String, Object> info = admin.serverInfo();
        @SuppressWarnings("unchecked")
        Map<String, Object> systemInfo = (Map<String, Object>) info.get("systemInfo");
        assertThat(systemInfo.get("version")).isEqualTo(KeycloakServer.version());
        assertThat(admin.providerIds("authenticator")).contains("auth-username-password-form",
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

        Map<String, Object> login = admin.awaitEvent(realm, e -> "192.0.2.20".equals(e.get("ipAddress")),
                Duration.ofSeconds(10), "LOGIN");
        assertThat(login.get("type")).isEqualTo("LOGIN");
        Map<String, Object> error = admin.awaitEvent(realm, e -> "198.51.100.7".equals(e.get("ipAddress")),
                Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(error.get("error")).isEqualTo("invalid_user_credentials");
    }

    @Test
    void browsersCanBeUsedConcurrently() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<BrowserLogin.LoginResult>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String xff = "203.0.113." + (i + 1);
                results.add(pool.submit(() -> server.newBrowser().login(realm, "alice", "alice-secret-1", xff)));
            }
            for (Future<BrowserLogin.LoginResult> f : results) {
                BrowserLogin.LoginResult r = f.get();
                assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void gatedFlowImportAndRestFlowEditingWork() {
        // With a stock authenticator standing in for ours, the flow plumbing of RealmBuilder and AdminClient
        // is exercised now; later ITs pass "abuse-gate-username-password-form".
        String imported = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("smoke-flow"))
                .user("carol", "carol-secret-1")
                .gatedBrowserFlow("auth-username-password-form", Map.of("some.key", "1")));
        String viaRest = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("smoke-rest"))
                .user("dave", "dave-secret-1"));
        try {
            assertThat(admin.realm(imported).get("browserFlow")).isEqualTo(RealmBuilder.GATED_BROWSER_FLOW);
            assertThat(admin.executions(imported, RealmBuilder.GATED_BROWSER_FLOW))
                    .anyMatch(e -> "auth-username-password-form".equals(e.get("providerId"))
                            && "REQUIRED".equals(e.get("requirement"))
                            && e.get("authenticationConfig") != null);
            assertThat(server.newBrowser().login(imported, "carol", "carol-secret-1", "192.0.2.30").loginSucceeded()).isTrue();

            admin.gateBrowserFlowViaRest(viaRest, "rest gated browser", "auth-username-password-form", Map.of("some.key", "2"));
            assertThat(admin.realm(viaRest).get("browserFlow")).isEqualTo("rest gated browser");
            assertThat(server.newBrowser().login(viaRest, "dave", "dave-secret-1", "192.0.2.31").loginSucceeded()).isTrue();
            assertThat(server.newBrowser().login(viaRest, "dave", "wrong", "192.0.2.31").keycloakError())
                    .contains("Invalid username or password.");
        } finally {
            admin.deleteRealm(imported);
            admin.deleteRealm(viaRest);
        }
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
        assertThat(server.errorLines()).isEmpty();
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }
}
