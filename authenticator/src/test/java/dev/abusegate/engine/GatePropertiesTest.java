package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.AddressKeys;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Properties over random sequences, with a plain seeded generator: every failure names its seed, and
 * {@code -Dabusegate.seed=...} / {@code -Dabusegate.tries=...} replay or widen a run.
 *
 * <p>The oracles here do not reuse the engine's logic: they only know which test addresses and identifiers
 * are "the same" (groups written out by hand) and the contract's rules.
 */
class GatePropertiesTest {

    static final long BASE_SEED = Long.getLong("abusegate.seed", 0x5EED_2026L);
    static final int TRIES = Integer.getInteger("abusegate.tries", 300);

    // addresses and which counter they should share (by hand, not by AddressKeys)
    static final String[] ADDRS = {"198.51.100.1", "198.51.100.2", "2001:db8:5::1", "2001:db8:5::beef",
        "::ffff:198.51.100.1", "garbage-a", "garbage-b", "[2001:db8:5:0:1::9]"};
    static final int[] ADDR_GROUP = {0, 1, 2, 2, 0, 3, 4, 2};
    // identifiers and which account they normalize to
    static final String[] IDS = {"alice", "ALICE", " alice ", "ａｌｉｃｅ", "bob", "carol", "Carol", "dave", "erin", "frank"};
    static final int[] ID_GROUP = {0, 0, 0, 0, 1, 2, 2, 3, 4, 5};

    enum PasswordCheck { FAIL, SUCCESS, NOT_VERIFIED }

    record Step(long advanceMillis, int addr, int id, PasswordCheck check, boolean solved) {
        Attempt attempt() {
            return new Attempt(GateFixture.REALM, ADDRS[addr], IDS[id], null);
        }

        @Override
        public String toString() {
            return "+" + advanceMillis + "ms " + ADDRS[addr] + " " + IDS[id].trim() + " " + check + (solved ? " solved" : "");
        }
    }

    static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(48);
    }

    @AfterAll
    static void stopPool() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    static List<Step> steps(SplittableRandom r, long windowMillis, boolean withSuccess, double solvedShare) {
        int n = 1 + r.nextInt(120);
        List<Step> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int roll = r.nextInt(100);
            long advance = roll < 60 ? 0 : roll < 90 ? r.nextLong(windowMillis / 3 + 1) : r.nextLong(2 * windowMillis + 1);
            int v = r.nextInt(100);
            PasswordCheck check = v < 70 ? PasswordCheck.FAIL : v < 85 || !withSuccess ? PasswordCheck.NOT_VERIFIED : PasswordCheck.SUCCESS;
            out.add(new Step(advance, r.nextInt(ADDRS.length), r.nextInt(IDS.length), check, r.nextDouble() < solvedShare));
        }
        return out;
    }

    static void settle(AbuseGate gate, Decision d, PasswordCheck v) {
        switch (v) {
            case FAIL -> gate.passwordFailed(d, 0L, java.util.List.of());
            case SUCCESS -> gate.passwordSucceeded(d, java.util.List.of());
            case NOT_VERIFIED -> gate.notVerified(d);
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    void never_more_than_the_threshold_is_let_through_within_any_window() {
        for (int t = 0; t < TRIES; t++) {
            long seed = BASE_SEED + t;
            SplittableRandom r = new SplittableRandom(seed);
            long windowS = new long[] {5, 10, 60}[r.nextInt(3)];
            long w = windowS * 1000;
            int t1 = 1 + r.nextInt(8), t2 = 1 + r.nextInt(6), t3 = 1 + r.nextInt(6), t4 = 1 + r.nextInt(5);
            boolean captcha = r.nextBoolean();
            GateOptions o = TestOptions.builder().captchaEnabled(captcha).captchaFactor(new double[] {0.25, 0.5, 1.0}[r.nextInt(3)])
                    .layer(Layer.PER_IP, t1, windowS).layer(Layer.PER_IP_ACCOUNT, t2, windowS)
                    .layer(Layer.ACCOUNT_LOCKOUT, t3, windowS).lockoutSeconds(windowS + r.nextInt(3))
                    .layer(Layer.CREDENTIAL_STUFFING, t4, windowS).build();
            List<Step> steps = steps(r, w, false, 0.7);
            String ctx = "seed=" + seed + " " + o + " steps=" + steps;

            GateFixture f = new GateFixture();
            Map<Integer, List<Long>> l1 = new HashMap<>();
            Map<List<Integer>, List<Long>> l2 = new HashMap<>();
            Map<Integer, List<Long>> l3 = new HashMap<>();
            Map<Integer, List<long[]>> l4 = new HashMap<>(); // addr group -> (time, id group)
            for (Step s : steps) {
                f.clock.advanceMillis(s.advanceMillis());
                long now = f.clock.millis();
                Decision d = GateFixture.evaluate(f.gate, o, s.attempt(), s.solved() ? GateFixture.SOLVED : null);
                if (d.allowed()) {
                    int a = ADDR_GROUP[s.addr()], id = ID_GROUP[s.id()];
                    l1.computeIfAbsent(a, k -> new ArrayList<>()).add(now);
                    l2.computeIfAbsent(List.of(a, id), k -> new ArrayList<>()).add(now);
                    l4.computeIfAbsent(a, k -> new ArrayList<>()).add(new long[] {now, id});
                    if (s.check() == PasswordCheck.FAIL) {
                        l3.computeIfAbsent(id, k -> new ArrayList<>()).add(now);
                    }
                }
                settle(f.gate, d, s.check());
            }
            l1.forEach((k, times) -> assertThat(maxInAnyWindow(times, w)).as("layer 1, %s", ctx).isLessThanOrEqualTo(t1));
            l2.forEach((k, times) -> assertThat(maxInAnyWindow(times, w)).as("layer 2, %s", ctx).isLessThanOrEqualTo(t2));
            l3.forEach((k, times) -> assertThat(maxInAnyWindow(times, w)).as("layer 3, %s", ctx).isLessThanOrEqualTo(t3));
            l4.forEach((k, events) -> assertThat(maxDistinctInAnyWindow(events, w)).as("layer 4, %s", ctx).isLessThanOrEqualTo(t4));
        }
    }

    /** Most events inside any half-open interval [t, t + window) (times are in order). */
    static int maxInAnyWindow(List<Long> times, long window) {
        int best = 0;
        for (int i = 0; i < times.size(); i++) {
            int n = 0;
            for (int j = i; j < times.size() && times.get(j) < times.get(i) + window; j++) {
                n++;
            }
            best = Math.max(best, n);
        }
        return best;
    }

    static int maxDistinctInAnyWindow(List<long[]> events, long window) {
        int best = 0;
        for (int i = 0; i < events.size(); i++) {
            Set<Long> ids = new HashSet<>();
            for (int j = i; j < events.size() && events.get(j)[0] < events.get(i)[0] + window; j++) {
                ids.add(events.get(j)[1]);
            }
            best = Math.max(best, ids.size());
        }
        return best;
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    void random_interleavings_of_real_threads_let_exactly_the_threshold_through() throws Exception {
        int tries = Math.max(10, TRIES / 6);
        for (int t = 0; t < tries; t++) {
            long seed = BASE_SEED + 7919L * t;
            SplittableRandom r = new SplittableRandom(seed);
            Layer layer = Layer.values()[r.nextInt(4)];
            int threshold = 1 + r.nextInt(12);
            int threads = 2 + r.nextInt(47);
            int perThread = 1 + r.nextInt(4);
            GateOptions o = GateFixture.only(layer, threshold, 600).lockoutSeconds(600).build();
            // plan: each thread's attempts, from a few addresses with a few identifiers
            int[][] addr = new int[threads][perThread];
            int[][] id = new int[threads][perThread];
            for (int i = 0; i < threads; i++) {
                for (int k = 0; k < perThread; k++) {
                    addr[i][k] = r.nextInt(3);
                    id[i][k] = layer == Layer.CREDENTIAL_STUFFING ? r.nextInt(40) : r.nextInt(3);
                }
            }
            GateFixture f = new GateFixture();
            List<List<Decision>> results = ConcurrencyTest.race(pool, threads, i -> {
                List<Decision> mine = new ArrayList<>();
                for (int k = 0; k < perThread; k++) {
                    Decision d = f.evaluate(o, "203.0.113." + addr[i][k], "user" + id[i][k]);
                    if (d.allowed()) {
                        f.gate.passwordFailed(d, 0L, java.util.List.of());
                    }
                    mine.add(d);
                }
                return mine;
            });
            // expected per counter key: min(threshold, attempts (or distinct identifiers) planned for it)
            Map<String, Integer> planned = new HashMap<>();
            Map<String, Integer> allowed = new HashMap<>();
            Map<String, Set<Integer>> plannedIds = new HashMap<>();
            Map<String, Set<Integer>> allowedIds = new HashMap<>();
            for (int i = 0; i < threads; i++) {
                for (int k = 0; k < perThread; k++) {
                    String key = switch (layer) {
                        case PER_IP, CREDENTIAL_STUFFING -> "a" + addr[i][k];
                        case PER_IP_ACCOUNT -> "a" + addr[i][k] + "/u" + id[i][k];
                        case ACCOUNT_LOCKOUT -> "u" + id[i][k];
                        case PASSWORD_SPRAY -> throw new IllegalStateException("not drawn: it counts passwords");
                    };
                    planned.merge(key, 1, Integer::sum);
                    plannedIds.computeIfAbsent(key, x -> new TreeSet<>()).add(id[i][k]);
                    if (results.get(i).get(k).allowed()) {
                        allowed.merge(key, 1, Integer::sum);
                        allowedIds.computeIfAbsent(key, x -> new TreeSet<>()).add(id[i][k]);
                    }
                }
            }
            String ctx = "seed=" + seed + " layer=" + layer + " T=" + threshold + " threads=" + threads + " x" + perThread;
            for (String key : planned.keySet()) {
                if (layer == Layer.CREDENTIAL_STUFFING) {
                    assertThat(allowedIds.getOrDefault(key, Set.of()).size()).as("%s key %s", ctx, key)
                            .isEqualTo(Math.min(threshold, plannedIds.get(key).size()));
                } else {
                    assertThat(allowed.getOrDefault(key, 0)).as("%s key %s", ctx, key)
                            .isEqualTo(Math.min(threshold, planned.get(key)));
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    void captcha_mistakes_never_change_a_counter_and_never_escalate() {
        for (int t = 0; t < TRIES; t++) {
            long seed = BASE_SEED ^ (0x9E3779B97F4A7C15L * (t + 1));
            SplittableRandom r = new SplittableRandom(seed);
            long windowS = new long[] {10, 60}[r.nextInt(2)];
            GateOptions o = TestOptions.builder().captchaEnabled(true)
                    .captchaFactor(new double[] {0.25, 0.5, 0.75, 1.0}[r.nextInt(4)])
                    .layer(Layer.PER_IP, 2 + r.nextInt(10), windowS).layer(Layer.PER_IP_ACCOUNT, 2 + r.nextInt(6), windowS)
                    .layer(Layer.ACCOUNT_LOCKOUT, 2 + r.nextInt(6), windowS).lockoutSeconds(windowS)
                    .layer(Layer.CREDENTIAL_STUFFING, 2 + r.nextInt(6), windowS).build();
            // solved = a real attempt with a valid solution; unsolved = a missing or wrong solution (a "mistake")
            List<Step> steps = steps(r, windowS * 1000, true, 0.5);
            String ctx = "seed=" + seed + " " + o + " steps=" + steps;

            GateFixture b = new GateFixture();
            List<Decision> withMistakes = new ArrayList<>();
            boolean[] dropped = new boolean[steps.size()];
            for (int i = 0; i < steps.size(); i++) {
                Step s = steps.get(i);
                b.clock.advanceMillis(s.advanceMillis());
                List<Long> seen = counters(GateFixture.state(b.gate, GateFixture.REALM, ADDRS[s.addr()], IDS[s.id()], o.ipv6PrefixLength()));
                Decision d = GateFixture.evaluate(b.gate, o, s.attempt(), s.solved() ? GateFixture.SOLVED : null);
                if (d.outcome() == Outcome.CAPTCHA_REQUIRED) {
                    assertThat(s.solved()).as("a solved attempt is never challenged, %s", ctx).isFalse();
                    settle(b.gate, d, s.check()); // even a careless caller settling it
                    assertThat(counters(GateFixture.state(b.gate, GateFixture.REALM, ADDRS[s.addr()], IDS[s.id()], o.ipv6PrefixLength())))
                            .as("a challenged mistake changed a counter at step %d, %s", i, ctx).isEqualTo(seen);
                    dropped[i] = true;
                } else {
                    settle(b.gate, d, s.check());
                }
                if (d.outcome() == Outcome.BLOCKED && !s.solved()) {
                    // the same attempt with a valid solution, at the same moment, is blocked too
                    assertThat(probeSolved(o, steps, dropped, i)).as("mistake at step %d blocked, solved would not be, %s", i, ctx)
                            .isEqualTo(Outcome.BLOCKED);
                }
                withMistakes.add(d);
            }

            // the same sequence without the challenged mistakes: every remaining answer is identical
            GateFixture a = new GateFixture();
            for (int i = 0; i < steps.size(); i++) {
                Step s = steps.get(i);
                a.clock.advanceMillis(s.advanceMillis());
                if (dropped[i]) {
                    continue;
                }
                Decision d = GateFixture.evaluate(a.gate, o, s.attempt(), s.solved() ? GateFixture.SOLVED : null);
                settle(a.gate, d, s.check());
                assertThat(d.outcome()).as("step %d, %s", i, ctx).isEqualTo(withMistakes.get(i).outcome());
                assertThat(d.layer()).as("step %d, %s", i, ctx).isEqualTo(withMistakes.get(i).layer());
            }
        }
    }

    /** Every count the gate holds about an attempt's address, identifier and pair (not how long they last). */
    private static List<Long> counters(SubjectState s) {
        return List.of(s.address().attempts(), (long) s.address().distinctIdentifiers(), s.identifier().taken(),
                s.identifier().failures(), s.identifier().lockRemainingMillis(), s.identifier().lockRun(), s.pair().attempts(),
                s.pair().identifierSeenFromAddress() ? 1L : 0L);
    }

    /** Replays the kept steps before {@code upTo} on a fresh gate, then asks with a valid solution. */
    private static Outcome probeSolved(GateOptions o, List<Step> steps, boolean[] dropped, int upTo) {
        GateFixture c = new GateFixture();
        for (int i = 0; i < upTo; i++) {
            Step s = steps.get(i);
            c.clock.advanceMillis(s.advanceMillis());
            if (!dropped[i]) {
                settle(c.gate, GateFixture.evaluate(c.gate, o, s.attempt(), s.solved() ? GateFixture.SOLVED : null), s.check());
            }
        }
        Step s = steps.get(upTo);
        c.clock.advanceMillis(s.advanceMillis());
        return GateFixture.evaluate(c.gate, o, s.attempt(), GateFixture.SOLVED).outcome();
    }
}
