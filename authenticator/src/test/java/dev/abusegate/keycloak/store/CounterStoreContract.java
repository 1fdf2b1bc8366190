package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStore.Change;
import dev.abusegate.engine.Entries;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CounterStore} must do, run against the reference store, Infinispan on a LOCAL cache and an
 * embedded Infinispan cluster (changes spread over its nodes). Times are the wall clock: a cache expires
 * entries by its own clock.
 */
abstract class CounterStoreContract {

    static final long WINDOW = 60_000;

    /** The store as seen from node {@code i} (any i; a single store ignores it). */
    abstract CounterStore node(int i);

    /** A store of node 0 whose caches take at most this many more entries than they hold now. */
    abstract CounterStore bounded(long moreCheap, long moreProtective);

    /** Entries node 0 holds: cheap, protective. */
    abstract long[] sizes();

    int nodes() {
        return 1;
    }

    /** A realm of its own per test: no test sees another's entries. */
    final String realm = "realm-" + UUID.randomUUID();

    CounterKey key(CounterKey.Kind kind, long n) {
        return CounterKey.of(realm, kind, 0x5eed, n);
    }

    static long now() {
        return System.currentTimeMillis();
    }

    static Change admit(long threshold, long band, boolean solved) {
        return new Change(Entries.ADMIT_COUNTER, now(), solved ? 1 : 0, threshold, band, WINDOW);
    }

    static Change reserve(long threshold, long band) {
        return new Change(Entries.RESERVE, now(), 0, threshold, band, WINDOW);
    }

    static Change fail(long threshold, long lockMillis) {
        return new Change(Entries.FAIL, now(), threshold, WINDOW, lockMillis, Double.doubleToLongBits(1.0), 0, 0, 0, 1);
    }

    int answer(int node, CounterKey key, Change change) {
        return Entries.answer(node(node).apply(key, change, WINDOW).join());
    }

    /**
     * A value once handed out never changes: later changes make new values. A LOCAL cache keeps the very array it
     * hands back (it never copies), so a change that wrote into the old value would change answers already read
     * and entries outside their lock.
     */
    @Test
    void a_value_handed_back_or_read_never_changes_when_the_entry_changes_again() {
        CounterKey pair = key(CounterKey.Kind.PAIR, 40);
        CounterKey account = key(CounterKey.Kind.ACCOUNT, 41);
        CounterKey address = key(CounterKey.Kind.ADDRESS, 42);
        List<long[]> seen = new ArrayList<>();
        List<long[]> copies = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            long t = now();
            List<long[]> round = new ArrayList<>();
            round.add(node(i % nodes()).apply(pair, admit(3, 2, i % 2 == 0), WINDOW).join());
            round.add(node(i % nodes()).apply(pair, admit(3, 2, true), WINDOW).join());
            round.add(node(i % nodes()).apply(pair, new Change(Entries.UNDO_COUNTER, t, t + WINDOW), WINDOW).join());
            round.add(node(i % nodes()).apply(account, reserve(4, 3), WINDOW).join());
            round.add(node(i % nodes()).apply(account, fail(4, 60_000), WINDOW).join());
            round.add(node(i % nodes()).apply(address, new Change(Entries.ADMIT_ADDRESS, t, 1, 10, 5, WINDOW, 3, 2, WINDOW, 1_000 + i), WINDOW).join());
            round.add(node(i % nodes()).apply(address, new Change(Entries.ADMIT_ADDRESS, t, 0, 10, 5, WINDOW, 3, 2, WINDOW, 2_000 + i), WINDOW).join());
            round.add(node(i % nodes()).apply(address, new Change(Entries.UNDO_ADDRESS, t, 1, 1, 1_000 + i, t + WINDOW, t + WINDOW), WINDOW).join());
            round.add(node(0).read(pair));
            round.add(node(0).read(account));
            round.add(node(0).read(address));
            for (long[] v : round) {
                if (v != null) {
                    seen.add(v);
                    copies.add(v.clone());
                }
            }
        }
        assertThat(seen).hasSizeGreaterThanOrEqualTo(40);
        for (int i = 0; i < seen.size(); i++) {
            assertThat(seen.get(i)).as("value %d", i).isEqualTo(copies.get(i));
        }
    }

    @Test
    void a_counter_lets_the_threshold_through_then_blocks_and_keeps_counting() {
        CounterKey k = key(CounterKey.Kind.PAIR, 1);
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(answer(i % nodes(), k, admit(3, Long.MAX_VALUE, false)));
        }
        assertThat(answers).containsExactly(Entries.ALLOW, Entries.ALLOW, Entries.ALLOW, Entries.BLOCK, Entries.BLOCK);
        assertThat(Entries.count(node(nodes() - 1).read(k), now())).isEqualTo(5);
    }

    @Test
    void the_captcha_band_counts_nothing_until_solved() {
        CounterKey k = key(CounterKey.Kind.PAIR, 2);
        for (int i = 0; i < 5; i++) {
            assertThat(answer(i % nodes(), k, admit(10, 5, false))).isEqualTo(Entries.ALLOW);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(answer(i % nodes(), k, admit(10, 5, false))).isEqualTo(Entries.BAND);
        }
        assertThat(Entries.count(node(0).read(k), now())).isEqualTo(5);
        assertThat(answer(1 % nodes(), k, admit(10, 5, true))).isEqualTo(Entries.ALLOW);
        assertThat(Entries.count(node(0).read(k), now())).isEqualTo(6);
    }

    @Test
    void simultaneous_admissions_let_exactly_the_threshold_through() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 3);
        assertThat(race(40, i -> answer(i % nodes(), k, admit(10, Long.MAX_VALUE, false))))
                .filteredOn(a -> a == Entries.ALLOW).hasSize(10);
    }

    @Test
    void simultaneous_admissions_without_a_captcha_stop_exactly_at_the_band() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 4);
        List<Integer> answers = race(20, i -> answer(i % nodes(), k, admit(10, 5, false)));
        assertThat(answers).filteredOn(a -> a == Entries.ALLOW).hasSize(5);
        assertThat(answers).filteredOn(a -> a == Entries.BAND).hasSize(15);
    }

    @Test
    void simultaneous_reservations_take_exactly_the_threshold() throws Exception {
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 5);
        assertThat(race(40, i -> answer(i % nodes(), k, reserve(10, Long.MAX_VALUE))))
                .filteredOn(a -> a == Entries.ALLOW).hasSize(10);
    }

    @Test
    void confirmed_failures_lock_the_account_everywhere() {
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 6);
        int last = 0;
        for (int i = 0; i < 3; i++) {
            assertThat(answer(i % nodes(), k, reserve(3, Long.MAX_VALUE))).isEqualTo(Entries.ALLOW);
            last = answer((i + 1) % nodes(), k, fail(3, 60_000));
        }
        assertThat(last).isEqualTo(Entries.LOCKED);
        for (int i = 0; i < nodes(); i++) {
            assertThat(answer(i, k, reserve(3, Long.MAX_VALUE))).isEqualTo(Entries.BLOCK);
            assertThat(Entries.lockRemaining(node(i).read(k), now())).isPositive();
        }
    }

    @Test
    void an_entry_expires_after_its_time_to_live() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 7);
        long now = now();
        node(0).apply(k, new Change(Entries.ADMIT_COUNTER, now, 0, 10, Long.MAX_VALUE, 300), 300).join();
        assertThat(Entries.count(node(0).read(k), now())).isEqualTo(1);
        Thread.sleep(700);
        assertThat(node(nodes() - 1).read(k)).isNull();
        assertThat(answer(0, k, admit(10, Long.MAX_VALUE, false))).isEqualTo(Entries.ALLOW);
        assertThat(Entries.count(node(0).read(k), now())).isEqualTo(1);
    }

    @Test
    void a_flood_of_cheap_entries_never_erases_a_lock_and_never_passes_the_bound() {
        CounterStore store = bounded(50, 1_000);
        CounterKey account = key(CounterKey.Kind.ACCOUNT, 8);
        store.apply(account, new Change(Entries.LOCK, now(), now() + 600_000), 600_000).join();
        int refused = 0;
        for (int i = 0; i < 500; i++) { // ten times the room
            long[] v = store.apply(key(CounterKey.Kind.ADDRESS, 1000 + i), new Change(Entries.ADMIT_ADDRESS, now(), 0,
                    10, Long.MAX_VALUE, WINDOW, 10, Long.MAX_VALUE, WINDOW, 42), WINDOW).join();
            refused += v == null ? 1 : 0;
        }
        assertThat(refused).as("new cheap entries refused at the bound").isGreaterThan(0);
        assertThat(sizes()[0]).as("cheap entries held").isLessThanOrEqualTo(initialCheap + 50 + 5);
        assertThat(Entries.lockRemaining(store.read(account), now())).as("the lock survives the flood").isPositive();
        assertThat(Entries.answer(store.apply(account, reserve(3, Long.MAX_VALUE), WINDOW).join())).isEqualTo(Entries.BLOCK);
        // protective entries have their own room
        assertThat(store.apply(key(CounterKey.Kind.ACCOUNT, 9), reserve(3, Long.MAX_VALUE), WINDOW).join()).isNotNull();
    }

    @Test
    void at_the_protective_bound_new_identifiers_are_refused_and_locks_kept() {
        CounterStore store = bounded(1_000, 20);
        CounterKey locked = key(CounterKey.Kind.ACCOUNT, 10);
        store.apply(locked, new Change(Entries.LOCK, now(), now() + 600_000), 600_000).join();
        int refused = 0;
        for (int i = 0; i < 200; i++) {
            CounterKey k = key(CounterKey.Kind.ACCOUNT, 2000 + i);
            long[] v = store.apply(k, reserve(3, Long.MAX_VALUE), WINDOW).join();
            if (v == null) {
                refused++;
            } else {
                store.apply(k, fail(3, 60_000), WINDOW).join();
            }
        }
        assertThat(refused).isGreaterThan(0);
        assertThat(Entries.lockRemaining(store.read(locked), now())).isPositive();
    }

    /** Set by {@link #bounded}: node 0's cheap entries when the bound was taken. */
    long initialCheap;

    interface Attempt {
        int run(int i) throws Exception;
    }

    /** Runs {@code n} calls at once (released together by a barrier) and returns their answers. */
    static List<Integer> race(int n, Attempt attempt) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CyclicBarrier start = new CyclicBarrier(n);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return attempt.run(index);
                }));
            }
            List<Integer> answers = new ArrayList<>();
            for (Future<Integer> f : futures) {
                answers.add(f.get(60, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    static CompletableFuture<long[]> done(long[] v) {
        return CompletableFuture.completedFuture(v);
    }
}
