package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Real threads released at once by a latch. The captcha band is read-based (it would ask the racers for a
 * solution), so these run with the captcha disabled: the increments alone must be exact.
 */
class ConcurrencyTest {

    static final int THREADS = 64;
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Runs {@code THREADS} tasks released together; returns their results. */
    static <T> List<T> race(ExecutorService pool, int n, IntFunction<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            futures.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return task.apply(id);
            }));
        }
        ready.await();
        go.countDown();
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get(30, TimeUnit.SECONDS));
        }
        return out;
    }

    private static long allowed(List<Decision> ds) {
        return ds.stream().filter(Decision::allowed).count();
    }

    @RepeatedTest(10)
    void layer1_lets_exactly_threshold_through_however_many_arrive_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP, 7, 300).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.1", "user" + i));
        assertThat(allowed(ds)).isEqualTo(7);
        assertThat(ds).filteredOn(d -> !d.allowed()).allMatch(d -> d.layer() == Layer.PER_IP);
        assertThat(f.perIpCount(o, "198.51.100.1")).as("every attempt counted").isEqualTo(THREADS);
    }

    @RepeatedTest(10)
    void layer2_lets_exactly_threshold_through_however_many_arrive_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP_ACCOUNT, 5, 900).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.2", "alice"));
        assertThat(allowed(ds)).isEqualTo(5);
    }

    @RepeatedTest(10)
    void layer4_lets_exactly_threshold_distinct_identifiers_through() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.CREDENTIAL_STUFFING, 9, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.4", "victim" + i));
        assertThat(allowed(ds)).isEqualTo(9);
    }

    @RepeatedTest(10)
    void layer4_retries_of_seen_identifiers_race_without_advancing() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.CREDENTIAL_STUFFING, 4, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.5", "victim" + (i % 4)));
        assertThat(allowed(ds)).isEqualTo(THREADS);
    }

    @RepeatedTest(10)
    void layer3_reserves_before_verifying_so_at_most_threshold_can_fail_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 6, 900).build();
        AtomicInteger failedVerifications = new AtomicInteger();
        // every racer comes from its own address, and every password is wrong
        List<Decision> ds = race(pool, THREADS, i -> {
            Decision d = f.evaluate(o, "10.0." + (i / 250) + "." + (i % 250), "alice");
            if (d.allowed()) {
                failedVerifications.incrementAndGet();
                f.gate.passwordFailed(d);
            }
            return d;
        });
        assertThat(allowed(ds)).isEqualTo(6);
        assertThat(failedVerifications.get()).isEqualTo(6);
        assertThat(f.evaluate(o, "192.0.2.200", "alice").outcome()).as("locked afterwards").isEqualTo(Outcome.BLOCKED);
    }

    /**
     * A store that runs {@code beforeLockRead[0]} (once) just before the next lock read: a deterministic
     * stand-in for another thread running at that moment.
     */
    private static CounterStore pausingBeforeLockRead(Runnable[] beforeLockRead) {
        InMemoryCounterStore memory = new InMemoryCounterStore();
        return new CounterStore() {
            public long count(CounterKey k, long n) { return memory.count(k, n); }
            public long increment(CounterKey k, long w, long n) { return memory.increment(k, w, n); }
            public void decrement(CounterKey k, long w, long n) { memory.decrement(k, w, n); }
            public long confirm(CounterKey k, long w, long n) { return memory.confirm(k, w, n); }
            public void release(CounterKey k, long u, long w, long n) { memory.release(k, u, w, n); }
            public DistinctView distinct(CounterKey k, long m, long n) { return memory.distinct(k, m, n); }
            public DistinctView addDistinct(CounterKey k, long m, int c, long w, long n) { return memory.addDistinct(k, m, c, w, n); }
            public void lock(CounterKey k, long d, long n) { memory.lock(k, d, n); }
            public void clear(CounterKey k) { memory.clear(k); }
            public long lockRemainingMillis(CounterKey k, long n) {
                Runnable r = beforeLockRead[0];
                beforeLockRead[0] = null;
                if (r != null) {
                    r.run();
                }
                return memory.lockRemainingMillis(k, n);
            }
        };
    }

    /**
     * The worst interleaving, made deterministic: attempt A takes slot 1, and before A re-reads the lock,
     * attempt Z takes slot 2 and fails. A was let through before any lock existed and must get through.
     */
    @Test
    void layer3_a_failure_confirmed_meanwhile_never_turns_away_an_attempt_that_holds_a_slot() {
        Runnable[] beforeLockRead = {null};
        GateFixture f = new GateFixture(pausingBeforeLockRead(beforeLockRead));
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision[] z = {null};
        // A reads the lock in step 1, then again right after taking its slot: Z runs in between
        beforeLockRead[0] = () -> beforeLockRead[0] = () -> {
            z[0] = f.evaluate(o, "198.51.100.2", "alice");
            f.gate.passwordFailed(z[0]);
        };
        Decision a = f.evaluate(o, "198.51.100.1", "alice");
        assertThat(z[0].allowed()).isTrue();
        assertThat(a.outcome()).as("both slots' holders get through").isEqualTo(Outcome.ALLOW);
        f.gate.passwordFailed(a);
        assertThat(f.evaluate(o, "192.0.2.9", "alice").outcome()).as("two failures: locked").isEqualTo(Outcome.BLOCKED);
    }

    /**
     * The same, across a right password: A is still being checked when B succeeds. A's failure, reported
     * later, must not be counted against the slots taken after B (review of 8161e77).
     */
    @Test
    void layer3_a_failure_reported_after_a_success_never_turns_away_a_later_slot_holder() {
        Runnable[] beforeLockRead = {null};
        GateFixture f = new GateFixture(pausingBeforeLockRead(beforeLockRead));
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision a = f.evaluate(o, "198.51.100.1", "alice");
        Decision b = f.evaluate(o, "198.51.100.2", "alice");
        f.gate.passwordSucceeded(b); // A is still being checked
        Decision[] x = {null};
        beforeLockRead[0] = () -> beforeLockRead[0] = () -> {
            x[0] = f.evaluate(o, "198.51.100.4", "alice");
            f.gate.passwordFailed(a);
            if (x[0].allowed()) {
                f.gate.passwordFailed(x[0]);
            }
        };
        Decision y = f.evaluate(o, "198.51.100.3", "alice");
        assertThat(y.outcome()).as("Y took its slot before any lock existed").isEqualTo(Outcome.ALLOW);
        assertThat(x[0].outcome()).as("A and Y hold both slots").isEqualTo(Outcome.BLOCKED);
    }

    @RepeatedTest(5)
    void layer3_racers_that_keep_retrying_still_fail_at_most_threshold_times_per_window() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 4, 900).lockoutSeconds(900).build();
        AtomicInteger failed = new AtomicInteger();
        race(pool, THREADS, i -> {
            for (int round = 0; round < 50; round++) {
                Decision d = f.evaluate(o, "10.1.0." + (i % 250), "alice");
                if (d.allowed()) {
                    failed.incrementAndGet();
                    f.gate.passwordFailed(d);
                }
            }
            return null;
        });
        assertThat(failed.get()).isLessThanOrEqualTo(4);
    }

    @RepeatedTest(5)
    void layer3_reservations_given_back_are_reusable() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        race(pool, THREADS, i -> {
            for (int round = 0; round < 20; round++) {
                Decision d = f.evaluate(o, "10.2.0." + (i % 250), "alice");
                f.gate.notVerified(d);
            }
            return null;
        });
        assertThat(f.failures(o, "alice")).as("every reservation given back").isZero();
        assertThat(f.wrongPassword(o, "10.2.0.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void all_layers_together_with_solved_captchas_let_through_the_smallest_threshold() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateOptions.builder().layer(Layer.PER_IP, 30, 300).layer(Layer.PER_IP_ACCOUNT, 12, 900)
                .layer(Layer.ACCOUNT_LOCKOUT, 40, 900).layer(Layer.CREDENTIAL_STUFFING, 20, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> f.gate.evaluate(o, GateFixture.solved("198.51.100.9", "alice")));
        assertThat(allowed(ds)).isEqualTo(12);
    }

    @RepeatedTest(5)
    void many_addresses_at_once_each_get_their_own_threshold() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP, 3, 300).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "2001:db8:" + (i % 8) + "::" + i, "u"));
        assertThat(allowed(ds)).as("8 prefixes x 3").isEqualTo(24);
    }
}
