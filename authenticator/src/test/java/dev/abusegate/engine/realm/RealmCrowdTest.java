package dev.abusegate.engine.realm;

import dev.abusegate.engine.config.RealmSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.MutableClock;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The realm layer needs a crowd: it enters, and stays on, only while the window's checked failures come from at least
 * {@code realm.minNetworks} networks (an IPv4 /24, an IPv6 /48), and it never counts an attempt it (or any other layer)
 * turned away. On the engine with the reference store and tallies, and a clock moved by hand. The senders here solve
 * every captcha (ALTCHA is solved by machines) and the per-subject layers are set far above their floods, so that every
 * attempt reaches the password check: the strongest sender the realm layer has to withstand on its own.
 */
class RealmCrowdTest {

    private static final String REALM = "realm-a";
    private static final String OTHER = "realm-b";

    private final MutableClock clock = new MutableClock();
    private final LocalRealmTallies tallies = new LocalRealmTallies();
    private final RealmWatch watch = new RealmWatch(tallies, clock, null);
    private final AbuseGate gate = new AbuseGate(new ReferenceCounterStore(clock), clock, GateFixture.SECRETS, 0, watch);
    private int names;

    /** The layer on (threshold 20 failures a minute, 10 networks), every per-subject layer far above the floods below. */
    private static TestOptions on() {
        return TestOptions.builder()
                .set(RealmSettings.ENABLED, true)
                .set(RealmSettings.THRESHOLD, 20)
                .set(RealmSettings.WINDOW_SECONDS, 60L)
                .set(RealmSettings.BASELINE_MULTIPLE, 0.0)
                .layer(Layer.PER_IP, 1_000_000, 60)
                .layer(Layer.PER_IP_ACCOUNT, 1_000_000, 60)
                .layer(Layer.CREDENTIAL_STUFFING, 1_000_000, 60)
                .ipv6Network(48, 1_000_000);
    }

    /** One attempt for a new name from {@code address}; when let through, its password was checked and was wrong. */
    private Decision fail(GateOptions o, String realm, String address, boolean solved) {
        Decision d = GateFixture.evaluate(gate, o, new Attempt(realm, address, "name" + names++, null), solved ? () -> true : null);
        if (d.allowed()) {
            gate.passwordFailed(d, 0L, List.of());
        }
        return d;
    }

    private Decision fail(GateOptions o, String address) {
        return fail(o, REALM, address, true);
    }

    private void tick() {
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        watch.tick();
    }

    /** {@code perSecond} failures a second for {@code seconds}, from {@code address(i)}; false if the realm ever entered. */
    private boolean neverEnters(GateOptions o, int seconds, int perSecond, java.util.function.IntFunction<String> address) {
        int i = 0;
        for (int s = 0; s < seconds; s++) {
            for (int k = 0; k < perSecond; k++) {
                assertTrue(fail(o, address.apply(i++)).allowed(), "every failure reaches the password check");
            }
            tick();
            if (watch.underAttack(REALM)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void one_address_flooding_failures_never_enters() {
        GateOptions o = on().build();
        assertTrue(neverEnters(o, 180, 10, i -> "203.0.113.7"), "1800 failures from one address");
        RealmWatch.State st = watch.state(REALM);
        assertTrue(st.count() >= 500, "its failures are counted: " + st.count());
        assertEquals(1, st.networks());
    }

    @Test
    void one_ipv4_slash_24_flooding_from_every_address_in_it_never_enters() {
        GateOptions o = on().build();
        assertTrue(neverEnters(o, 120, 10, i -> "198.51.100." + (i % 256)), "1200 failures from 256 addresses of one /24");
        assertEquals(1, watch.state(REALM).networks());
    }

    @Test
    void one_ipv6_slash_48_flooding_from_fresh_slash_64s_never_enters() {
        GateOptions o = on().build();
        assertTrue(neverEnters(o, 120, 10, i -> "2001:db8:7:" + Integer.toHexString(i) + "::1"),
                "1200 failures from 1200 /64s of one /48");
        assertEquals(1, watch.state(REALM).networks());
    }

    @Test
    void nine_networks_do_not_enter_and_ten_do() {
        GateOptions o = on().build();
        for (int n = 0; n < 9; n++) {
            for (int i = 0; i < 20; i++) {
                fail(o, "192.0." + n + "." + i);
            }
        }
        tick();
        assertFalse(watch.underAttack(REALM), "180 failures, 9 times the level, from 9 networks");
        assertEquals(9, watch.state(REALM).networks());
        fail(o, "192.0.9.1"); // a tenth /24
        tick();
        assertTrue(watch.underAttack(REALM));
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        Decision d = fail(o, REALM, "192.0.2.200", false);
        assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome());
        assertTrue(d.realmUnderAttack());
    }

    @Test
    void ten_ipv6_slash_48s_are_ten_networks() {
        GateOptions o = on().build();
        for (int n = 0; n < 10; n++) {
            for (int i = 0; i < 2; i++) {
                fail(o, "2001:db8:" + Integer.toHexString(0x100 + n) + ":" + i + "::1");
            }
        }
        tick();
        assertEquals(10, watch.state(REALM).networks());
        assertTrue(watch.underAttack(REALM));
    }

    @Test
    void the_crowd_it_needs_is_its_setting() {
        GateOptions o = on().set(RealmSettings.MIN_NETWORKS, 30).build();
        for (int n = 0; n < 29; n++) {
            fail(o, "10." + n + ".0.1");
        }
        tick();
        assertFalse(watch.underAttack(REALM), "29 of 30 networks");
        assertEquals(29, watch.state(REALM).networks());
        fail(o, "10.29.0.1");
        tick();
        assertTrue(watch.underAttack(REALM));
    }

    /** Enters on 20 failures from 20 networks; returns when. */
    private long enterWithACrowd(GateOptions o) {
        for (int n = 0; n < 20; n++) {
            fail(o, "172.16." + n + ".1");
        }
        tick();
        assertTrue(watch.underAttack(REALM));
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        return clock.millis();
    }

    @Test
    void after_entry_one_address_sending_failed_attempts_cannot_hold_it_past_the_window() {
        GateOptions o = on().build();
        long entered = enterWithACrowd(o);
        // the crowd stops; one address goes on, its captchas solved, at 5 wrong passwords a second: 300 a window, 15
        // times the entry level
        long leftAt = -1;
        for (int s = 0; s < 300; s++) {
            for (int k = 0; k < 5; k++) {
                assertTrue(fail(o, "203.0.113.50").allowed());
            }
            tick();
            if (leftAt < 0 && !watch.underAttack(REALM)) {
                leftAt = clock.millis();
            }
            if (leftAt >= 0) {
                assertFalse(watch.underAttack(REALM), "one address never enters it again, at " + s + " s");
            }
        }
        assertTrue(leftAt >= 0, "it left");
        assertTrue(leftAt - entered <= 70_000, "within one window plus one bucket of the crowd's last failure: "
                + (leftAt - entered) + " ms");
        assertEquals(RealmWatch.Change.LEFT, watch.takeChange(REALM));
    }

    @Test
    void after_entry_one_address_sending_refused_attempts_cannot_hold_it_past_the_window() {
        GateOptions o = on().build();
        long entered = enterWithACrowd(o);
        long count = watch.state(REALM).count();
        // one address, no captcha solved: 0.5 attempts a second (the finding's hold), and then 20 a second
        long leftAt = -1;
        for (int s = 0; s < 200; s++) {
            for (int k = 0; k < (s < 100 ? (s % 2) : 20); k++) {
                Decision d = fail(o, REALM, "203.0.113.51", false);
                if (watch.underAttack(REALM)) {
                    assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome());
                }
            }
            tick();
            if (leftAt < 0 && !watch.underAttack(REALM)) {
                leftAt = clock.millis();
                assertTrue(watch.state(REALM).count() <= count, "no refused attempt was counted");
            }
        }
        assertTrue(leftAt >= 0 && leftAt - entered <= 70_000, "left within one window plus one bucket");
    }

    @Test
    void turned_away_attempts_never_count_however_many_networks_send_them() {
        GateOptions o = on().build();
        enterWithACrowd(o);
        long count = watch.state(REALM).count();
        // a thousand networks, none solving the captcha: all turned away by the realm layer
        for (int i = 0; i < 1000; i++) {
            assertTrue(fail(o, REALM, "10." + (i >> 8) + "." + (i & 255) + ".9", false).realmUnderAttack());
        }
        tick();
        assertEquals(count, watch.state(REALM).count(), "not one of them counted");
    }

    @Test
    void attempts_the_per_subject_layers_turn_away_never_count_even_if_settled_as_failed() {
        // per address: 2 attempts a minute, then blocked; no captcha band
        GateOptions o = on().layer(Layer.PER_IP, 2, 60).captchaEnabled(false).build();
        int counted = 0;
        for (int n = 0; n < 30; n++) {
            for (int i = 0; i < 5; i++) {
                Attempt a = new Attempt(REALM, "10.1." + n + ".1", "name" + names++, null);
                Decision d = GateFixture.evaluate(gate, o, a, () -> true);
                if (d.allowed()) {
                    counted++;
                } else {
                    assertEquals(Outcome.BLOCKED, d.outcome());
                }
                gate.passwordFailed(d, 0L, List.of()); // an adapter that settled a refusal as a failure counts nothing
            }
        }
        tick();
        assertEquals(60, counted, "2 of 5 from each of 30 addresses reached the check");
        assertEquals(counted, watch.state(REALM).count(), "only the checked failures");
    }

    @Test
    void a_crowd_in_one_realm_changes_nothing_in_another() {
        GateOptions o = on().build();
        for (int n = 0; n < 500; n++) {
            fail(o, "10.2." + (n >> 8) + "." + (n & 255));
            fail(o, REALM, "10.3." + n % 256 + ".1", true);
        }
        tick();
        assertTrue(watch.underAttack(REALM));
        assertFalse(watch.underAttack(OTHER));
        RealmWatch.State other = watch.state(OTHER);
        assertEquals(0, other.count());
        assertEquals(0, other.networks());
        Decision d = fail(o, OTHER, "10.4.0.1", false);
        assertTrue(d.allowed(), "another realm answers as on a fresh server");
        tick();
        assertFalse(watch.underAttack(OTHER));
        assertEquals(1, watch.state(OTHER).count());
        assertEquals(1, watch.state(OTHER).networks());
    }

    @Test
    void a_realm_keeps_at_most_its_min_networks_networks_whatever_is_sent() {
        List<long[]> published = new ArrayList<>();
        RealmWatch w = new RealmWatch(new RealmTallies() {
            @Override
            public void publish(String realm, long[] tally) {
                published.add(tally.clone());
            }

            @Override
            public Collection<long[]> others(String realm) {
                return List.of();
            }
        }, clock, null);
        GateOptions o = on().build();
        w.underAttack(REALM, o);
        for (int i = 0; i < 100_000; i++) {
            w.failed(REALM, i, 10);
        }
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        w.tick();
        long[] tally = published.get(published.size() - 1);
        assertEquals(RealmWatch.FORMAT, tally[0]);
        int networkPairs = (tally.length - 2 - 2 * (int) tally[1]) / 2;
        assertEquals(10, networkPairs, "the 10 most recent networks of 100000");
        assertEquals(10, w.state(REALM).networks());
        assertTrue(w.underAttack(REALM));
    }

    @Test
    void nodes_count_the_networks_of_the_cluster_once_each() {
        RealmWatch b = new RealmWatch(tallies.node("b"), clock, null);
        AbuseGate gateB = new AbuseGate(new ReferenceCounterStore(clock), clock, GateFixture.SECRETS, 0, b);
        GateOptions o = on().build();
        // the same 5 networks on both nodes: 5, not 10
        for (int n = 0; n < 5; n++) {
            for (int i = 0; i < 3; i++) {
                fail(o, "10.5." + n + "." + i);
                Attempt a = new Attempt(REALM, "10.5." + n + "." + (100 + i), "b" + names++, null);
                Decision d = GateFixture.evaluate(gateB, o, a, () -> true);
                gateB.passwordFailed(d, 0L, List.of());
            }
        }
        tick();
        b.tick();
        watch.tick();
        assertEquals(5, watch.state(REALM).networks());
        assertEquals(5, b.state(REALM).networks());
        assertFalse(watch.underAttack(REALM), "30 failures from 5 networks over two nodes");
        assertFalse(b.underAttack(REALM));
        // 5 more on node b only: both nodes see 10
        for (int n = 5; n < 10; n++) {
            Decision d = GateFixture.evaluate(gateB, o, new Attempt(REALM, "10.5." + n + ".1", "b" + names++, null), () -> true);
            gateB.passwordFailed(d, 0L, List.of());
        }
        b.tick();
        watch.tick();
        assertTrue(b.underAttack(REALM));
        assertTrue(watch.underAttack(REALM), "node a enters on node b's networks");
        assertEquals(10, watch.state(REALM).networks());
    }
}
