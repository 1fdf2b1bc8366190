/**
 * Integration-test harness: a real Keycloak ({@link dev.abusegate.it.support.KeycloakServer}), by default the
 * distribution started as a process, or the official image with {@code -Dkeycloak.it.backend=container}.
 *
 * <p>{@code mvn -B verify} (repo root) unpacks {@code org.keycloak:keycloak-quarkus-dist:<keycloak.it.version>:zip}
 * into {@code integration-tests/target/keycloak-<version>}, copies the reactor-built provider jar into its
 * {@code providers/}, and failsafe runs every {@code *IT} in one JVM with {@code -Dkeycloak.dist=…}.
 * {@link dev.abusegate.it.support.CrossVersion} marks the cross-version subset,
 * {@link dev.abusegate.it.support.ProcessBackendOnly} what the container backend cannot run
 * (see docs/integration-tests.md).
 *
 * <pre>{@code
 * class LockoutIT {
 *     static KeycloakServer server = KeycloakServer.shared();      // started once per JVM, ~60 s
 *     static AdminClient admin = server.admin();
 *
 *     @Test
 *     void blocksAfterThreshold() {
 *         String realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("lockout"))
 *                 .user("alice", "alice-secret-1")
 *                 .gatedBrowserFlow("abuse-gate-username-password-form",
 *                         Map.of("accountLockout.threshold", "3", "perIp.enabled", "false")));
 *         long mark = server.logMark();
 *         try {
 *             BrowserLogin browser = server.newBrowser();                 // one browser = one cookie jar
 *             BrowserLogin.LoginResult r = null;
 *             for (int i = 0; i < 4; i++) {
 *                 r = browser.login(realm, "alice", "wrong", "192.0.2.10"); // X-Forwarded-For
 *             }
 *             assertThat(r.status()).isEqualTo(429);
 *             assertThat(r.gateCode()).contains("blocked");              // data-code of #abuse-gate-status
 *             admin.awaitEvent(realm, e -> "abuse_gate_blocked".equals(e.get("error")),
 *                     Duration.ofSeconds(10), "LOGIN_ERROR");
 *             assertThat(server.metricValue("abuse_gate_decisions_total",
 *                     Map.of("realm", realm, "outcome", "blocked"))).isGreaterThanOrEqualTo(1);
 *             assertThat(KeycloakServer.filterLog(server.logTextSince(mark), "ERROR", "dev.abusegate")).isEmpty();
 *         } finally {
 *             admin.deleteRealm(realm);
 *         }
 *     }
 * }
 * }</pre>
 *
 * A test needing other server options starts its own server and closes it:
 * {@code try (KeycloakServer s = KeycloakServer.builder("faulty").option("--spi-abuse-gate-store--infinispan--fault-injection=true").start()) {…}}.
 * Only 127.0.0.1 is contacted; use documentation address ranges (192.0.2.0/24, 198.51.100.0/24,
 * 203.0.113.0/24, 2001:db8::/32) in X-Forwarded-For.
 */
package dev.abusegate.it.support;
