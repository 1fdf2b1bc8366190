package dev.abusegate.it;

import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Http;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why the login form's POST is not refused at the edge: on a real Keycloak the flow's answer to a blocked address
 * depends on the authentication session, which the edge would have to look up (docs/operations.md, "Edge refusal").
 * The 429 page carries a fresh action code that the flow writes into the session; a spent or unknown code, or a
 * missing session cookie, is answered by Keycloak before the gate (302 or 400), and not counted.
 */
class EdgeFormRefusalIT extends ServerTest {

    /** Layer 1 alone at 3 per address, as in {@link EdgeRefusalIT}. */
    private static final Map<String, String> LAYER1 = EdgeRefusalIT.LAYER1;
    private static final Pattern CODE = Pattern.compile("session_code=([^&\"]+)");

    @Test
    void the_flows_refusal_of_a_blocked_address_depends_on_the_authentication_session() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("edge-form")).user("alice", "alice-secret-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, LAYER1));
        String ip = "192.0.2.181";
        for (int i = 0; i < 3; i++) {
            assertThat(attempt(realm, "alice", "wrong", ip).status()).isEqualTo(200); // Keycloak's own error page
        }

        // two refusals in two sessions: the same page but for the session's values and the typed name
        BrowserLogin first = new BrowserLogin(server.baseUrl());
        String firstAction = first.openLoginPage(realm, ip).requireFormAction();
        HttpResponse<String> a = first.rawPost(firstAction, fields("ghost-a"), ip);
        BrowserLogin second = new BrowserLogin(server.baseUrl());
        HttpResponse<String> b = second.rawPost(second.openLoginPage(realm, ip).requireFormAction(), fields("ghost-b"), ip);
        assertThat(a.statusCode()).isEqualTo(429);
        assertThat(b.statusCode()).isEqualTo(429);
        assertThat(masked(a.body(), "ghost-a")).isEqualTo(masked(b.body(), "ghost-b"));
        assertThat(headers(a)).isEqualTo(headers(b));
        // the page's action code is a fresh one, which the flow wrote into the session; the request's is spent
        String next = BrowserLogin.formAction(a.body());
        assertThat(code(next)).isNotEqualTo(code(firstAction));

        long before = addressAttempts(realm, ip);
        // the spent code again: Keycloak redirects to the current step before the gate, which counts nothing
        HttpResponse<String> spent = first.rawPost(firstAction, fields("ghost-c"), ip);
        assertThat(spent.statusCode()).isEqualTo(302);
        // a code the session never issued: the same
        BrowserLogin third = new BrowserLogin(server.baseUrl());
        String unknown = third.openLoginPage(realm, ip).requireFormAction().replaceAll("session_code=[^&]*", "session_code=unknown");
        assertThat(third.rawPost(unknown, fields("ghost-d"), ip).statusCode()).isEqualTo(302);
        // without the session's cookie: Keycloak's "cookie not found" page
        HttpResponse<String> noCookie = Http.send(Http.client(), Http.formPost(next,
                Http.form(fields("ghost-e")).getBytes(java.nio.charset.StandardCharsets.UTF_8), ip).build());
        assertThat(noCookie.statusCode()).isEqualTo(400);
        assertThat(addressAttempts(realm, ip)).as("none of those reached the gate").isEqualTo(before);
        assertThat(Metrics.sum(server.metrics(), "abuse_gate_edge_refusals_total", Map.of("realm", realm))).isZero();

        // a real user from another address logs in meanwhile
        assertThat(attempt(realm, "alice", "alice-secret-1", "192.0.2.182").loginSucceeded()).isTrue();
    }

    private static Map<String, String> fields(String username) {
        return Http.fields("username", username, "password", "wrong", "credentialId", "");
    }

    /** The page without its per-request values: the action code, the tab id and the typed name. */
    private static String masked(String page, String username) {
        return page.replaceAll("session_code=[^&\"]+", "session_code=CODE").replaceAll("tab_id=[^&\"]+", "tab_id=TAB")
                .replace("value=\"" + username + "\"", "value=\"NAME\"");
    }

    private static String code(String action) {
        Matcher m = CODE.matcher(action);
        assertThat(m.find()).as(action).isTrue();
        return m.group(1);
    }

    /** Every response header but the date and the length (the typed name's), names in lower case. */
    private static Map<String, List<String>> headers(HttpResponse<String> r) {
        Map<String, List<String>> out = new TreeMap<>();
        r.headers().map().forEach((k, v) -> {
            String name = k.toLowerCase(Locale.ROOT);
            if (!name.equals("date") && !name.equals("content-length") && !name.equals(":status")) {
                out.put(name, v);
            }
        });
        return out;
    }

    private static long addressAttempts(String realm, String ip) {
        return GateIt.stateNumber(admin.gateState(realm, ip, "alice"), "address", "attempts");
    }
}
