package dev.abusegate.engine.realm;

import dev.abusegate.engine.config.RealmSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.MutableClock;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The fifth, realm-wide layer on the engine, with the reference tallies and a clock moved by hand: a distributed
 * spray (one attempt per address, each from a /24 of its own, far below every per-address threshold) switches the
 * realm into the band. The crowd it needs (realm.minNetworks) has its own tests in {@link RealmCrowdTest}.
 */
class RealmUnderAttackTest {

    private static final String REALM = "realm-a";
    private static final String OTHER = "realm-b";

    private final MutableClock clock = new MutableClock();
    private final LocalRealmTallies tallies = new LocalRealmTallies();
    private final RealmWatch watch = new RealmWatch(tallies, clock, null);
    private final AbuseGate gate = new AbuseGate(new ReferenceCounterStore(clock), clock, GateFixture.SECRETS, 0, watch);
    private int sprayed;

    private static TestOptions on(int threshold) {
        return TestOptions.builder()
                .set(RealmSettings.ENABLED, true)
                .set(RealmSettings.THRESHOLD, threshold)
                .set(RealmSettings.WINDOW_SECONDS, 60L)
                .set(RealmSettings.BASELINE_MULTIPLE, 0.0);
    }

    private Decision attempt(GateOptions o, String realm, String address, String user, String device, boolean solved) {
        return GateFixture.evaluate(gate, o, new Attempt(realm, address, user, device), solved ? () -> true : null);
    }

    /**
     * {@code n} wrong passwords, each from a new address in a /24 of its own for a new username, by a sender that solves
     * the realm's captcha (so that its failures are checked, and counted, while the realm is under attack).
     */
    private void spray(GateOptions o, String realm, int n) {
        spray(o, realm, n, true);
    }

    /** As above, by a sender that solves no captcha: turned away while the realm is under attack. */
    private void spray(GateOptions o, String realm, int n, boolean solved) {
        for (int i = 0; i < n; i++) {
            int k = sprayed++;
            Decision d = attempt(o, realm, "10." + (k >> 8 & 255) + "." + (k & 255) + ".1", "user" + k, null, solved);
            if (d.allowed()) {
                gate.passwordFailed(d, 0L, List.of());
            }
        }
    }

    private void tick() {
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        watch.tick();
    }

    @Test
    void enters_at_the_threshold_and_then_asks_every_attempt_for_a_captcha_without_blocking() {
        GateOptions o = on(50).build();
        spray(o, REALM, 49);
        tick();
        assertTrue(attempt(o, REALM, "192.0.2.1", "alice", null, false).allowed(), "below the threshold");
        assertFalse(watch.underAttack(REALM));

        spray(o, REALM, 1);
        tick();
        assertTrue(watch.underAttack(REALM));
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        assertNull(watch.takeChange(REALM), "a change is reported once");

        Decision d = attempt(o, REALM, "192.0.2.2", "bob", null, false);
        assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome());
        assertTrue(d.realmUnderAttack());
        assertNull(d.layer(), "no per-subject layer decided");
        // never a hard block: a thousand unsolved attempts from one address stay captcha_required
        for (int i = 0; i < 1000; i++) {
            assertEquals(Outcome.CAPTCHA_REQUIRED, attempt(o, REALM, "192.0.2.3", "carol", null, false).outcome());
        }
    }

    @Test
    void a_solved_captcha_passes_and_the_per_subject_layers_still_run() {
        GateOptions o = on(20).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        assertTrue(attempt(o, REALM, "192.0.2.9", "dave", null, true).allowed());
        // layer 3 still locks an account, captcha or not
        GateOptions lock = on(20).layer(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        for (int i = 0; i < 3; i++) {
            Decision d = attempt(lock, REALM, "198.51.100." + i, "erin", null, true);
            assertTrue(d.allowed());
            gate.passwordFailed(d, 0L, List.of());
        }
        Decision blocked = attempt(lock, REALM, "198.51.100.99", "erin", null, true);
        assertEquals(Outcome.BLOCKED, blocked.outcome());
        assertEquals(Layer.ACCOUNT_LOCKOUT, blocked.layer());
        assertFalse(blocked.realmUnderAttack());
    }

    @Test
    void a_realm_captcha_is_verified_only_once_and_counts_nothing_on_the_per_subject_layers() {
        GateOptions o = on(20).layer(Layer.PER_IP, 3, 300).build();
        spray(o, REALM, 20);
        tick();
        AtomicInteger checks = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            Decision d = GateFixture.evaluate(gate, o, new Attempt(REALM, "203.0.113.5", "frank", null), () -> {
                checks.incrementAndGet();
                return false;
            });
            assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome());
        }
        assertEquals(10, checks.get(), "one check per attempt");
        // nothing was counted on layer 1: the address's threshold of 3 is still unspent
        for (int i = 0; i < 3; i++) {
            assertTrue(attempt(o, REALM, "203.0.113.5", "frank", null, true).allowed(), "attempt " + i);
        }
    }

    @Test
    void a_device_cookie_holder_and_an_allowlisted_address_pass_without_a_captcha() {
        GateOptions o = on(20).deviceCookie(true, 5, 90).allowlist(Allowlist.parse("203.0.113.0/24")).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        assertTrue(attempt(o, REALM, "192.0.2.50", "grace", "device-1", false).allowed(), "device cookie");
        assertTrue(attempt(o, REALM, "203.0.113.7", "heidi", null, false).allowed(), "allowlisted");
        assertEquals(Outcome.CAPTCHA_REQUIRED, attempt(o, REALM, "192.0.2.51", "grace", null, false).outcome());
    }

    @Test
    void a_device_while_device_cookies_are_off_is_asked_for_a_captcha_like_any_attempt() {
        GateOptions o = on(20).deviceCookie(false, 5, 90).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        Decision d = attempt(o, REALM, "192.0.2.52", "grace", "device-1", false);
        assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome(), "a device counts only while device cookies are on");
        assertTrue(d.realmUnderAttack());
        assertTrue(attempt(o, REALM, "192.0.2.52", "grace", "device-1", true).allowed(), "with a solved captcha");
    }

    @Test
    void a_step_that_does_not_apply_the_realm_layer_passes_while_the_realm_is_under_attack() {
        GateOptions o = on(20).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        // the identity-first username step: its password step applies the layer
        assertTrue(gate.evaluate(o, new Attempt(REALM, "192.0.2.90", "kim", null), null, false).allowed());
        assertEquals(Outcome.CAPTCHA_REQUIRED, gate.evaluate(o, new Attempt(REALM, "192.0.2.90", "kim", null), null, true).outcome());
    }

    @Test
    void another_realm_is_unaffected() {
        GateOptions o = on(20).build();
        spray(o, REALM, 25);
        assertTrue(attempt(o, OTHER, "192.0.2.60", "ivan", null, false).allowed());
        tick();
        assertTrue(watch.underAttack(REALM));
        assertFalse(watch.underAttack(OTHER));
        assertTrue(attempt(o, OTHER, "192.0.2.61", "ivan", null, false).allowed());
    }

    @Test
    void leaves_by_itself_once_the_rate_falls_and_stays_on_while_the_attack_goes_on() {
        GateOptions o = on(20).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        watch.takeChange(REALM);
        // the attack goes on, its captchas solved and its passwords checked (and wrong), from a crowd: still on after
        // two windows
        for (int s = 0; s < 120; s++) {
            spray(o, REALM, 1);
            tick();
        }
        assertTrue(watch.underAttack(REALM), "the checked failures keep it on");
        // the attack stops: it leaves within one window plus one bucket
        for (int s = 0; s < 70 && watch.underAttack(REALM); s++) {
            tick();
        }
        assertFalse(watch.underAttack(REALM));
        assertEquals(RealmWatch.Change.LEFT, watch.takeChange(REALM));
        assertTrue(attempt(o, REALM, "192.0.2.70", "judy", null, false).allowed());
    }

    @Test
    void an_attack_turned_away_for_want_of_a_captcha_does_not_hold_the_realm() {
        GateOptions o = on(20).build();
        spray(o, REALM, 20);
        tick();
        assertTrue(watch.underAttack(REALM));
        long entered = watch.state(REALM).count();
        // the same crowd goes on without solving the captcha: every attempt turned away, none of them counted
        boolean left = false;
        for (int s = 0; s < 70 && !left; s++) {
            spray(o, REALM, 3, false);
            tick();
            left = !watch.underAttack(REALM);
        }
        assertTrue(left, "it leaves within one window plus one bucket: a turned-away attempt holds nothing");
        assertTrue(watch.state(REALM).count() <= entered, "the turned-away attempts were not counted");
    }

    @Test
    void it_stays_on_a_whole_window_after_entering_though_its_entry_bucket_leaves_the_window_sooner() {
        GateOptions o = on(20).build();
        // the entry's failures at the end of a 10 s bucket: that bucket leaves the 60 s window 50 s later
        clock.advanceMillis(RealmWatch.BUCKET_MILLIS - Math.floorMod(clock.millis(), RealmWatch.BUCKET_MILLIS) - 100);
        spray(o, REALM, 20);
        assertTrue(watch.underAttack(REALM));
        for (int s = 1; s <= 58; s++) {
            tick();
            assertTrue(watch.underAttack(REALM), "still on " + s + " s after entering (count " + watch.state(REALM).count() + ")");
        }
        assertEquals(0, watch.state(REALM).count(), "the entry's bucket has left the window");
        for (int s = 0; s < 5 && watch.underAttack(REALM); s++) {
            tick();
        }
        assertFalse(watch.underAttack(REALM), "left once a whole window has passed");
    }

    @Test
    void hysteresis_keeps_it_on_above_half_the_entry_level() {
        GateOptions o = on(40).build();
        spray(o, REALM, 40);
        tick();
        assertTrue(watch.underAttack(REALM));
        clock.advanceSeconds(60); // the window empties
        spray(o, REALM, 20);      // half the entry level, captchas solved and passwords wrong
        tick();
        assertTrue(watch.underAttack(REALM), "20 of 40: not below half");
        clock.advanceSeconds(60);
        spray(o, REALM, 19);
        tick();
        assertFalse(watch.underAttack(REALM), "19 of 40: below half");
    }

    @Test
    void with_a_baseline_multiple_a_busy_realm_needs_that_multiple_of_its_own_baseline() {
        GateOptions o = on(40).set(RealmSettings.BASELINE_MULTIPLE, 3.0).build();
        // three hours of a steady 30 failures a minute (half a failure a second): the baseline learns about 26 (the
        // window's count is 25 to 30, learned with a time constant of an hour: 95% of it after three)
        for (int s = 0; s < 10_800; s++) {
            if (s % 2 == 0) {
                spray(o, REALM, 1);
            }
            tick();
        }
        assertFalse(watch.underAttack(REALM), "the realm's normal rate is not an attack");
        RealmWatch.State st = watch.state(REALM);
        assertTrue(st.baseline() > 24 && st.baseline() < 30, "baseline " + st.baseline());
        assertTrue(st.entryLevel() > 72 && st.entryLevel() <= 90, "entry level " + st.entryLevel());
        spray(o, REALM, 40); // 70 in the window: above the threshold of 40, below 3x the baseline
        tick();
        assertFalse(watch.underAttack(REALM));
        spray(o, REALM, 60);
        tick();
        assertTrue(watch.underAttack(REALM), "past 3x the baseline");
    }

    @Test
    void on_by_default_and_off_when_disabled() {
        assertTrue(GateOptions.defaults().get(RealmSettings.ENABLED));
        GateOptions defaults = TestOptions.builder().set(RealmSettings.ENABLED, false).build();
        spray(defaults, REALM, 500);
        tick();
        assertFalse(watch.underAttack(REALM));
        assertTrue(attempt(defaults, REALM, "192.0.2.80", "mallory", null, false).allowed());
    }

    @Test
    void nodes_sum_their_tallies_and_a_failing_tally_fails_open() {
        GateOptions o = on(30).build();
        RealmWatch b = new RealmWatch(tallies.node("b"), clock, null);
        AbuseGate gateB = new AbuseGate(new ReferenceCounterStore(clock), clock, GateFixture.SECRETS, 0, b);
        spray(o, REALM, 20); // on node a
        for (int i = 0; i < 10; i++) {
            Decision d = GateFixture.evaluate(gateB, o, new Attempt(REALM, "172.16.0." + i, "b" + i, null), null);
            gateB.passwordFailed(d, 0L, List.of());
        }
        tick();      // a publishes 20, reads nothing yet from b
        b.tick();    // b publishes 10, reads a's 20: 30
        watch.tick(); // a reads b's 10
        assertTrue(b.underAttack(REALM));
        assertTrue(watch.underAttack(REALM));

        RealmWatch broken = new RealmWatch(new RealmTallies() {
            @Override
            public void publish(String realm, long[] tally) {
                throw new IllegalStateException("down");
            }

            @Override
            public java.util.Collection<long[]> others(String realm) {
                throw new IllegalStateException("down");
            }
        }, clock, e -> { });
        assertFalse(broken.underAttack(REALM, o));
        broken.tick(); // never throws
        assertFalse(broken.underAttack(REALM, o));
    }

    /** Enters (on a spray of {@code threshold}), then leaves once the window has emptied, with no attempt between. */
    private void enterAndLeave(GateOptions o, int threshold) {
        spray(o, REALM, threshold);
        tick();
        assertTrue(watch.underAttack(REALM));
        clock.advanceSeconds(70); // one window plus one bucket: the window is empty
        tick();
        assertFalse(watch.underAttack(REALM));
    }

    @Test
    void a_realm_that_enters_and_leaves_between_two_attempts_reports_both_changes_once_in_order() {
        GateOptions o = on(20).build();
        enterAndLeave(o, 20);
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM), "the entering is not lost");
        assertEquals(RealmWatch.Change.LEFT, watch.takeChange(REALM));
        assertNull(watch.takeChange(REALM), "each change is reported once");
        // and again: the next changes follow on
        spray(o, REALM, 20);
        tick();
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        assertNull(watch.takeChange(REALM));
        clock.advanceSeconds(70);
        tick();
        assertEquals(RealmWatch.Change.LEFT, watch.takeChange(REALM));
        assertNull(watch.takeChange(REALM));
        assertNull(watch.takeChange(OTHER), "a realm never seen has no change");
    }

    @Test
    void changes_nobody_takes_are_held_up_to_a_bound_and_then_only_the_last_ones_are_reported() {
        GateOptions o = on(20).build();
        int cycles = 20; // 40 changes, none taken
        for (int c = 0; c < cycles; c++) {
            enterAndLeave(o, 20);
        }
        java.util.List<RealmWatch.Change> taken = new java.util.ArrayList<>();
        for (RealmWatch.Change ch; (ch = watch.takeChange(REALM)) != null; ) {
            taken.add(ch);
            assertTrue(taken.size() <= 2 * cycles, "the taker ends");
        }
        assertEquals(RealmWatch.MAX_PENDING_CHANGES, taken.size(), "the last " + RealmWatch.MAX_PENDING_CHANGES + " changes, not 40");
        for (int k = 0; k < taken.size(); k++) {
            assertEquals(k % 2 == 0 ? RealmWatch.Change.ENTERED : RealmWatch.Change.LEFT, taken.get(k), "in order, at " + k);
        }
        // past the bound nothing is stuck: the next change is reported at once
        spray(o, REALM, 20);
        tick();
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        assertNull(watch.takeChange(REALM));
    }

    @Test
    void a_tick_before_the_realm_s_first_decision_keeps_its_count() {
        // a tick that finds a realm with no decided attempt yet (its first attempt is being decided, or the realm was
        // only counted) clears nothing: before, it cleared the buckets, and a count made between its read of the
        // realm's options and the clear was lost (the disabled RealmUnderAttackConcurrencyTest's missing count)
        GateOptions o = on(5).set(RealmSettings.MIN_NETWORKS, 5).build();
        for (int i = 0; i < 5; i++) {
            watch.failed(REALM, i, 5);
        }
        tick();
        assertFalse(watch.underAttack(REALM));
        assertFalse(watch.underAttack(REALM, o), "the first decision: the options are known from now on");
        tick();
        assertEquals(5, watch.state(REALM).count(), "the counts before the first decision are kept");
        assertTrue(watch.underAttack(REALM));
    }

    @Test
    void the_failure_that_reaches_the_level_on_this_node_enters_and_records_the_change_at_once() {
        GateOptions o = on(30).build();
        spray(o, REALM, 10);
        tick(); // the tick leaves 20 of headroom
        spray(o, REALM, 19);
        assertFalse(watch.underAttack(REALM), "one short of the level");
        assertEquals(29, watch.state(REALM).count(), "the tick's count and this node's failures since");
        assertTrue(attempt(o, REALM, "192.0.2.80", "kim", null, false).allowed());

        spray(o, REALM, 1); // the 30th failure, no tick in between
        assertTrue(watch.underAttack(REALM), "under attack with the failure that reached the level");
        Decision d = attempt(o, REALM, "192.0.2.81", "lee", null, false);
        assertEquals(Outcome.CAPTCHA_REQUIRED, d.outcome());
        assertTrue(d.realmUnderAttack());
        assertEquals(30, watch.state(REALM).entryLevel());
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM), "recorded with the failure, for the next attempt's event");
        assertNull(watch.takeChange(REALM), "entered once");

        tick();
        assertTrue(watch.state(REALM).underAttack());
        assertEquals(30, watch.state(REALM).entryLevel());
        assertNull(watch.takeChange(REALM), "the tick does not enter it again");
    }

    @Test
    void before_any_tick_this_node_s_own_count_and_networks_enter_at_the_level() {
        GateOptions o = on(10).set(RealmSettings.MIN_NETWORKS, 5).build();
        spray(o, REALM, 9);
        assertFalse(watch.underAttack(REALM), "one short of the level, no tick yet");
        spray(o, REALM, 1);
        assertTrue(watch.underAttack(REALM), "the 10th failure, from 10 networks, enters without a tick");
        assertEquals(RealmWatch.Change.ENTERED, watch.takeChange(REALM));
        assertEquals(10, watch.state(REALM).entryLevel());
        tick();
        assertNull(watch.takeChange(REALM), "the tick does not enter it again");
    }

    @Test
    void before_any_tick_one_network_enters_nothing_however_many_its_failures() {
        GateOptions o = on(10).set(RealmSettings.MIN_NETWORKS, 5).build();
        assertTrue(attempt(o, REALM, "192.0.2.95", "pat", null, false).allowed());
        for (int i = 0; i < 30; i++) {
            Decision d = attempt(o, REALM, "192.0.2." + (100 + i % 50), "user-one-net-" + i, null, true);
            if (d.allowed()) {
                gate.passwordFailed(d, 0L, List.of());
            }
        }
        assertFalse(watch.underAttack(REALM), "30 failures from one /24");
    }

    @Test
    void leaving_gives_the_headroom_back_only_at_the_next_tick() {
        GateOptions o = on(10).set(RealmSettings.MIN_NETWORKS, 5).build();
        assertTrue(attempt(o, REALM, "192.0.2.90", "max", null, false).allowed()); // the options are known, no tick yet
        spray(o, REALM, 15);
        tick();
        assertTrue(watch.underAttack(REALM));
        watch.takeChange(REALM);

        // quiet until it leaves; the tick after that gives the headroom again
        for (int s = 0; s < 80 && watch.underAttack(REALM); s++) {
            tick();
        }
        assertFalse(watch.underAttack(REALM));
        assertEquals(RealmWatch.Change.LEFT, watch.takeChange(REALM));
        tick();
        spray(o, REALM, 9);
        assertFalse(watch.underAttack(REALM), "no headroom: the last tick found no crowd");
        tick(); // finds the crowd (9 networks of the 5 needed) and leaves a headroom of 1
        spray(o, REALM, 1);
        assertTrue(watch.underAttack(REALM), "the 10th failure of the new window enters at once again");
    }

    @Test
    void with_the_layer_off_no_count_enters_early() {
        GateOptions off = TestOptions.builder().set(RealmSettings.ENABLED, false).set(RealmSettings.THRESHOLD, 5).build();
        spray(off, REALM, 1);
        tick();
        spray(off, REALM, 20);
        assertFalse(watch.underAttack(REALM));
        assertTrue(attempt(off, REALM, "192.0.2.91", "ned", null, false).allowed());
    }

    @Test
    void a_tick_whose_count_predates_an_entry_made_meanwhile_decides_nothing_on_it() {
        // the tick reads the other nodes' tallies after its own snapshot: the failures that enter the realm come then
        java.util.concurrent.atomic.AtomicReference<Runnable> duringRead = new java.util.concurrent.atomic.AtomicReference<>();
        RealmTallies shared = new RealmTallies() {
            @Override
            public void publish(String realm, long[] tally) {
                tallies.publish(realm, tally);
            }

            @Override
            public java.util.Collection<long[]> others(String realm) {
                Runnable r = duringRead.getAndSet(null);
                if (r != null) {
                    r.run();
                }
                return tallies.others(realm);
            }
        };
        RealmWatch w = new RealmWatch(shared, clock, null);
        GateOptions o = on(100).build();
        w.underAttack(REALM, o);
        for (int i = 0; i < 10; i++) {
            w.failed(REALM, i, 10);
        }
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        w.tick(); // headroom 90
        duringRead.set(() -> {
            for (int i = 0; i < 90; i++) {
                w.failed(REALM, i, 10);
            }
        });
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        w.tick(); // its snapshot holds 10, below half the level; the 90 enter the realm before it decides
        assertTrue(w.underAttack(REALM), "not left on a count from before the entry");
        assertEquals(RealmWatch.Change.ENTERED, w.takeChange(REALM));
        assertNull(w.takeChange(REALM), "no flap");
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        w.tick();
        assertTrue(w.underAttack(REALM), "the next tick counts 100");
        assertEquals(100, w.state(REALM).count());
    }
}
