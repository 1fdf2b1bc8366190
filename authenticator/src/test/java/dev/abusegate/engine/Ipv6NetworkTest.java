package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.ReferenceCounterStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Layer 1 also counts an IPv6 address's network (/48 by default) against its own threshold: a host that spreads its
 * attempts over fresh /64s of one /48 meets the network's band and threshold, on layer 1's window, failure mode and
 * allowlist, while another /48, IPv4 and the /64 counting are as before. Reference store, moved clock.
 */
class Ipv6NetworkTest {

    private final GateFixture f = new GateFixture();
    /** Layer 1 at 100 per /64, 10 per /48, in 300 s; the band from 5 (factor 0.5); the other layers out of the way. */
    private final GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 100, 300).ipv6Network(48, 10)
            .disable(Layer.PER_IP_ACCOUNT).disable(Layer.CREDENTIAL_STUFFING).disable(Layer.ACCOUNT_LOCKOUT).build();

    private int fresh;

    /** A fresh /64 in {@code net48} (e.g. {@code 2001:db8:1}), a fresh host in it, a fresh username. */
    private Attempt spread(String net48) {
        int i = fresh++;
        return new Attempt(GateFixture.REALM, net48 + ":" + Integer.toHexString(i) + "::" + Integer.toHexString(i + 1), "user-" + i, null);
    }

    private Decision evaluate(GateOptions options, Attempt a, boolean solved) {
        return GateFixture.evaluate(f.gate, options, a, solved ? GateFixture.SOLVED : null);
    }

    /** What one /48 spread over fresh /64s meets, solving every captcha it is asked for, until blocked (at most 20). */
    private List<Outcome> probe(GateOptions options, String net48) {
        List<Outcome> seen = new java.util.ArrayList<>();
        for (int i = 0; i < 20 && !seen.contains(Outcome.BLOCKED); i++) {
            Attempt a = spread(net48);
            Decision d = evaluate(options, a, false);
            seen.add(d.outcome());
            if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                d = evaluate(options, a, true);
                seen.add(d.outcome());
            }
            if (d.allowed()) {
                f.gate.passwordFailed(d, 0L, List.of());
            }
        }
        return seen;
    }

    private long networkCount(GateOptions options, String address) {
        SubjectState.Network n = f.gate.state(GateFixture.REALM, address, null, options.ipv6PrefixLength(),
                options.ipv6NetworkPrefixLength()).network();
        return n == null ? -1 : n.attempts();
    }

    @Test
    void a_48_spread_over_fresh_64s_meets_the_network_band_and_threshold_as_layer_1() {
        for (int i = 1; i <= 5; i++) {
            assertThat(evaluate(o, spread("2001:db8:1"), false).outcome()).as("attempt %d, below the band", i).isEqualTo(Outcome.ALLOW);
        }
        Decision challenge = evaluate(o, spread("2001:db8:1"), false);
        assertThat(challenge.outcome()).as("a fresh /64, but its /48 is in the band").isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(challenge.layer()).isEqualTo(Layer.PER_IP);
        assertThat(networkCount(o, "2001:db8:1::1")).as("a captcha answer counts nothing").isEqualTo(5);
        for (int i = 6; i <= 10; i++) {
            assertThat(evaluate(o, spread("2001:db8:1"), true).outcome()).as("attempt %d, solved", i).isEqualTo(Outcome.ALLOW);
        }
        Decision blocked = evaluate(o, spread("2001:db8:1"), true);
        assertThat(blocked.outcome()).as("past the network threshold, solved or not").isEqualTo(Outcome.BLOCKED);
        assertThat(blocked.layer()).isEqualTo(Layer.PER_IP);
        assertThat(blocked.unavailable()).isEmpty();
        assertThat(blocked.degraded()).isEmpty();

        assertThat(evaluate(o, spread("2001:db8:2"), false).outcome()).as("another /48").isEqualTo(Outcome.ALLOW);
        assertThat(evaluate(o, new Attempt(GateFixture.REALM, "2001:db8:1:ffff::1", "late", null), true).outcome())
                .as("every /64 of the blocked /48").isEqualTo(Outcome.BLOCKED);

        f.clock.advanceSeconds(300);
        assertThat(evaluate(o, spread("2001:db8:1"), false).outcome()).as("a quiet window later").isEqualTo(Outcome.ALLOW);
    }

    @Test
    void the_64_is_counted_as_before_next_to_its_network() {
        GateOptions tight = TestOptions.from(o).layer(Layer.PER_IP, 3, 300).ipv6Network(48, 1_000).captchaEnabled(false).build();
        for (int i = 1; i <= 3; i++) {
            assertThat(f.evaluate(tight, "2001:db8:5:1::" + i, "u" + i).outcome()).as("host %d of one /64", i).isEqualTo(Outcome.ALLOW);
        }
        Decision d = f.evaluate(tight, "2001:db8:5:1::99", "u4");
        assertThat(d.outcome()).as("the /64's own threshold").isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.PER_IP);
        assertThat(f.perIpCount(tight, "2001:db8:5:1::1")).isEqualTo(4);
        assertThat(networkCount(tight, "2001:db8:5:1::1")).as("the /48 counted each attempt too").isEqualTo(4);
        assertThat(f.evaluate(tight, "2001:db8:5:2::1", "u5").outcome()).as("another /64 of the /48").isEqualTo(Outcome.ALLOW);
    }

    @Test
    void a_captcha_asked_for_by_the_64_counts_nothing_on_its_network_either() {
        GateOptions o64 = TestOptions.from(o).layer(Layer.PER_IP, 4, 300).ipv6Network(48, 1_000).build(); // the /64's band from 2
        for (int i = 0; i < 2; i++) {
            assertThat(f.evaluate(o64, "2001:db8:6:1::" + (i + 1), "u" + i).outcome()).isEqualTo(Outcome.ALLOW);
        }
        for (int i = 0; i < 5; i++) {
            Decision d = f.evaluate(o64, "2001:db8:6:1::9", "again-" + i);
            assertThat(d.outcome()).as("the /64 is in its band").isEqualTo(Outcome.CAPTCHA_REQUIRED);
        }
        assertThat(networkCount(o64, "2001:db8:6:1::1")).as("given back on the /48 too").isEqualTo(2);
        assertThat(f.perIpCount(o64, "2001:db8:6:1::1")).isEqualTo(2);
        assertThat(GateFixture.evaluate(f.gate, o64, GateFixture.attempt("2001:db8:6:1::9", "solved"), GateFixture.SOLVED).outcome())
                .isEqualTo(Outcome.ALLOW);
        assertThat(networkCount(o64, "2001:db8:6:1::1")).as("a solved one counts on both").isEqualTo(3);
    }

    @Test
    void ipv4_and_ipv4_mapped_addresses_have_no_network_count() {
        GateOptions one = TestOptions.from(o).ipv6Network(48, 1).captchaEnabled(false).build();
        for (int i = 0; i < 20; i++) {
            assertThat(f.evaluate(one, "192.0.2." + (i + 1), "v4-" + i).outcome()).as("IPv4 %d", i).isEqualTo(Outcome.ALLOW);
            assertThat(f.evaluate(one, "::ffff:198.51.100." + (i + 1), "mapped-" + i).outcome()).as("IPv4-mapped %d", i)
                    .isEqualTo(Outcome.ALLOW);
        }
        assertThat(networkCount(one, "192.0.2.1")).isEqualTo(-1);
        assertThat(networkCount(one, "::ffff:198.51.100.1")).isEqualTo(-1);
        assertThat(f.perIpCount(one, "::ffff:198.51.100.1")).as("counted as its IPv4 address").isEqualTo(1);
    }

    @Test
    void threshold_zero_counts_no_network() {
        GateOptions off = TestOptions.from(o).ipv6Network(48, 0).build();
        for (int i = 0; i < 30; i++) {
            assertThat(evaluate(off, spread("2001:db8:1"), false).outcome()).as("attempt %d", i).isEqualTo(Outcome.ALLOW);
        }
        CounterKey net = GateFixture.KEYS.forAttempt(GateFixture.REALM, "2001:db8:1::1", "x", 64, 48).network();
        assertThat(f.store.read(net)).as("no /48 entry").isNull();
    }

    @Test
    void the_network_prefix_length_is_a_setting() {
        GateOptions by40 = TestOptions.from(o).ipv6Network(40, 3).captchaEnabled(false).build();
        for (int i = 0; i < 3; i++) {
            assertThat(f.evaluate(by40, "2001:db8:" + Integer.toHexString(0x100 + i) + "::1", "u" + i).outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.evaluate(by40, "2001:db8:1ff::1", "u9").outcome()).as("another /48 of the same /40").isEqualTo(Outcome.BLOCKED);
        assertThat(f.evaluate(by40, "2001:db8:200::1", "u10").outcome()).as("the next /40").isEqualTo(Outcome.ALLOW);
    }

    @Test
    void an_allowlisted_network_is_neither_counted_nor_blocked() {
        GateOptions allowed = TestOptions.from(o).allowlist(Allowlist.parse("2001:db8:1::/48")).captchaEnabled(false).build();
        for (int i = 0; i < 30; i++) {
            assertThat(evaluate(allowed, spread("2001:db8:1"), false).outcome()).as("attempt %d", i).isEqualTo(Outcome.ALLOW);
        }
        assertThat(networkCount(allowed, "2001:db8:1::1")).isZero();
        for (int i = 0; i < 10; i++) {
            evaluate(allowed, spread("2001:db8:2"), false);
        }
        assertThat(evaluate(allowed, spread("2001:db8:2"), false).outcome()).as("a /48 not on the list").isEqualTo(Outcome.BLOCKED);
    }

    private static boolean isNetworkKey(CounterKey k) {
        return k.kind() == CounterKey.Kind.ADDRESS && k.shape() == CounterKey.IPV6 + 48;
    }

    @Test
    void a_failed_network_count_follows_layer_1s_failure_mode_and_the_64_keeps_counting() {
        GateFixture dead = new GateFixture(new TestStores.DeadStore(Ipv6NetworkTest::isNetworkKey));
        GateOptions open = TestOptions.from(o).layer(Layer.PER_IP, 2, 300).captchaEnabled(false).build();
        Decision d = dead.evaluate(open, "2001:db8:1:1::1", "a");
        assertThat(d.outcome()).as("FAIL_OPEN").isEqualTo(Outcome.ALLOW);
        assertThat(d.unavailable()).containsExactly(Layer.PER_IP);
        dead.evaluate(open, "2001:db8:1:1::2", "b");
        assertThat(dead.evaluate(open, "2001:db8:1:1::3", "c").outcome()).as("the /64 still counts").isEqualTo(Outcome.BLOCKED);
        assertThat(dead.evaluate(open, "192.0.2.1", "v4").unavailable()).as("IPv4 needs no network entry").isEmpty();

        GateOptions closed = TestOptions.from(open).failureMode(Layer.PER_IP, FailureMode.FAIL_CLOSED).build();
        Decision c = dead.evaluate(closed, "2001:db8:9:1::1", "a");
        assertThat(c.outcome()).as("FAIL_CLOSED").isEqualTo(Outcome.BLOCKED);
        assertThat(c.layer()).isEqualTo(Layer.PER_IP);
        assertThat(c.unavailable()).containsExactly(Layer.PER_IP);
        assertThat(dead.evaluate(closed, "192.0.2.2", "v4").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void a_blocked_network_is_held_like_a_blocked_address() {
        MutableClock clock = new MutableClock();
        int[] networkChanges = new int[1];
        TestStores.Forwarding store = new TestStores.Forwarding(new ReferenceCounterStore(clock)) {
            @Override
            public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
                networkChanges[0] += isNetworkKey(key) ? 1 : 0;
                return super.apply(key, change, ttlMillis);
            }
        };
        AbuseGate held = new AbuseGate(store, clock, GateFixture.SECRETS, 1_000);
        GateOptions tight = TestOptions.from(o).ipv6Network(48, 3).captchaEnabled(false).build();
        for (int i = 0; i < 4; i++) {
            GateFixture.evaluate(held, tight, spread("2001:db8:1"), null);
        }
        networkChanges[0] = 0;
        for (int i = 0; i < 10; i++) {
            Decision d = GateFixture.evaluate(held, tight, spread("2001:db8:1"), null);
            assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(d.layer()).isEqualTo(Layer.PER_IP);
        }
        assertThat(networkChanges[0]).as("answered from the hold").isZero();
        clock.advanceMillis(1_000);
        assertThat(GateFixture.evaluate(held, tight, spread("2001:db8:1"), null).outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(networkChanges[0]).as("written again once the hold is over").isEqualTo(1);
        assertThat(GateFixture.evaluate(held, tight, spread("2001:db8:2"), null).outcome()).as("another /48").isEqualTo(Outcome.ALLOW);

        assertThat(held.clear(GateFixture.REALM, "2001:db8:1:77::1", null, 64, 48))
                .contains(SubjectState.Part.ADDRESS, SubjectState.Part.NETWORK);
        assertThat(GateFixture.evaluate(held, tight, spread("2001:db8:1"), null).outcome()).as("cleared: the hold is forgotten too")
                .isEqualTo(Outcome.ALLOW);
    }

    @Test
    void operators_see_and_clear_the_network_count() {
        GateOptions tight = TestOptions.from(o).ipv6Network(48, 3).captchaEnabled(false).build();
        for (int i = 0; i < 4; i++) {
            evaluate(tight, spread("2001:db8:1"), false);
        }
        SubjectState st = f.gate.state(GateFixture.REALM, "2001:db8:1:abcd::1", null, 64, 48);
        assertThat(st.network().attempts()).isEqualTo(4);
        assertThat(st.network().attemptsRemainingMillis()).isEqualTo(300_000);
        assertThat(st.address().attempts()).as("that /64 was never used").isZero();
        assertThat(GateFixture.state(f.gate, GateFixture.REALM, "2001:db8:1:abcd::1", null, 64).network()).as("not asked").isNull();

        assertThat(f.gate.clear(GateFixture.REALM, "2001:db8:1:abcd::1", null, 64, 48)).contains(SubjectState.Part.NETWORK);
        assertThat(networkCount(tight, "2001:db8:1::1")).isZero();
        assertThat(evaluate(tight, spread("2001:db8:1"), false).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void the_network_band_and_threshold_hold_for_each_48_alike() {
        List<Outcome> expected = List.of(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW,
                Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED,
                Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.CAPTCHA_REQUIRED, Outcome.ALLOW, Outcome.BLOCKED);
        assertThat(probe(o, "2001:db8:10")).isEqualTo(expected);
        assertThat(probe(o, "2001:db8:11")).isEqualTo(expected);
    }
}
