package dev.abusegate.it;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edge refusal on the token endpoint's password grant: once the gate has blocked an address on layer 1 or 4, its next
 * password grants are answered before Keycloak's flow runs, with the flow's exact answer, and counted as the flow counts
 * them; so is the captcha band's answer to an attempt without a solution. The realm setting {@code edge.enabled} off
 * and a realm without the gate keep the flow's path, and a solution always goes to the flow.
 */
class EdgeRefusalIT extends ServerTest {

    private static final String GATED_PROVIDER = "abuse-gate-direct-grant";
    private static final String EDGE_METRIC = "abuse_gate_edge_refusals_total";
    /** Per address 3 (captcha off); pairs and distinct names counted far below their thresholds; no lockout. */
    static final Map<String, String> LAYER1 = Map.of(
            "captcha.enabled", "false",
            "perIp.threshold", "3",
            "perIpAccount.threshold", "1000",
            "credentialStuffing.threshold", "1000",
            "accountLockout.enabled", "false");

    private static TokenClient tokens;

    @BeforeAll
    static void client() {
        tokens = new TokenClient(server.baseUrl());
    }

    @CrossVersion
    @Test
    void a_blocked_address_is_refused_before_the_flow_with_the_flows_answer_counted_as_the_flow_counts_it() {
        String realm = gatedRealm("edge-on", LAYER1);
        String ip = "192.0.2.151";
        for (int i = 0; i < 3; i++) {
            assertThat(grant(realm, "alice", "wrong", ip).json().get("error")).isEqualTo("invalid_grant"); // Keycloak's own answer
        }
        double edgeBefore = edgeRefusals(realm);

        // the fourth: the store blocks it, inside the flow; the fifth: answered before the flow, with the same bytes
        FlowThenEdge r = refusedByTheFlowThenAtTheEdge(realm, ip, "ghost-a", "ghost-b");
        // counted as the flow counts a blocked attempt: layer 1 once, the pair once, one more distinct name
        r.assertCountedOnceAsByTheFlow("address", "attempts");
        r.assertCountedOnceAsByTheFlow("pair", "attempts");
        r.assertCountedOnceAsByTheFlow("address", "distinctIdentifiers");
        // and the right password from that address too (the flow would block it before the password check)
        TokenResponse right = grant(realm, "alice", "alice-secret-1", ip);
        assertThat(right.body()).isEqualTo(r.flow().body());
        assertThat(edgeRefusals(realm)).isEqualTo(edgeBefore + 2);

        // the operator's view: the same refusal event, marked as answered at the edge
        EventRepresentation e = awaitEdgeRefusalEvent(realm, ip);
        assertThat(e.getDetails()).containsEntry("abuse_gate_layer", "per_ip").containsEntry("abuse_gate_outcome", "blocked");
        assertThat(e.getClientId()).isEqualTo(RealmBuilder.CLIENT_ID);
        // another address is not affected
        assertThat(grant(realm, "alice", "alice-secret-1", "192.0.2.152").status()).isEqualTo(200);
    }

    @Test
    void an_address_blocked_on_layer_four_is_refused_before_the_flow_with_the_flows_answer() {
        String realm = gatedRealm("edge-names", Map.of(
                        "captcha.enabled", "false",
                        "perIp.threshold", "1000",
                        "perIpAccount.threshold", "1000",
                        "credentialStuffing.threshold", "3",
                        "accountLockout.enabled", "false"));
        String ip = "192.0.2.157";
        for (int i = 0; i < 3; i++) {
            assertThat(grant(realm, "name-" + i, "wrong", ip).json().get("error")).isEqualTo("invalid_grant"); // Keycloak's own answer
        }
        // the fourth name: the store blocks it, inside the flow; the fifth: answered before the flow, with the same
        // bytes, counted as the flow counts a blocked attempt
        FlowThenEdge r = refusedByTheFlowThenAtTheEdge(realm, ip, "name-3", "name-4");
        r.assertCountedOnceAsByTheFlow("address", "attempts");
        r.assertCountedOnceAsByTheFlow("pair", "attempts");
        EventRepresentation e = awaitEdgeRefusalEvent(realm, ip);
        assertThat(e.getDetails()).containsEntry("abuse_gate_layer", "credential_stuffing");
        // another address is not affected
        assertThat(grant(realm, "alice", "alice-secret-1", "192.0.2.156").status()).isEqualTo(200);
    }

    @Test
    void with_the_setting_off_every_request_goes_through_the_flow() {
        Map<String, String> config = new HashMap<>(LAYER1);
        config.put("edge.enabled", "false");
        String realm = gatedRealm("edge-off", config);
        String ip = "192.0.2.153";
        for (int i = 0; i < 3; i++) {
            assertThat(grant(realm, "alice", "wrong", ip).json().get("error")).isEqualTo("invalid_grant"); // Keycloak's own answer
        }
        TokenResponse first = grant(realm, "alice", "wrong", ip);
        TokenResponse second = grant(realm, "alice", "wrong", ip);
        assertThat(second.status()).as(second.toString()).isEqualTo(429);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(edgeRefusals(realm)).isZero();
        assertThat(GateIt.stateNumber(state(realm, ip, "alice"), "address", "attempts")).isEqualTo(5);
    }

    @Test
    void a_realm_without_the_gate_is_untouched_by_an_address_blocked_elsewhere() {
        String gated = gatedRealm("edge-gated", LAYER1);
        String stock = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("edge-stock")).user("alice", "alice-secret-1"));
        String ip = "192.0.2.154";
        for (int i = 0; i < 5; i++) {
            grant(gated, "alice", "wrong", ip);
        }
        assertThat(grant(gated, "alice", "alice-secret-1", ip).status()).isEqualTo(429);
        assertThat(edgeRefusals(gated)).isPositive();
        for (int i = 0; i < 3; i++) {
            assertThat(grant(stock, "alice", "alice-secret-1", ip).status()).isEqualTo(200);
        }
        assertThat(edgeRefusals(stock)).isZero();
    }

    @Test
    void the_captcha_band_without_a_solution_is_answered_at_the_edge_and_a_solution_goes_to_the_flow() {
        String realm = gatedRealm("edge-band", Map.of(
                        "captcha.enabled", "true",
                        "captcha.factor", "0.5",
                        "perIp.threshold", "4",
                        "perIpAccount.enabled", "false",
                        "accountLockout.enabled", "false",
                        "credentialStuffing.enabled", "false"));
        String ip = "192.0.2.155";
        assertThat(grant(realm, "alice", "alice-secret-1", ip).status()).isEqualTo(200);
        assertThat(grant(realm, "alice", "alice-secret-1", ip).status()).isEqualTo(200);
        // the third reaches the band inside the flow
        TokenResponse flow = grant(realm, "alice", "alice-secret-1", ip);
        assertCaptchaRequired(flow);
        assertThat(edgeRefusals(realm)).as("the flow answered it").isZero();
        Map<String, Object> before = state(realm, ip, "alice");

        // the next ones, without a solution, are answered before the flow: the same answer with a fresh challenge
        for (int i = 0; i < 3; i++) {
            TokenResponse edge = grant(realm, "alice", "alice-secret-1", ip);
            assertCaptchaRequired(edge);
            assertThat(edge.json().get("error_description")).isEqualTo(flow.json().get("error_description"));
            assertThat(edge.json().get("captcha_site_key")).isEqualTo(flow.json().get("captcha_site_key"));
            assertThat(challenge(edge).get("maxnumber")).isEqualTo(challenge(flow).get("maxnumber"));
            assertThat(challenge(edge).get("challenge")).isNotEqualTo(challenge(flow).get("challenge"));
            assertThat(headers(edge)).isEqualTo(headers(flow));
        }
        assertThat(edgeRefusals(realm)).isEqualTo(3);
        assertThat(GateIt.stateNumber(state(realm, ip, "alice"), "address", "attempts"))
                .as("a captcha answer counts nothing, at the edge as in the flow")
                .isEqualTo(GateIt.stateNumber(before, "address", "attempts"));

        // the edge's challenge, solved, is verified by the flow: the right password logs in
        TokenResponse last = grant(realm, "alice", "alice-secret-1", ip);
        TokenResponse solved = tokens.passwordGrant(realm, "alice", "alice-secret-1", AltchaSolver.solve(Json.write(challenge(last))), ip);
        assertThat(solved.status()).as(solved.toString()).isEqualTo(200);
        assertThat(edgeRefusals(realm)).isEqualTo(4);
        // with the solution spent, the answer is the band's again, at the edge
        assertCaptchaRequired(grant(realm, "alice", "alice-secret-1", ip));
        assertThat(edgeRefusals(realm)).isEqualTo(5);
    }

    private static void assertCaptchaRequired(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.json().get("error")).isEqualTo("captcha_required");
        assertThat(r.json().keySet()).containsExactlyInAnyOrder(
                "error", "error_description", "captcha_provider", "captcha_site_key", "captcha_challenge");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> challenge(TokenResponse r) {
        return (Map<String, Object>) r.json().get("captcha_challenge");
    }

    // ------------------------------------------------------------------------------------------

    private static TokenResponse grant(String realm, String username, String password, String ip) {
        TokenResponse r = tokens.passwordGrant(realm, username, password, null, ip);
        assertThat(r.status()).as(r.toString()).isLessThan(500);
        return r;
    }

    /** A realm with the account alice whose direct grant flow is the gate with {@code config}; returns its name. */
    private String gatedRealm(String prefix, Map<String, String> config) {
        return importRealm(RealmBuilder.named(RealmBuilder.uniqueName(prefix)).user("alice", "alice-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, config));
    }

    /** A refusal by the flow and the next one at the edge: their answers and their subjects' states around each. */
    private record FlowThenEdge(TokenResponse flow, TokenResponse edge, Map<String, Object> beforeFlow, Map<String, Object> afterFlow,
            Map<String, Object> beforeEdge, Map<String, Object> afterEdge) {

        /** The edge's refusal counted {@code subject}'s {@code field} once, as the flow's refusal did. */
        void assertCountedOnceAsByTheFlow(String subject, String field) {
            assertThat(GateIt.stateNumber(afterEdge, subject, field) - GateIt.stateNumber(beforeEdge, subject, field))
                    .as("%s %s counted at the edge, as by the flow", subject, field)
                    .isEqualTo(GateIt.stateNumber(afterFlow, subject, field) - GateIt.stateNumber(beforeFlow, subject, field))
                    .isEqualTo(1);
        }
    }

    /**
     * From an address one attempt short of its block: {@code flowName} refused by the flow (429, no edge refusal
     * counted), then {@code edgeName} refused at the edge with the flow's bytes; the states of both subjects around each.
     */
    private FlowThenEdge refusedByTheFlowThenAtTheEdge(String realm, String ip, String flowName, String edgeName) {
        double edgeBefore = edgeRefusals(realm);
        Map<String, Object> beforeFlow = state(realm, ip, flowName);
        TokenResponse flow = grant(realm, flowName, "wrong", ip);
        assertThat(flow.status()).as(flow.toString()).isEqualTo(429);
        assertThat(edgeRefusals(realm)).as("the flow answered it").isEqualTo(edgeBefore);
        Map<String, Object> afterFlow = state(realm, ip, flowName);
        Map<String, Object> beforeEdge = state(realm, ip, edgeName);
        TokenResponse edge = grant(realm, edgeName, "wrong", ip);
        assertAnsweredAtTheEdgeAsTheFlow(realm, edgeBefore, flow, edge);
        return new FlowThenEdge(flow, edge, beforeFlow, afterFlow, beforeEdge, state(realm, ip, edgeName));
    }

    /** The refusal event of {@code ip} in {@code realm} marked as answered at the edge. */
    private EventRepresentation awaitEdgeRefusalEvent(String realm, String ip) {
        return admin.awaitEvent(realm, ev -> ip.equals(ev.getIpAddress()) && "abuse_gate_blocked".equals(ev.getError())
                && ev.getDetails() != null && "true".equals(ev.getDetails().get("abuse_gate_edge")), Duration.ofSeconds(15), "LOGIN_ERROR");
    }

    /** {@code edge} was the one refusal answered at the edge since {@code edgeBefore}, with the flow's bytes. */
    private static void assertAnsweredAtTheEdgeAsTheFlow(String realm, double edgeBefore, TokenResponse flow, TokenResponse edge) {
        assertThat(edgeRefusals(realm)).as("answered at the edge").isEqualTo(edgeBefore + 1);
        assertThat(edge.status()).isEqualTo(flow.status());
        assertThat(edge.body()).isEqualTo(flow.body());
        assertThat(headers(edge)).isEqualTo(headers(flow));
    }

    private static double edgeRefusals(String realm) {
        return Metrics.sum(server.metrics(), EDGE_METRIC, Map.of("realm", realm));
    }

    /** Every response header but the date, names in lower case. */
    private static Map<String, List<String>> headers(TokenResponse r) {
        Map<String, List<String>> out = new TreeMap<>();
        r.headers().map().forEach((k, v) -> {
            if (!k.equalsIgnoreCase("date") && !k.equals(":status")) {
                out.put(k.toLowerCase(java.util.Locale.ROOT), v);
            }
        });
        return out;
    }

    private static Map<String, Object> state(String realm, String ip, String identifier) {
        AdminClient.Response r = admin.send("GET", "/admin/realms/" + AdminClient.seg(realm) + "/abuse-gate/state?address="
                + ip + "&identifier=" + identifier, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.jsonMap();
    }
}
