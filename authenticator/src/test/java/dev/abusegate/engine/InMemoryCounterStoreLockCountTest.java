package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each table's count of lock entries ({@code Stripe.locks}) against the table itself: after every call it
 * equals the number of occupied slots whose type is LOCK (live or expired), through type changes of one
 * key, dead slots taken over by other keys, growth, purges and arena compactions. A count below that
 * number would hide a live lock; one above it only costs a probe, but the invariant is exact, so any drift
 * shows. And a lock-free read never answers 0 for a live lock while a writer rebuilds its table.
 */
class InMemoryCounterStoreLockCountTest {

    /** Asserts, for every table, that its count equals its LOCK entries; answers the total. */
    private static int assertCounts(InMemoryCounterStore store, String where) {
        int total = 0;
        int[][] counts = store.lockCounts();
        for (int i = 0; i < counts.length; i++) {
            assertThat(counts[i][0]).as("%s: table %d", where, i).isEqualTo(counts[i][1]);
            total += counts[i][1];
        }
        return total;
    }

    @Test
    void each_table_counts_exactly_its_lock_entries_through_every_kind_of_call() throws Exception {
        int sawLocks = 0;
        for (long seed = 1; seed <= 4; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            InMemoryCounterStore store = new InMemoryCounterStore();
            // few subjects, every kind of each: long runs in few tables, many dead slots taken over on the way
            List<CounterKey> keys = new ArrayList<>();
            for (int s = 0; s < 24; s++) {
                for (CounterKey.Kind kind : CounterKey.Kind.values()) {
                    keys.add(CounterKey.of("r", kind, s, s * 31L));
                }
            }
            Map<CounterKey, Long> lockUntil = new HashMap<>();
            long now = 1_000;
            for (int step = 0; step < 40_000; step++) {
                CounterKey k = keys.get(r.nextInt(keys.size()));
                now += r.nextInt(3);
                long window = 1 + r.nextInt(seed % 2 == 0 ? 30 : 3000);
                String where = "seed " + seed + " step " + step + " " + k;
                switch (r.nextInt(11)) {
                    case 0 -> {
                        store.increment(k, window, now);
                        lockUntil.remove(k);
                    }
                    case 1 -> {
                        store.decrement(k, window, now);
                        lockUntil.remove(k);
                    }
                    case 2 -> store.confirm(k, window, now);
                    case 3 -> store.release(k, r.nextInt(2), window, now);
                    case 4, 5 -> {
                        // members spread wide so sets move to the arena and compactions happen
                        store.addDistinct(k, r.nextLong(64), 64, window, now);
                        lockUntil.remove(k);
                    }
                    case 6, 7 -> {
                        store.lock(k, window, now);
                        lockUntil.put(k, now + window);
                    }
                    case 8 -> {
                        store.clear(k);
                        lockUntil.remove(k);
                    }
                    case 9 -> {
                        if (r.nextInt(40) == 0) {
                            store.purgeExpired(now);
                        }
                    }
                    default -> {
                        Long until = lockUntil.get(k);
                        long expected = until == null || until <= now ? 0 : until - now;
                        assertThat(store.lockRemainingMillis(k, now)).as(where).isEqualTo(expected);
                    }
                }
                sawLocks = Math.max(sawLocks, assertCounts(store, where));
            }
        }
        assertThat(sawLocks).as("the runs held several locks at once").isGreaterThan(5);
    }

    @Test
    void dead_locks_taken_over_by_other_keys_and_dropped_by_rebuilds_leave_the_count_exact() throws Exception {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey lock = CounterKey.of("r", CounterKey.Kind.LOCK, 5, 5);
        store.lock(lock, 10, 0);
        assertThat(assertCounts(store, "one lock")).isEqualTo(1);
        // expired, not yet dropped: still counted (errs towards probing), still reads 0
        assertThat(store.lockRemainingMillis(lock, 10)).isZero();
        assertThat(assertCounts(store, "an expired lock")).isEqualTo(1);
        // another kind of the same subject homes on the same slot run and takes the dead lock's slot
        store.increment(lock.as(CounterKey.Kind.FAIL), 100, 20);
        assertThat(assertCounts(store, "the dead lock's slot taken over")).isZero();
        // a lock, turned into a set, a counter, a lock again, then cleared
        store.lock(lock, 100, 30);
        store.addDistinct(lock, 7, 9, 100, 31);
        assertThat(assertCounts(store, "lock -> set")).isZero();
        store.lock(lock, 100, 32);
        store.lock(lock, 100, 33);
        assertThat(assertCounts(store, "lock -> lock")).isEqualTo(1);
        store.decrement(lock, 100, 34);
        assertThat(assertCounts(store, "decrement of a lock")).isZero();
        store.lock(lock, 100, 35);
        store.clear(lock);
        assertThat(assertCounts(store, "cleared")).isZero();
        // many locks in every table: growth and a purge recount them
        for (int i = 0; i < 2000; i++) {
            store.lock(CounterKey.of("r", CounterKey.Kind.LOCK, 5, 1000 + i), i % 2 == 0 ? 10 : 10_000, 40);
        }
        assertThat(assertCounts(store, "2000 locks")).isEqualTo(2000);
        store.purgeExpired(60);
        assertThat(assertCounts(store, "purged")).isEqualTo(1000);
        for (int i = 1; i < 2000; i += 2) {
            assertThat(store.lockRemainingMillis(CounterKey.of("r", CounterKey.Kind.LOCK, 5, 1000 + i), 60)).isEqualTo(10_000 - 20);
        }
    }

    /**
     * A lock stays live while a writer churns its table: other keys come and go, the table grows and is
     * rebuilt (which sets the count to 0 and then recounts), another lock is set and cleared. A reader, lock-free
     * or not, must never answer 0 for the live lock.
     */
    @Test
    void a_live_lock_is_never_read_as_absent_while_its_table_is_rebuilt() throws Exception {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey lock = CounterKey.of("r", CounterKey.Kind.LOCK, 77, 77);
        long stripeOf = lock.subjectHash() >>> 58;
        // keys of the lock's table, other subjects
        List<CounterKey> same = new ArrayList<>();
        for (long i = 0; same.size() < 400; i++) {
            CounterKey k = CounterKey.of("r", CounterKey.Kind.IP, i, ~i);
            if (k.subjectHash() >>> 58 == stripeOf) {
                same.add(k);
            }
        }
        store.lock(lock, Long.MAX_VALUE / 4, 0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                long now = 1;
                for (int round = 0; round < 300 && !stop.get(); round++) {
                    for (CounterKey k : same) {
                        store.increment(k, 2, now);
                    }
                    store.lock(same.get(round % same.size()).as(CounterKey.Kind.LOCK), 1, now);
                    now += 3; // everything but the lock expires
                    store.clear(same.get(round % same.size()).as(CounterKey.Kind.LOCK));
                    store.purgeExpired(now);
                }
            } catch (Throwable e) {
                failed.compareAndSet(null, e);
            } finally {
                stop.set(true);
            }
        });
        writer.start();
        long reads = 0;
        long zeros = 0;
        while (!stop.get()) {
            if (store.lockRemainingMillis(lock, 1_000) == 0) {
                zeros++;
            }
            reads++;
        }
        writer.join();
        assertThat(failed.get()).isNull();
        assertThat(reads).isGreaterThan(1000);
        assertThat(zeros).as("reads of a live lock that answered 0, out of %d", reads).isZero();
    }
}
