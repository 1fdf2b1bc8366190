/**
 * Integration-test harness: a real Keycloak ({@link dev.abusegate.it.support.KeycloakServer}), by default the
 * distribution started as a process, or the official image with {@code -Dkeycloak.it.backend=container}.
 * What it adds to Keycloak's own test framework and testcontainers-keycloak: several servers at once on free
 * ports with their own homes (a dedicated server beside the shared one, two cluster nodes), every server
 * recorded for {@code .ci/stop-recorded-servers}, the server log to assert on, X-Forwarded-For clients, and
 * the gate's own views (its 429 page, the admin state API, metrics). The admin side is Keycloak's own admin client
 * ({@link dev.abusegate.it.support.AdminClient} wraps {@code org.keycloak.admin.client.Keycloak}), with raw requests
 * only for the gate's endpoints and for asserting on raw answers.
 *
 * <p>{@code mvn -B verify} (repo root) unpacks {@code org.keycloak:keycloak-quarkus-dist:<keycloak.it.version>:zip}
 * into {@code integration-tests/target/keycloak-<version>}, copies the reactor-built provider jar into its
 * {@code providers/}, and failsafe runs every {@code *IT} in one JVM with {@code -Dkeycloak.dist=…}.
 * {@link dev.abusegate.it.support.CrossVersion} marks the cross-version subset,
 * {@link dev.abusegate.it.support.ProcessBackendOnly} what the container backend cannot run
 * (see docs/integration-tests.md).
 *
 * <pre>{@code
 * class LockoutIT extends ServerTest {                  // @DedicatedServer(name = …, options = …) for other options
 *     @Test
 *     void blocks_after_the_threshold() {
 *         String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("lockout"))   // deleted after the test
 *                 .user("alice", "alice-secret-1")
 *                 .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.quietConfig("accountLockout.threshold", "3")));
 *         BrowserLogin.LoginResult r = null;
 *         for (int i = 0; i < 4; i++) {
 *             r = server.newBrowser().login(realm, "alice", "wrong", "192.0.2.10");      // X-Forwarded-For
 *         }
 *         assertThat(r.status()).isEqualTo(429);
 *         assertThat(r.gateCode()).contains("blocked");                               // data-code of #abuse-gate-status
 *         admin.awaitEvent(realm, e -> "abuse_gate_blocked".equals(e.getError()), Duration.ofSeconds(10), "LOGIN_ERROR");
 *     }
 * }
 * }</pre>
 *
 * Only 127.0.0.1 is contacted; use documentation address ranges (192.0.2.0/24, 198.51.100.0/24,
 * 203.0.113.0/24, 2001:db8::/32) in X-Forwarded-For.
 */
package dev.abusegate.it.support;
