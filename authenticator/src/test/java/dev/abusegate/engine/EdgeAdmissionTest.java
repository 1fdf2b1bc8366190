package dev.abusegate.engine;

import static dev.abusegate.engine.GateFixture.REALM;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.Attempt;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.ReferenceCounterStore;
import org.junit.jupiter.api.Test;

/**
 * The edge ({@link AbuseGate#evaluateAtEdge}) on the reference store and a hand-moved clock: it answers only an address
 * the store blocked on layer 1 or 4, or answered in the band on its own entry, with the flow's decision, counted as the flow
 * counts it; it never touches what the password-spray layer counts; anything else costs nothing and goes to the flow.
 */
class EdgeAdmissionTest {

    private static final String IP = "198.51.100.7";
    private static final byte[] SPRAY_KEY = "spray-key-of-realm-a".getBytes(StandardCharsets.UTF_8);
    private static final String SPRAYED = "Winter2026!";

    private final GateFixture f = new GateFixture();
    /** Layer 1 at 3 in 60 s, layers 2 and 4 far away, no lockout, the spray layer at 3 accounts, no captcha. */
    private final GateOptions options = TestOptions.builder().captchaEnabled(false)
            .layer(Layer.PER_IP, 3, 60)
            .layer(Layer.PER_IP_ACCOUNT, 1000, 60)
            .layer(Layer.CREDENTIAL_STUFFING, 1000, 60)
            .disable(Layer.ACCOUNT_LOCKOUT)
            .layer(Layer.PASSWORD_SPRAY, 3, 3600)
            .build();

    private Decision flow(String ip, String name, String password) {
        long bucket = f.gate.passwordBucket(options, REALM, () -> SPRAY_KEY, password);
        Decision d = f.gate.evaluate(options, new Attempt(REALM, ip, name, null), null, true, bucket);
        if (d.allowed()) {
            f.gate.passwordFailed(d, 0L, List.of());
        }
        return d;
    }

    private Decision edge(String ip, String name, boolean reachesGate) {
        return f.gate.evaluateAtEdge(options, new Attempt(REALM, ip, name, null), false, () -> reachesGate);
    }

    private SubjectState state(String name) {
        return GateFixture.state(f.gate, REALM, IP, name, 128);
    }

    private void blockByFlow() {
        for (int i = 0; i < 3; i++) {
            assertThat(flow(IP, "alice", "wrong").outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(flow(IP, "alice", "wrong").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void an_address_not_seen_blocked_goes_to_the_flow_without_a_count() {
        flow(IP, "alice", "wrong");
        SubjectState before = state("bob");
        assertThat(edge(IP, "bob", true)).isNull();
        assertThat(state("bob")).isEqualTo(before);
    }

    @Test
    void a_blocked_address_is_refused_and_counted_as_the_flow_counts_it() {
        blockByFlow();
        SubjectState beforeFlow = state("carol");
        assertThat(flow(IP, "carol", "wrong").outcome()).isEqualTo(Outcome.BLOCKED);
        SubjectState afterFlow = state("carol");

        SubjectState beforeEdge = state("dave");
        Decision d = edge(IP, "dave", true);
        assertThat(d).isNotNull();
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.PER_IP);
        SubjectState afterEdge = state("dave");

        assertCountedOnceAsTheFlow(beforeFlow, afterFlow, beforeEdge, afterEdge);
        assertThat(afterEdge.address().distinctIdentifiers() - beforeEdge.address().distinctIdentifiers())
                .isEqualTo(afterFlow.address().distinctIdentifiers() - beforeFlow.address().distinctIdentifiers()).isEqualTo(1);
    }

    /** The edge's refusal counted one attempt on the address and one on the pair, as the flow's refusal did. */
    private static void assertCountedOnceAsTheFlow(SubjectState beforeFlow, SubjectState afterFlow, SubjectState beforeEdge,
            SubjectState afterEdge) {
        assertThat(afterEdge.address().attempts() - beforeEdge.address().attempts())
                .isEqualTo(afterFlow.address().attempts() - beforeFlow.address().attempts()).isEqualTo(1);
        assertThat(afterEdge.pair().attempts() - beforeEdge.pair().attempts())
                .isEqualTo(afterFlow.pair().attempts() - beforeFlow.pair().attempts()).isEqualTo(1);
    }

    @Test
    void a_request_that_would_not_reach_the_gate_is_left_to_the_flow_uncounted() {
        blockByFlow();
        SubjectState before = state("erin");
        assertThat(edge(IP, "erin", false)).isNull();
        assertThat(state("erin")).isEqualTo(before);
    }

    @Test
    void once_the_window_ends_the_edge_gives_its_counts_back_and_the_flow_decides() {
        blockByFlow();
        f.clock.advanceSeconds(61);
        SubjectState before = state("frank");
        assertThat(edge(IP, "frank", true)).isNull();
        assertThat(state("frank")).isEqualTo(before);
        assertThat(flow(IP, "frank", "wrong").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void edge_refusals_leave_the_spray_layers_count_as_the_flows_refusals_do() {
        // two accounts failed the sprayed password elsewhere: one below the spray layer's threshold of 3
        assertThat(flow("203.0.113.1", "user1", SPRAYED).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(flow("203.0.113.2", "user2", SPRAYED).outcome()).isEqualTo(Outcome.ALLOW);
        blockByFlow();
        // the blocked address tries the sprayed password on many accounts, through the flow and at the edge
        for (int i = 0; i < 5; i++) {
            assertThat(flow(IP, "flow" + i, SPRAYED).outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(edge(IP, "edge" + i, true).outcome()).isEqualTo(Outcome.BLOCKED);
        }
        // none of them counted: a third account elsewhere is still let through, and only then is the bucket sprayed
        assertThat(flow("203.0.113.3", "user3", SPRAYED).outcome()).isEqualTo(Outcome.ALLOW);
        Decision next = flow("203.0.113.4", "user4", SPRAYED);
        assertThat(next.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(next.layer()).isEqualTo(Layer.PASSWORD_SPRAY);
    }

    @Test
    void a_realm_with_layer_one_off_is_never_answered_at_the_edge() {
        blockByFlow();
        GateOptions off = TestOptions.from(options).disable(Layer.PER_IP).build();
        assertThat(f.gate.evaluateAtEdge(off, new Attempt(REALM, IP, "gina", null), false, () -> true)).isNull();
    }

    /** Layer 4 at 6 distinct names (its band from 3), layer 1 far away, with the captcha band. */
    private final GateOptions band = TestOptions.builder()
            .layer(Layer.PER_IP, 1000, 60)
            .layer(Layer.PER_IP_ACCOUNT, 1000, 60)
            .layer(Layer.CREDENTIAL_STUFFING, 6, 60)
            .disable(Layer.ACCOUNT_LOCKOUT)
            .build();

    private Decision bandFlow(String name) {
        Decision d = f.gate.evaluate(band, new Attempt(REALM, IP, name, null), null, true);
        if (d.allowed()) {
            f.gate.passwordFailed(d, 0L, List.of());
        }
        return d;
    }

    private Decision bandEdge(String name, boolean solutionCarried) {
        return f.gate.evaluateAtEdge(band, new Attempt(REALM, IP, name, null), solutionCarried, () -> true);
    }

    private SubjectState bandState(String name) {
        return GateFixture.state(f.gate, REALM, IP, name, 128);
    }

    /** Layer 4 at 3 distinct names, layer 1 far away, no captcha band: an address that tries too many names is blocked. */
    private final GateOptions names = TestOptions.builder().captchaEnabled(false)
            .layer(Layer.PER_IP, 1000, 60)
            .layer(Layer.PER_IP_ACCOUNT, 1000, 60)
            .layer(Layer.CREDENTIAL_STUFFING, 3, 60)
            .disable(Layer.ACCOUNT_LOCKOUT)
            .build();

    @Test
    void an_address_blocked_on_layer_four_is_refused_and_counted_as_the_flow_counts_it() {
        for (int i = 0; i < 3; i++) {
            assertThat(f.gate.evaluate(names, new Attempt(REALM, IP, "m" + i, null), null, true).outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.gate.evaluateAtEdge(names, new Attempt(REALM, IP, "e" + i, null), false, () -> true))
                    .as("not blocked yet: the flow decides, nothing counted").isNull();
        }
        SubjectState beforeFlow = state("m3");
        Decision byFlow = f.gate.evaluate(names, new Attempt(REALM, IP, "m3", null), null, true);
        assertThat(byFlow.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(byFlow.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        SubjectState afterFlow = state("m3");

        SubjectState beforeEdge = state("m4");
        Decision d = f.gate.evaluateAtEdge(names, new Attempt(REALM, IP, "m4", null), false, () -> true);
        assertThat(d).as("the address blocked on layer 4 is answered at the edge").isNotNull();
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        assertCountedOnceAsTheFlow(beforeFlow, afterFlow, beforeEdge, state("m4"));
        // past the threshold every name is refused, one tried before too: at the edge as by the flow
        Decision seenAtEdge = f.gate.evaluateAtEdge(names, new Attempt(REALM, IP, "m0", null), false, () -> true);
        Decision seenByFlow = f.gate.evaluate(names, new Attempt(REALM, IP, "m0", null), null, true);
        assertThat(seenAtEdge).as("a name tried before, at the edge").isNotNull();
        assertThat(seenAtEdge.outcome()).isEqualTo(seenByFlow.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(seenAtEdge.layer()).isEqualTo(seenByFlow.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
    }

    @Test
    void a_layer_four_hint_ends_with_layer_fours_window_where_that_is_shorter_than_layer_ones() {
        AtomicInteger changes = new AtomicInteger();
        GateFixture g = new GateFixture(clock -> new TestStores.Forwarding(new ReferenceCounterStore(clock)) {
            @Override
            public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
                changes.incrementAndGet();
                return super.apply(key, change, ttlMillis);
            }
        });
        GateOptions shortNames = TestOptions.from(names).layer(Layer.CREDENTIAL_STUFFING, 3, 30).build();
        for (int i = 0; i < 4; i++) {
            g.gate.evaluate(shortNames, new Attempt(REALM, IP, "k" + i, null), null, true);
        }
        assertThat(g.gate.evaluateAtEdge(shortNames, new Attempt(REALM, IP, "k4", null), false, () -> true).outcome())
                .as("blocked on layer 4, answered at the edge").isEqualTo(Outcome.BLOCKED);
        g.clock.advanceSeconds(31); // layer 4's window (30 s) ended, layer 1's (60 s) not
        int before = changes.get();
        assertThat(g.gate.evaluateAtEdge(shortNames, new Attempt(REALM, IP, "k5", null), false, () -> true)).isNull();
        assertThat(changes.get()).as("no store change at the edge for an address no longer blocked").isEqualTo(before);
        assertThat(g.gate.evaluate(shortNames, new Attempt(REALM, IP, "k5", null), null, true).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void an_address_in_the_band_without_a_solution_gets_the_flows_captcha_and_nothing_is_counted() {
        assertThat(bandEdge("n0", false)).as("not seen in the band yet").isNull();
        for (int i = 0; i < 3; i++) {
            assertThat(bandFlow("n" + i).outcome()).isEqualTo(Outcome.ALLOW);
        }
        Decision byFlow = bandFlow("n3");
        assertThat(byFlow.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);

        SubjectState before = bandState("n4");
        Decision d = bandEdge("n4", false);
        assertThat(d).isNotNull();
        assertThat(d.outcome()).isEqualTo(byFlow.outcome());
        assertThat(d.layer()).isEqualTo(byFlow.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        assertThat(bandState("n4")).as("a captcha answer counts nothing, as the flow's").isEqualTo(before);
        for (int i = 0; i < 50; i++) {
            assertThat(bandEdge("x" + i, false).outcome()).as("never escalated").isEqualTo(Outcome.CAPTCHA_REQUIRED);
        }
        assertThat(bandState("n4")).isEqualTo(before);
    }

    @Test
    void an_address_in_the_band_with_a_solution_goes_to_the_flow_uncounted() {
        for (int i = 0; i < 4; i++) {
            bandFlow("s" + i);
        }
        SubjectState before = bandState("s4");
        assertThat(bandEdge("s4", true)).isNull();
        assertThat(bandState("s4")).isEqualTo(before);
        // the flow verifies it: with a solution the band's attempt is let through and counted
        assertThat(f.gate.evaluate(band, new Attempt(REALM, IP, "s4", null), () -> true, true).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void once_the_address_leaves_the_band_the_edge_gives_its_counts_back_and_the_flow_decides() {
        for (int i = 0; i < 4; i++) {
            bandFlow("w" + i);
        }
        f.clock.advanceSeconds(61);
        SubjectState before = bandState("w4");
        assertThat(bandEdge("w4", false)).isNull();
        assertThat(bandState("w4")).isEqualTo(before);
        assertThat(bandFlow("w4").outcome()).isEqualTo(Outcome.ALLOW);
    }
}
