package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStore.Change;
import dev.abusegate.engine.store.Entries;
import dev.abusegate.engine.store.Slots;
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

    /** A store of node 0 with tables of its own, bounded to this many exact entries each. */
    abstract CounterStore bounded(long maxCheap, long maxProtective);

    /** Exact entries node 0 holds in a store's tables: cheap, protective. */
    abstract long[] sizesOf(CounterStore store);

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

    // ---- at the bound (tables of their own, with small bounds) ----

    static final long BOUND = 16;

    static Change admitAddress(long threshold, long band, boolean solved, long member) {
        return new Change(Entries.ADMIT_ADDRESS, now(), solved ? 1 : 0, threshold, band, WINDOW, 0, 0, 0, member);
    }

    static boolean shared(long[] v) {
        return (Entries.answer(v) & Slots.SHARED) != 0;
    }

    static int layer(long[] v) {
        return Entries.answer(v) & 3;
    }

    /** Fills a bounded store's cheap table with addresses seen twice (worth two attempts each): none may make room. */
    List<CounterKey> fillWithAddressesSeenTwice(CounterStore store, int base) {
        List<CounterKey> held = new ArrayList<>();
        for (int i = 0; i < 20 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.ADDRESS, base + i);
            long[] first = store.apply(k, admitAddress(100, Long.MAX_VALUE, false, 0), WINDOW).join();
            long[] second = store.apply(k, admitAddress(100, Long.MAX_VALUE, false, 0), WINDOW).join();
            assertThat(first).as("every subject gets an answer, exact or shared").isNotNull();
            if (!shared(first) && !shared(second)) {
                held.add(k);
            }
        }
        return held;
    }

    @Test
    void a_flood_of_cheap_entries_never_erases_a_lock_and_never_passes_the_bound() {
        CounterStore store = bounded(BOUND, 1_000);
        CounterKey account = key(CounterKey.Kind.ACCOUNT, 8);
        store.apply(account, new Change(Entries.LOCK, now(), now() + 600_000), 600_000).join();
        int sharedAnswers = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            long[] v = store.apply(key(CounterKey.Kind.ADDRESS, 1000 + i), new Change(Entries.ADMIT_ADDRESS, now(), 0,
                    10, Long.MAX_VALUE, WINDOW, 10, Long.MAX_VALUE, WINDOW, 42), WINDOW).join();
            assertThat(v).as("a full store still answers every new subject").isNotNull();
            sharedAnswers += shared(v) ? 1 : 0;
        }
        assertThat(sizesOf(store)[0]).as("cheap entries held").isLessThanOrEqualTo(BOUND);
        assertThat(Entries.lockRemaining(store.read(account), now())).as("the lock survives the flood").isPositive();
        assertThat(Entries.answer(store.apply(account, reserve(3, Long.MAX_VALUE), WINDOW).join())).isEqualTo(Entries.BLOCK);
        // protective entries have their own room
        assertThat(shared(store.apply(key(CounterKey.Kind.ACCOUNT, 9), reserve(3, Long.MAX_VALUE), WINDOW).join())).isFalse();
        // addresses seen once (no band, one identifier) made room for each other: nothing had to be shared
        assertThat(sharedAnswers).as("answers on a shared counter when every held entry is worth one attempt").isZero();
    }

    @Test
    void an_entry_worth_more_than_one_attempt_is_never_replaced() {
        CounterStore store = bounded(BOUND, BOUND);
        List<CounterKey> held = fillWithAddressesSeenTwice(store, 3_000);
        assertThat(held).as("the table filled up with exact entries").hasSizeGreaterThanOrEqualTo((int) BOUND / 2);
        assertThat(sizesOf(store)[0]).isLessThanOrEqualTo(BOUND);
        // a flood of ten times the bound of fresh subjects, each seen once
        for (int i = 0; i < 10 * BOUND; i++) {
            store.apply(key(CounterKey.Kind.ADDRESS, 5_000 + i), admitAddress(100, Long.MAX_VALUE, false, 0), WINDOW).join();
            store.apply(key(CounterKey.Kind.PAIR, 5_000 + i), admit(100, Long.MAX_VALUE, false), WINDOW).join();
        }
        for (CounterKey k : held) {
            assertThat(Entries.attempts(store.read(k), now())).as("%s kept its own count", k).isEqualTo(2);
        }
    }

    /**
     * A replacement gives its victim back one attempt, and takes one attempt of a fresh subject to happen (a flood
     * request is itself an attempt, let through as any fresh subject's first is): so a flood of fresh subjects
     * buys an attacker no attempt it did not send. A subject seen twice keeps its count through any flood.
     */
    @Test
    void a_subject_seen_once_gives_back_at_most_one_attempt_and_a_fresh_subject_counts_exactly() {
        CounterStore store = bounded(BOUND, BOUND);
        CounterKey innocent = key(CounterKey.Kind.PAIR, 6_000);
        CounterKey steady = key(CounterKey.Kind.PAIR, 6_001);
        List<Integer> answers = new ArrayList<>();
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(Entries.ALLOW);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(Entries.ALLOW);
        answers.add(layer(store.apply(innocent, admit(3, Long.MAX_VALUE, false), WINDOW).join()));
        // a flood of ten times the bound of fresh pairs, each seen once
        for (int i = 0; i < 10 * BOUND; i++) {
            long[] v = store.apply(key(CounterKey.Kind.PAIR, 7_000 + i), admit(3, Long.MAX_VALUE, false), WINDOW).join();
            assertThat(shared(v)).as("fresh subjects make room for each other").isFalse();
        }
        for (int i = 0; i < 5; i++) {
            long[] v = store.apply(innocent, admit(3, Long.MAX_VALUE, false), WINDOW).join();
            assertThat(shared(v)).as("room is made for a fresh subject: its count is its own").isFalse();
            answers.add(layer(v));
        }
        assertThat(answers.stream().filter(a -> a == Entries.ALLOW).count())
                .as("threshold 3, at most one attempt given back by the flood: %s", answers).isBetween(3L, 4L);
        assertThat(answers.get(answers.size() - 1)).as("blocked on its own count").isEqualTo(Entries.BLOCK);
        assertThat(Entries.count(store.read(steady), now())).as("a pair seen twice keeps its count through the flood").isEqualTo(2);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(Entries.ALLOW);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(Entries.BLOCK);
    }

    @Test
    void a_shared_count_never_under_counts_and_never_blocks() {
        CounterStore store = bounded(BOUND, BOUND);
        List<CounterKey> held = fillWithAddressesSeenTwice(store, 8_000);
        long threshold = 3;
        int allowed = 0;
        int sharedCount = 0;
        List<CounterKey> fresh = new ArrayList<>();
        // fresh pairs (whose shared counters the filling addresses left untouched), each seen twice
        for (int i = 0; i < 10 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.PAIR, 9_000 + i);
            fresh.add(k);
            for (int j = 0; j < 2; j++) {
                long[] v = store.apply(k, admit(threshold, 2, false), WINDOW).join();
                if (shared(v)) {
                    sharedCount++;
                    assertThat(layer(v)).as("a shared count never blocks").isNotEqualTo(Entries.BLOCK);
                    allowed += layer(v) == Entries.ALLOW ? 1 : 0;
                }
            }
        }
        assertThat(sharedCount).as("subjects without room were counted on shared counters").isPositive();
        // every shared counter counts every sharer: across all slots no more are let through without a captcha than
        // the band's start per slot (a count of its own would let as many through per subject)
        long slots = (BOUND + Slots.WAYS - 1) / Slots.WAYS;
        assertThat(allowed).as("attempts let through on shared counters").isBetween(1, (int) (2 * slots));
        // with a solved captcha, a shared count lets the attempt through, counted: never blocked
        long[] solved = store.apply(fresh.get(fresh.size() - 1), admit(threshold, 2, true), WINDOW).join();
        assertThat(shared(solved)).isTrue();
        assertThat(layer(solved)).isEqualTo(Entries.ALLOW);
        // a subject with an exact entry still blocks on its own count
        CounterKey own = held.get(0);
        assertThat(layer(store.apply(own, admitAddress(threshold, 2, true, 0), WINDOW).join())).isEqualTo(Entries.ALLOW);
        long[] blocked = store.apply(own, admitAddress(threshold, 2, true, 0), WINDOW).join();
        assertThat(shared(blocked)).isFalse();
        assertThat(layer(blocked)).isEqualTo(Entries.BLOCK);
    }

    @Test
    void at_the_protective_bound_new_identifiers_are_counted_on_a_shared_counter_and_locks_kept() {
        CounterStore store = bounded(1_000, BOUND);
        CounterKey locked = key(CounterKey.Kind.ACCOUNT, 10);
        store.apply(locked, new Change(Entries.LOCK, now(), now() + 600_000), 600_000).join();
        List<CounterKey> failed = new ArrayList<>();
        int sharedReservations = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.ACCOUNT, 2000 + i);
            long[] v = store.apply(k, reserve(3, Long.MAX_VALUE), WINDOW).join();
            assertThat(v).as("a full protective table still answers").isNotNull();
            assertThat(layer(v)).as("a new identifier is never blocked on a shared count").isNotEqualTo(Entries.BLOCK);
            if (shared(v)) {
                sharedReservations++;
                long[] f = store.apply(k, new Change(Entries.FAIL, now(), 3, WINDOW, 60_000, Double.doubleToLongBits(1.0), 0, 0,
                        0, 1, 1), WINDOW).join();
                assertThat(Entries.answer(f) & 3).as("a failure on a shared count never locks").isNotEqualTo(Entries.LOCKED);
            } else {
                store.apply(k, fail(3, 60_000), WINDOW).join();
                failed.add(k);
            }
        }
        assertThat(sharedReservations).as("identifiers past the bound counted on shared counters").isPositive();
        assertThat(sizesOf(store)[1]).as("protective entries held").isLessThanOrEqualTo(BOUND);
        assertThat(Entries.lockRemaining(store.read(locked), now())).isPositive();
        for (CounterKey k : failed) {
            assertThat(Entries.confirmed(store.read(k), now())).as("a failure count is never replaced").isEqualTo(1);
        }
    }

    @Test
    void a_full_used_captcha_table_refuses_new_solutions_and_keeps_every_record() {
        CounterStore store = bounded(1_000, 4 * BOUND); // used captchas get a quarter: BOUND records
        List<CounterKey> recorded = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.USED, 20_000 + i);
            long[] v = store.apply(k, new Change(Entries.MARK_USED, now(), now() + WINDOW), WINDOW).join();
            if (v == null) {
                refused++;
            } else {
                assertThat(Entries.answer(v)).isEqualTo(1);
                recorded.add(k);
            }
        }
        assertThat(refused).as("solutions refused once the used table is full").isPositive();
        assertThat(recorded.size()).isLessThanOrEqualTo((int) BOUND);
        for (CounterKey k : recorded) {
            assertThat(Entries.answer(store.apply(k, new Change(Entries.MARK_USED, now(), now() + WINDOW), WINDOW).join()))
                    .as("a replay is still recognised").isZero();
        }
        // accounts do not share the used captchas' room
        assertThat(shared(store.apply(key(CounterKey.Kind.ACCOUNT, 30_000), reserve(3, Long.MAX_VALUE), WINDOW).join())).isFalse();
    }

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
