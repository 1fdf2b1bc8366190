package dev.abusegate.it.support;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Fast checks (surefire, no server) of the harness's HTML, metrics and log parsing. */
class HarnessParsingTest {

    private static final String PAGE = """
            <html><body>
            <form id="other" action="/nope"></form>
            <form id="kc-form-login" onsubmit="return true;" action="http://127.0.0.1:1/realms/r/login-actions/authenticate?session_code=a&amp;execution=b&amp;client_id=test-client&amp;tab_id=c" method="post">
            <div id="input-error-container-username">
              <div class="x" aria-live="polite"><div class="y">
                <div class="pf-v5-c-helper-text__item pf-m-error" id="input-error-username">
                  <span class="pf-v5-c-helper-text__item-text">
                      Invalid username or password.
                  </span>
                </div>
              </div></div>
            </div>
            <div id="abuse-gate-status" data-code="captcha_required" role="alert">Please prove you&#39;re human &amp; retry</div>
            </form></body></html>
            """;

    @Test
    void findsTheLoginFormActionUnescaped() {
        assertThat(BrowserLogin.formAction(PAGE)).isEqualTo(
                "http://127.0.0.1:1/realms/r/login-actions/authenticate?session_code=a&execution=b&client_id=test-client&tab_id=c");
    }

    @Test
    void readsGateStatusAndKeycloakError() {
        BrowserLogin.LoginResult r = new BrowserLogin.LoginResult(429, PAGE, null, RealmBuilder.REDIRECT_URI);
        assertThat(r.gateCode()).contains("captcha_required");
        assertThat(r.gateMessage()).contains("Please prove you're human & retry");
        assertThat(r.keycloakError()).contains("Invalid username or password.");
        assertThat(r.loginSucceeded()).isFalse();
        assertThat(r.nextPage().formAction()).contains("tab_id=c");
    }

    @Test
    void recognisesASuccessfulLogin() {
        BrowserLogin.LoginResult ok = new BrowserLogin.LoginResult(302, "",
                RealmBuilder.REDIRECT_URI + "?session_state=s&iss=x&code=abc.def", RealmBuilder.REDIRECT_URI);
        assertThat(ok.loginSucceeded()).isTrue();
        assertThat(ok.code()).contains("abc.def");
        assertThat(ok.gateCode()).isEmpty();
        assertThat(new BrowserLogin.LoginResult(302, "", RealmBuilder.REDIRECT_URI + "?error=access_denied",
                RealmBuilder.REDIRECT_URI).loginSucceeded()).isFalse();
    }

    @Test
    void sumsPrometheusSamples() {
        String text = """
                # HELP abuse_gate_decisions_total Decisions
                # TYPE abuse_gate_decisions_total counter
                abuse_gate_decisions_total{layer="none",outcome="allow",realm="a"} 3.0
                abuse_gate_decisions_total{layer="per_ip",outcome="blocked",realm="a"} 2.0
                abuse_gate_decisions_total{layer="per_ip",outcome="blocked",realm="b"} 5.0
                jvm_threads_live_threads 42.0
                """;
        assertThat(Metrics.sum(text, "abuse_gate_decisions_total", Map.of("realm", "a"))).isEqualTo(5.0);
        assertThat(Metrics.sum(text, "abuse_gate_decisions_total", Map.of("outcome", "blocked"))).isEqualTo(7.0);
        assertThat(Metrics.sum(text, "abuse_gate_decisions_total", Map.of("realm", "zzz"))).isZero();
        assertThat(Metrics.sum(text, "jvm_threads_live_threads", Map.of())).isEqualTo(42.0);
    }

    @Test
    void filtersLogRecordsByLevelAndCategory() {
        String log = """
                2026-11-29 23:30:08,266 WARN  [org.keycloak.common.Profile] (build-8) Deprecated features
                2026-11-29 23:30:09,001 ERROR [dev.abusegate.keycloak.Gate] (executor-thread-1) boom
                2026-11-29 23:30:09,002 ERROR [org.keycloak.services] (executor-thread-1) other
                	at some.Stack(Trace.java:1)
                2026-11-29 23:30:09,003 DEBUG [dev.abusegate.engine.AbuseGate] (executor-thread-1) ERROR in text only
                """;
        assertThat(KeycloakServer.filterLog(log, "ERROR", "dev.abusegate")).hasSize(1).first().asString().contains("boom");
        assertThat(KeycloakServer.filterLog(log, "ERROR", "")).hasSize(2);
    }
}
