package dev.abusegate.it;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.DedicatedServer;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dedicated Keycloak whose counter store fails on every call
 * ({@code --spi-abuse-gate-store--infinispan--test-support-fault-injection=true}): FAIL_OPEN layers let logins through
 * with Keycloak's normal answers and report the outage (event, metric, rate-limited WARN); a FAIL_CLOSED
 * layer blocks. Never a 500, never an ERROR from our code.
 */
@DedicatedServer(name = "fault-injection", options = "--spi-abuse-gate-store--infinispan--test-support-fault-injection=true")
class FaultInjectionIT extends ServerTest {

    private static final String FORM = "abuse-gate-username-password-form";
    private static final String DIRECT = "abuse-gate-direct-grant";
    private static final String WARN_TEXT = "counter store unavailable for layer per_ip in realm";

    private static String openRealm;
    private static String closedRealm;
    private static String budgetRealm;

    @BeforeAll
    static void importRealms() {
        Map<String, String> open = Map.of(
                "perIp.failureMode", "FAIL_OPEN",
                "perIpAccount.failureMode", "FAIL_OPEN",
                "accountLockout.failureMode", "FAIL_OPEN",
                "credentialStuffing.failureMode", "FAIL_OPEN");
        openRealm = importClassRealm(RealmBuilder.unique("faulty-open")
                .user("alice", "alice-secret-1")
                .gatedBrowserFlow(FORM, open)
                .gatedDirectGrantFlow(DIRECT, open));
        Map<String, String> closed = new HashMap<>(open);
        closed.put("perIp.failureMode", "FAIL_CLOSED");
        closedRealm = importClassRealm(RealmBuilder.unique("faulty-closed")
                .user("alice", "alice-secret-1")
                .gatedBrowserFlow(FORM, closed)
                .gatedDirectGrantFlow(DIRECT, closed));
        Map<String, String> budget = new HashMap<>(open);
        budget.put("events.storeFailuresPerMinute", "2");
        budgetRealm = importClassRealm(RealmBuilder.unique("faulty-budget")
                .user("alice", "alice-secret-1")
                .gatedDirectGrantFlow(DIRECT, budget));
    }

    @Test
    @SuppressWarnings("unchecked")
    void fail_open_layers_let_the_right_password_in_and_keep_keycloaks_error_for_a_wrong_one() {
        double failuresBefore = server.metricValue("abuse_gate_store_failures_total", Map.of("realm", openRealm));

        BrowserLogin.LoginResult right = server.newBrowser().login(openRealm, "alice", "alice-secret-1", "192.0.2.10");
        assertThat(right.loginSucceeded()).as(right.toString()).isTrue();
        assertThat(right.status()).isEqualTo(302);

        BrowserLogin.LoginResult wrong = server.newBrowser().login(openRealm, "alice", "wrong", "192.0.2.11");
        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(200);
        assertThat(wrong.keycloakError()).contains("Invalid username or password.");
        assertThat(wrong.gateCode()).isEmpty();

        // the admission's outage event (the settlement's, for the password-spray layer's count, is another one)
        EventRepresentation event = admin.awaitEvent(openRealm,
                e -> "counter_store_unavailable".equals(e.getError()) && "192.0.2.11".equals(e.getIpAddress())
                        && e.getDetails() != null && !"password_spray".equals(e.getDetails().get("abuse_gate_layer")),
                Duration.ofSeconds(15), "LOGIN_ERROR");
        assertThat(event.getDetails().get("abuse_gate_layer")).contains("per_ip");
        // the outage keeps its cause: the exception's class and message, no address or name in it
        assertThat(event.getDetails().get("abuse_gate_store_cause"))
                .isEqualTo("CounterStoreException: counter store unavailable (test-support fault injection is on)")
                .doesNotContain("192.0.2.11", "alice");
        // Keycloak's own error for the wrong password is still recorded
        admin.awaitEvent(openRealm, e -> "invalid_user_credentials".equals(e.getError()) && "192.0.2.11".equals(e.getIpAddress()),
                Duration.ofSeconds(15), "LOGIN_ERROR");

        assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", openRealm)))
                .isGreaterThan(failuresBefore);
        assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", openRealm, "layer", "per_ip")))
                .isGreaterThanOrEqualTo(2);
        assertThat(server.metricValue("abuse_gate_store_failures_total",
                Map.of("realm", openRealm, "layer", "per_ip", "cause", "CounterStoreException")))
                .as("the failure metric is labelled with the cause's class").isGreaterThanOrEqualTo(2);
        assertNoServerErrors();
    }

    @Test
    void fail_open_direct_grant_gets_tokens_or_keycloaks_invalid_grant() {
        TokenResponse right = tokens.passwordGrant(openRealm, "alice", "alice-secret-1", null, "192.0.2.20");
        assertThat(right.status()).as(right.toString()).isEqualTo(200);
        assertThat(right.accessToken()).isNotBlank();

        TokenResponse wrong = tokens.passwordGrant(openRealm, "alice", "wrong", null, "192.0.2.21");
        assertThat(wrong.isKeycloakInvalidGrant()).as(wrong.toString()).isTrue();
        admin.awaitEvent(openRealm,
                e -> "counter_store_unavailable".equals(e.getError()) && "192.0.2.21".equals(e.getIpAddress()),
                Duration.ofSeconds(15), "LOGIN_ERROR");
        assertNoServerErrors();
    }

    @Test
    void store_warnings_are_rate_limited_not_one_per_attempt() {
        // The gate warns about a failing store at most once a minute per layer, so a burst shorter than a minute
        // adds at most one such WARN line, however long the server has been up.
        int attempts = 6;
        long mark = server.logMark();
        long burstStart = System.nanoTime();
        for (int i = 0; i < attempts; i++) {
            BrowserLogin.LoginResult r = server.newBrowser().login(openRealm, "alice", i % 2 == 0 ? "wrong" : "alice-secret-1",
                    "192.0.2." + (30 + i));
            assertThat(r.status()).as(r.toString()).isIn(200, 302);
        }
        Duration burst = Duration.ofNanos(System.nanoTime() - burstStart);
        assertThat(burst).as("the %d attempts took under a minute (else the bound below does not apply)", attempts)
                .isLessThan(Duration.ofSeconds(55));
        long burstWarns = KeycloakServer.filterLog(server.logTextSince(mark), "WARN", "dev.abusegate").stream()
                .filter(l -> l.contains(WARN_TEXT)).count();
        assertThat(burstWarns).as("per_ip WARN lines during %d failing-store attempts", attempts).isLessThanOrEqualTo(1);
        long allWarns = server.logLines("WARN", "dev.abusegate").stream().filter(l -> l.contains(WARN_TEXT)).count();
        assertThat(allWarns).as("per_ip WARN lines since the server started (the store failure is reported)")
                .isGreaterThanOrEqualTo(1);
        assertThat(server.logLines("WARN", "dev.abusegate").stream().filter(l -> l.contains(WARN_TEXT)).toList())
                .as("each WARN names the cause").allSatisfy(l -> assertThat(l).contains("(CounterStoreException: "));
        assertNoServerErrors();
    }

    @Test
    void store_failure_events_stop_at_the_realms_budget_while_the_metric_counts_every_failure() {
        // Budget 2 a minute: five logins while the store is down record two counter_store_unavailable events, not
        // five (or ten: the check and its settlement each fail), and every login still gets Keycloak's answer.
        double failuresBefore = server.metricValue("abuse_gate_store_failures_total", Map.of("realm", budgetRealm));
        long start = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            TokenResponse r = tokens.passwordGrant(budgetRealm, "alice", "alice-secret-1", null, "192.0.2." + (60 + i));
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one budget minute").isLessThan(Duration.ofSeconds(50));
        admin.awaitEvent(budgetRealm, e -> "counter_store_unavailable".equals(e.getError()), Duration.ofSeconds(15), "LOGIN_ERROR");
        GateIt.sleep(1_000); // events are stored as each request ends; give the last one time to land
        assertThat(admin.events(budgetRealm, "LOGIN_ERROR")).filteredOn(e -> "counter_store_unavailable".equals(e.getError()))
                .as("store failure events in one minute with a budget of 2").hasSize(2);
        assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", budgetRealm)) - failuresBefore)
                .as("failures counted by the metric").isGreaterThanOrEqualTo(5 * 4);
        assertNoServerErrors();
    }

    @Test
    void a_fail_closed_layer_blocks_even_the_right_password() {
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = browser.openLoginPage(closedRealm, "192.0.2.40");
        assertThat(page.status()).isEqualTo(200);
        BrowserLogin.LoginResult form = browser.submit(page, "alice", "alice-secret-1", "192.0.2.40", Map.of());
        assertThat(form.status()).as(form.toString()).isEqualTo(429);
        assertThat(form.gateCode()).contains("blocked");
        assertThat(form.loginSucceeded()).isFalse();

        TokenResponse direct = tokens.passwordGrant(closedRealm, "alice", "alice-secret-1", null, "192.0.2.41");
        assertThat(direct.status()).as(direct.toString()).isEqualTo(429);
        assertThat(direct.json().keySet()).containsExactlyInAnyOrder("error", "error_description");
        assertThat(direct.json().get("error")).isEqualTo("blocked");
        assertThat((String) direct.json().get("error_description")).isNotBlank();

        assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", closedRealm, "layer", "per_ip")))
                .isGreaterThanOrEqualTo(2);
        assertNoServerErrors();
    }

    @Test
    void the_operator_lookup_answers_503_not_500_when_the_store_is_down() {
        AdminClient.Response r = admin.send("GET", AdminClient.statePath(openRealm, "192.0.2.50", "alice"), null);
        assertThat(r.status()).as(r.body()).isEqualTo(503);
        assertThat(r.jsonMap().get("error")).isEqualTo("counter_store_unavailable");
        assertThat(r.body()).doesNotContain("alice");
        assertNoServerErrors();
    }

    private static void assertNoServerErrors() {
        assertThat(server.abuseGateErrorLines()).isEmpty();
        assertThat(server.logText()).doesNotContain("Uncaught server error");
    }
}
