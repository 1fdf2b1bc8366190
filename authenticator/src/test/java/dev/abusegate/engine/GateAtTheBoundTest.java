package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.store.ReferenceCounterStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate on a store with small bounds, flooded ten times past them: no flood switches a layer off, a shared
 * count never blocks, a full store is reported as degraded (not unavailable), and blocks and locks hold.
 */
class GateAtTheBoundTest {

    private static final long BOUND = 64;

    private final GateFixture f = new GateFixture(clock -> new ReferenceCounterStore(clock, BOUND, BOUND));
    private final GateOptions options = TestOptions.builder()
            .layer(Layer.PER_IP, 5, 900).layer(Layer.PER_IP_ACCOUNT, 5, 900)
            .layer(Layer.CREDENTIAL_STUFFING, 5, 900).layer(Layer.ACCOUNT_LOCKOUT, 3, 900).build();

    private Decision attempt(String address, String user) {
        return GateFixture.evaluate(f.gate, options, new Attempt(GateFixture.REALM, address, user, null), null);
    }

    private Decision solvedAttempt(String address, String user) {
        return GateFixture.evaluate(f.gate, options, new Attempt(GateFixture.REALM, address, user, null), () -> true);
    }

    private static String address(int i) {
        return "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff);
    }

    /** Addresses worth two attempts each, ten times the bound: nothing may make room. */
    private void fillWithAddressesWorthTwoAttempts(GateOptions o) {
        for (int i = 0; i < 10 * BOUND; i++) {
            for (int j = 0; j < 2; j++) {
                Decision d = GateFixture.evaluate(f.gate, o, new Attempt(GateFixture.REALM, address(i), "flood-" + i + "-" + j, null), null);
                if (d.allowed()) {
                    f.gate.notVerified(d);
                }
            }
        }
    }

    /** What a fresh address meets, solving every captcha: the outcomes, one per attempt, until blocked (at most 10). */
    private List<Outcome> probe(String address, boolean freshUsers) {
        return probe(options, 10, i -> new Attempt(GateFixture.REALM, address,
                freshUsers ? "probe-" + address + "-" + i : "probe-" + address, null));
    }

    /** What the attempts {@code attempt(0), attempt(1), ...} meet, solving every captcha, until blocked (at most {@code max}). */
    private List<Outcome> probe(GateOptions o, int max, java.util.function.IntFunction<Attempt> attempt) {
        List<Outcome> seen = new ArrayList<>();
        for (int i = 0; i < max && !seen.contains(Outcome.BLOCKED); i++) {
            Attempt a = attempt.apply(i);
            Decision d = GateFixture.evaluate(f.gate, o, a, null);
            seen.add(d.outcome());
            if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                d = GateFixture.evaluate(f.gate, o, a, () -> true);
                seen.add(d.outcome());
            }
            if (d.allowed()) {
                f.gate.notVerified(d);
            }
        }
        return seen;
    }

    @Test
    void after_a_flood_of_fresh_addresses_a_fresh_address_meets_its_threshold_and_band_exactly() {
        List<Outcome> before = probe("192.0.2.1", true);
        assertThat(before).containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED,
                Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.BLOCKED);
        for (int i = 0; i < 10 * BOUND; i++) {
            Decision d = attempt(address(i), "flood-" + i);
            assertThat(d.degraded()).as("addresses seen once make room for each other").isEmpty();
            f.gate.notVerified(d);
        }
        assertThat(probe("192.0.2.2", true)).isEqualTo(before);
        assertThat(attempt("192.0.2.1", "anyone").outcome()).as("a blocked address stays blocked").isEqualTo(Outcome.BLOCKED);
    }

    /**
     * A flood's newcomer may take the place of a pair seen once (docs/clustering.md): its next attempt starts the
     * count again. The name's lockout count (layer 3, failures from any address) still stops it, so the attempt given
     * back shows as one more captcha, not as one more wrong password checked. ClusterIT's layer-2 probe met this.
     */
    @Test
    void a_pair_replaced_after_its_first_attempt_gets_one_more_captcha_and_the_names_lockout_still_stops_it() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5).layer(Layer.PER_IP, 4, 900).layer(Layer.PER_IP_ACCOUNT, 3, 900)
                .layer(Layer.CREDENTIAL_STUFFING, 3, 900).layer(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        for (boolean replaced : new boolean[] {false, true}) {
            String address = replaced ? "192.0.2.21" : "192.0.2.20";
            Attempt a = new Attempt(GateFixture.REALM, address, "l2-" + address, null);
            List<String> seen = wrongPasswords(f, o, a, () -> {
                if (replaced) {
                    f.store.remove(f.keys(o, address, a.identifier()).pair());
                }
            }, new boolean[1]);
            List<String> checkedThenBlocked = replaced
                    ? List.of("wrong password checked", "wrong password checked", "captcha", "wrong password checked", "captcha", "blocked")
                    : List.of("wrong password checked", "wrong password checked", "captcha", "wrong password checked", "blocked");
            assertThat(seen).as(replaced ? "the pair replaced after the first attempt" : "an exact count").isEqualTo(checkedThenBlocked);
        }
    }

    /**
     * The fair share's edge, on a cheap table of one slot (8 entries), full of entries worth two attempts each: a
     * realm holding fewer than its share (4 of 8, two realms present) takes the place of the other realm's entries
     * and meets layer 2 exactly; a realm holding its share with entries of its own keeps them, and its newcomer is
     * counted on its own shared counter, which asks for a captcha where an exact count would block, and the name's
     * lockout (layer 3, failures from any address) still stops it. StoreFloodIT's layer-2 probe in a realm that had
     * filled its share with its own earlier probes met this.
     */
    @Test
    void a_realm_below_its_share_of_a_full_slot_counts_exactly_and_one_at_its_share_counts_on_its_own_shared_counter() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5).layer(Layer.PER_IP, 4, 900).layer(Layer.PER_IP_ACCOUNT, 3, 900)
                .layer(Layer.CREDENTIAL_STUFFING, 3, 900).layer(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        List<String> exact = List.of("wrong password checked", "wrong password checked", "captcha", "wrong password checked", "blocked");
        for (int held : new int[] {1, 2}) {
            GateFixture g = new GateFixture(clock -> new ReferenceCounterStore(clock, 8, 8));
            // the probed realm's own entries, worth two attempts each: an address and its pair per address
            for (int i = 0; i < held; i++) {
                twice(g, o, "realm-probed", "203.0.113." + (i + 1));
            }
            // another realm fills the rest of the slot with entries worth two attempts each, and floods on
            for (int i = 0; i < 40; i++) {
                twice(g, o, "realm-flooded", address(i));
            }
            boolean[] shared = new boolean[1];
            List<String> seen = wrongPasswords(g, o, new Attempt("realm-probed", "192.0.2.30", "l2-probe", null), () -> { }, shared);
            boolean degraded = shared[0];
            if (held == 1) {
                assertThat(seen).as("2 of 8 entries, below its share: exact").isEqualTo(exact);
                assertThat(degraded).as("no shared count reported").isFalse();
            } else {
                assertThat(degraded).as("the shared count reported (abuse_gate_store_degraded_total)").isTrue();
                assertThat(seen).as("4 of 8 entries of its own, its share: its own shared counter").containsExactly(
                        "wrong password checked", "wrong password checked", "captcha", "wrong password checked", "captcha", "blocked");
            }
        }
    }

    /**
     * Up to six wrong passwords for {@code a} until blocked, a captcha solved when asked: what each attempt met.
     * {@code afterFirst} runs once after the first attempt; {@code degraded[0]} tells whether any answer came from
     * a shared count.
     */
    private static List<String> wrongPasswords(GateFixture g, GateOptions o, Attempt a, Runnable afterFirst, boolean[] degraded) {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 6 && !seen.contains("blocked"); i++) {
            Decision d = GateFixture.evaluate(g.gate, o, a, null);
            degraded[0] |= !d.degraded().isEmpty();
            if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                seen.add("captcha");
                d = GateFixture.evaluate(g.gate, o, a, GateFixture.SOLVED);
            }
            seen.add(d.allowed() ? "wrong password checked" : d.outcome() == Outcome.BLOCKED ? "blocked" : "captcha");
            if (d.allowed()) {
                g.gate.passwordFailed(d, 0L, List.of());
            }
            if (i == 0) {
                afterFirst.run();
            }
        }
        return seen;
    }

    /** Two attempts from {@code address} for one name: an address and a pair, each seen twice (nothing may replace them). */
    private static void twice(GateFixture g, GateOptions o, String realm, String address) {
        for (int j = 0; j < 2; j++) {
            Decision d = GateFixture.evaluate(g.gate, o, new Attempt(realm, address, "seen-twice-" + address, null), null);
            if (d.allowed()) {
                g.gate.notVerified(d);
            }
        }
    }

    @Test
    void when_nothing_may_make_room_new_subjects_are_counted_on_shared_counters_which_never_block() {
        // the victim's lock and a blocked address, before the flood
        for (int i = 0; i < 3; i++) {
            Decision d = solvedAttempt("198.51.100." + (i + 1), "victim");
            assertThat(d.allowed()).isTrue();
            f.gate.passwordFailed(d, 0L, java.util.List.of());
        }
        probe("192.0.2.1", true);
        // addresses worth two attempts each, ten times the bound
        for (int i = 0; i < 10 * BOUND; i++) {
            for (int j = 0; j < 2; j++) {
                Decision d = attempt(address(i), "flood-" + i + "-" + j);
                if (d.allowed()) {
                    f.gate.notVerified(d);
                }
            }
        }
        int degraded = 0;
        for (int i = 0; i < 50; i++) {
            String a = "203.0.113." + i;
            for (int j = 0; j < 10; j++) {
                Decision d = attempt(a, "fresh-" + i + "-" + j);
                assertThat(d.unavailable()).as("a full store has not failed").isEmpty();
                degraded += d.degraded().isEmpty() ? 0 : 1;
                if (!d.degraded().isEmpty()) {
                    assertThat(d.outcome()).as("a shared count never blocks").isNotEqualTo(Outcome.BLOCKED);
                }
                if (d.allowed()) {
                    f.gate.notVerified(d);
                }
            }
        }
        assertThat(degraded).as("decisions on shared counters").isPositive();
        // a fresh address may be asked for a captcha first (its shared count); with one solved, the lock answers
        assertThat(attempt("203.0.113.200", "victim").allowed()).as("the lock holds").isFalse();
        assertThat(solvedAttempt("203.0.113.200", "victim").outcome()).as("the lock holds").isEqualTo(Outcome.BLOCKED);
        assertThat(attempt("192.0.2.1", "anyone").outcome()).as("a blocked address stays blocked").isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void with_the_band_off_a_shared_count_past_a_threshold_asks_for_a_captcha_and_a_solved_one_passes() {
        GateOptions bandOff = TestOptions.from(options).captchaEnabled(false).build();
        fillWithAddressesWorthTwoAttempts(bandOff);
        int asked = 0;
        int passedSolved = 0;
        for (int i = 0; i < 50; i++) {
            String a = "203.0.113." + i;
            for (int j = 0; j < 10; j++) {
                Attempt attempt = new Attempt(GateFixture.REALM, a, "fresh-" + i + "-" + j, null);
                Decision d = GateFixture.evaluate(f.gate, bandOff, attempt, null);
                if (d.outcome() == Outcome.BLOCKED) {
                    assertThat(d.degraded()).as("blocked only on an exact count, band or not: %s", d).doesNotContain(d.layer());
                }
                if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                    assertThat(d.degraded()).as("with the band off only a shared count asks for a captcha").isNotEmpty();
                    asked++;
                    d = GateFixture.evaluate(f.gate, bandOff, attempt, () -> true);
                    assertThat(d.outcome()).as("a solved captcha passes a shared count").isNotEqualTo(Outcome.BLOCKED);
                    passedSolved += d.allowed() ? 1 : 0;
                }
                if (d.allowed()) {
                    f.gate.notVerified(d);
                }
            }
        }
        assertThat(asked).as("attempts asked for a captcha on a shared count").isPositive();
        assertThat(passedSolved).as("of those, passed with a solved captcha").isEqualTo(asked);
    }

    /** What one IPv6 /48 spread over fresh /64s meets, solving every captcha, until blocked (at most 12 attempts). */
    private List<Outcome> probeNetwork(GateOptions o, String net48) {
        return probe(o, 12, i -> new Attempt(GateFixture.REALM, net48 + ":" + Integer.toHexString(i) + "::1", "net-" + net48 + "-" + i, null));
    }

    @Test
    void an_ipv6_network_meets_its_own_threshold_at_the_bound_and_a_shared_network_count_never_blocks() {
        GateOptions o = TestOptions.from(options).layer(Layer.PER_IP, 100, 900).ipv6Network(48, 6).build();
        List<Outcome> before = probeNetwork(o, "2001:db8:1");
        assertThat(before).containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW,
                Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.BLOCKED);
        // fresh /48s seen once each, ten times the bound: their /64 and /48 entries make room for each other
        for (int i = 0; i < 10 * BOUND; i++) {
            Decision d = GateFixture.evaluate(f.gate, o, new Attempt(GateFixture.REALM, "2001:db8:" + Integer.toHexString(0x1000 + i) + ":1::1",
                    "flood-" + i, null), null);
            assertThat(d.degraded()).as("networks seen once make room for each other").isEmpty();
            f.gate.notVerified(d);
        }
        assertThat(probeNetwork(o, "2001:db8:2")).as("a fresh /48 after the flood").isEqualTo(before);
        fillWithAddressesWorthTwoAttempts(o);
        // fresh /48s, five fresh /64s each: no exact count reaches a threshold, so nothing may block
        int degraded = 0;
        for (int i = 0; i < 30; i++) {
            String address = "2001:db8:" + Integer.toHexString(0x3000 + i / 5) + ":" + Integer.toHexString(i % 5) + "::1";
            Attempt a = new Attempt(GateFixture.REALM, address, "late-" + i, null);
            Decision d = GateFixture.evaluate(f.gate, o, a, null);
            assertThat(d.unavailable()).as("a full store has not failed").isEmpty();
            assertThat(d.outcome()).as("a shared count never blocks").isNotEqualTo(Outcome.BLOCKED);
            degraded += d.degraded().contains(Layer.PER_IP) ? 1 : 0;
            if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                d = GateFixture.evaluate(f.gate, o, a, () -> true);
                assertThat(d.outcome()).as("a solved captcha passes a shared count").isEqualTo(Outcome.ALLOW);
            }
            f.gate.notVerified(d);
        }
        assertThat(degraded).as("IPv6 attempts counted on shared counters").isPositive();
        assertThat(GateFixture.evaluate(f.gate, o, new Attempt(GateFixture.REALM, "2001:db8:1:fff::1", "anyone", null), () -> true).outcome())
                .as("a blocked /48 stays blocked").isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void a_reservation_on_a_shared_counter_is_settled_there_and_a_shared_count_past_its_threshold_blocks() {
        // fill the protective table with failures (each checked: worth a password hash)
        for (int i = 0; i < 10 * BOUND; i++) {
            Decision d = attempt("198.18.0." + (i % 250), "user-" + i);
            if (d.allowed()) {
                f.gate.passwordFailed(d, 0L, java.util.List.of());
            }
        }
        int shared = 0;
        int sharedBlocked = 0;
        for (int i = 0; i < 40; i++) {
            String user = "account-" + i;
            for (int j = 0; j < 5; j++) {
                Decision d = solvedAttempt("203.0.113." + (i * 5 + j) % 250, user);
                if (!d.degraded().contains(Layer.ACCOUNT_LOCKOUT)) {
                    if (d.allowed()) {
                        f.gate.notVerified(d);
                    }
                    continue;
                }
                shared++;
                if (d.outcome() == Outcome.BLOCKED) {
                    // the cautious answer: a shared lockout count past its threshold blocks, solved captcha or not
                    assertThat(d.layer()).as("only the shared lockout count blocks").isEqualTo(Layer.ACCOUNT_LOCKOUT);
                    sharedBlocked++;
                }
                if (d.allowed()) {
                    assertThat(f.gate.passwordFailed(d, 0L, java.util.List.of()).unavailable()).isEmpty();
                }
            }
        }
        assertThat(shared).as("identifiers counted on shared lockout counters").isPositive();
        assertThat(sharedBlocked).as("solved captchas refused on a shared lockout count past its threshold").isPositive();
    }

    @Test
    void at_the_bound_an_allowed_login_waits_at_most_three_times_and_a_blocked_attempt_at_most_twice() {
        MutableClock clock = new MutableClock();
        RoundTripsTest.RoundCountingStore store = new RoundTripsTest.RoundCountingStore(new ReferenceCounterStore(clock, BOUND, BOUND));
        AbuseGate gate = new AbuseGate(store, clock, GateFixture.SECRETS, 0);
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP, 3, 900).build();
        for (int i = 0; i < 3; i++) {
            gate.notVerified(GateFixture.evaluate(gate, o, new Attempt(GateFixture.REALM, "192.0.2.9", "blocked-" + i, null), null));
        }
        // fill both tables past their bounds with entries nothing may replace
        for (int i = 0; i < 10 * BOUND; i++) {
            for (int j = 0; j < 2; j++) {
                Decision d = GateFixture.evaluate(gate, o, new Attempt(GateFixture.REALM, address(i), "flood-" + i, null), null);
                if (d.allowed()) {
                    gate.passwordFailed(d, 0L, java.util.List.of());
                }
            }
        }
        int sharedLogins = 0;
        for (int i = 0; i < 20; i++) {
            store.reset();
            Decision d = GateFixture.evaluate(gate, o, new Attempt(GateFixture.REALM, "203.0.113." + i, "fresh-" + i, null), null);
            sharedLogins += d.degraded().isEmpty() ? 0 : 1;
            if (d.allowed()) {
                gate.passwordFailed(d, 0L, java.util.List.of("fresh-" + i, "fresh-" + i + "@example.com"));
                assertThat(store.roundsSinceReset()).as("allowed login at the bound").isLessThanOrEqualTo(3);
            } else {
                assertThat(store.roundsSinceReset()).as("refused attempt at the bound").isLessThanOrEqualTo(2);
            }
        }
        assertThat(sharedLogins).as("logins counted on shared counters").isPositive();
        store.reset();
        Decision blocked = GateFixture.evaluate(gate, o, new Attempt(GateFixture.REALM, "192.0.2.9", "anyone", null), null);
        assertThat(blocked.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.roundsSinceReset()).as("blocked attempt at the bound").isLessThanOrEqualTo(2);
    }
}
