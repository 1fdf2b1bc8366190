package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.AddressEntry;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.TestChanges;
import dev.abusegate.engine.store.FailureOutcome;
import dev.abusegate.engine.store.LayerOutcome;
import dev.abusegate.engine.store.Limit;
import dev.abusegate.engine.store.LockoutEntry;
import dev.abusegate.engine.store.PairEntry;
import dev.abusegate.engine.store.StoreCodec;
import dev.abusegate.engine.store.UsedEntry;
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
import java.util.function.UnaryOperator;
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

    /** Rewrites, as stored words, the slot (on node 0) that holds a cheap key's entry: a stand-in for another version's write. */
    abstract void rewriteSlot(CounterKey key, UnaryOperator<long[]> rewrite);

    /** A realm of its own per test: no test sees another's entries. */
    final String realm = "realm-" + UUID.randomUUID();

    CounterKey key(CounterKey.Kind kind, long n) {
        return CounterKey.of(realm, kind, 0x5eed, n);
    }

    static long now() {
        return System.currentTimeMillis();
    }

    static Change admit(long threshold, long band, boolean solved) {
        return new Change.AdmitPair(now(), solved, new Limit(threshold, band, WINDOW));
    }

    static Change reserve(long threshold, long band) {
        return new Change.Reserve(now(), false, new Limit(threshold, band, WINDOW));
    }

    static Change fail(long threshold, long lockMillis) {
        return TestChanges.fail(now(), threshold, WINDOW, lockMillis, 1.0, 0, 0, false, true, false);
    }

    LayerOutcome answer(int node, CounterKey key, Change change) {
        return AdmissionAnswer.of(node(node).apply(key, change, WINDOW).join()).outcome();
    }

    FailureOutcome failure(int node, CounterKey key, Change change) {
        return FailureOutcome.of(node(node).apply(key, change, WINDOW).join());
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
            round.add(node(i % nodes()).apply(pair, new Change.UndoPair(t, t + WINDOW), WINDOW).join());
            round.add(node(i % nodes()).apply(account, reserve(4, 3), WINDOW).join());
            round.add(node(i % nodes()).apply(account, fail(4, 60_000), WINDOW).join());
            round.add(node(i % nodes()).apply(address, new Change.AdmitAddress(t, true, new Limit(10, 5, WINDOW), new Limit(3, 2, WINDOW), 1_000 + i), WINDOW).join());
            round.add(node(i % nodes()).apply(address, new Change.AdmitAddress(t, false, new Limit(10, 5, WINDOW), new Limit(3, 2, WINDOW), 2_000 + i), WINDOW).join());
            round.add(node(i % nodes()).apply(address, TestChanges.undoAddress(t, true, true, 1_000 + i, t + WINDOW, t + WINDOW), WINDOW).join());
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
        List<LayerOutcome> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(answer(i % nodes(), k, admit(3, Long.MAX_VALUE, false)));
        }
        assertThat(answers).containsExactly(LayerOutcome.COUNTED, LayerOutcome.COUNTED, LayerOutcome.COUNTED, LayerOutcome.BLOCKED, LayerOutcome.BLOCKED);
        assertThat(PairEntry.of(node(nodes() - 1).read(k)).attempts(now())).isEqualTo(5);
    }

    @Test
    void the_captcha_band_counts_nothing_until_solved() {
        CounterKey k = key(CounterKey.Kind.PAIR, 2);
        for (int i = 0; i < 5; i++) {
            assertThat(answer(i % nodes(), k, admit(10, 5, false))).isEqualTo(LayerOutcome.COUNTED);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(answer(i % nodes(), k, admit(10, 5, false))).isEqualTo(LayerOutcome.BAND);
        }
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).isEqualTo(5);
        assertThat(answer(1 % nodes(), k, admit(10, 5, true))).isEqualTo(LayerOutcome.COUNTED);
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).isEqualTo(6);
    }

    @Test
    void simultaneous_admissions_let_exactly_the_threshold_through() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 3);
        assertThat(race(40, i -> answer(i % nodes(), k, admit(10, Long.MAX_VALUE, false))))
                .filteredOn(a -> a == LayerOutcome.COUNTED).hasSize(10);
    }

    @Test
    void simultaneous_admissions_without_a_captcha_stop_exactly_at_the_band() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 4);
        List<LayerOutcome> answers = race(20, i -> answer(i % nodes(), k, admit(10, 5, false)));
        assertThat(answers).filteredOn(a -> a == LayerOutcome.COUNTED).hasSize(5);
        assertThat(answers).filteredOn(a -> a == LayerOutcome.BAND).hasSize(15);
    }

    @Test
    void simultaneous_reservations_take_exactly_the_threshold() throws Exception {
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 5);
        assertThat(race(40, i -> answer(i % nodes(), k, reserve(10, Long.MAX_VALUE))))
                .filteredOn(a -> a == LayerOutcome.COUNTED).hasSize(10);
    }

    @Test
    void confirmed_failures_lock_the_account_everywhere() {
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 6);
        FailureOutcome last = FailureOutcome.NONE;
        for (int i = 0; i < 3; i++) {
            assertThat(answer(i % nodes(), k, reserve(3, Long.MAX_VALUE))).isEqualTo(LayerOutcome.COUNTED);
            last = failure((i + 1) % nodes(), k, fail(3, 60_000));
        }
        assertThat(last).isEqualTo(FailureOutcome.LOCKED);
        for (int i = 0; i < nodes(); i++) {
            assertThat(answer(i, k, reserve(3, Long.MAX_VALUE))).isEqualTo(LayerOutcome.BLOCKED);
            assertThat(LockoutEntry.of(node(i).read(k)).lockRemaining(now())).isPositive();
        }
    }

    @Test
    void a_slot_written_in_another_format_is_read_as_absent_and_the_next_change_starts_it_again() {
        CounterKey k = key(CounterKey.Kind.PAIR, 90);
        for (int i = 0; i < 3; i++) {
            assertThat(answer(i % nodes(), k, admit(10, Long.MAX_VALUE, false))).isEqualTo(LayerOutcome.COUNTED);
        }
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).isEqualTo(3);
        // the same words, marked as written in the next format (the format is the high half of a slot's first word)
        rewriteSlot(k, s -> {
            long[] other = s.clone();
            other[0] = (long) (StoreCodec.FORMAT + 1) << 32 | (other[0] & 0xFFFF_FFFFL);
            return other;
        });
        for (int i = 0; i < nodes(); i++) {
            assertThat(node(i).read(k)).as("node %d never misreads another format", i).isNull();
        }
        assertThat(answer(1 % nodes(), k, admit(3, Long.MAX_VALUE, false))).isEqualTo(LayerOutcome.COUNTED);
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).as("counted from nothing, in this format").isEqualTo(1);
        assertThat(PairEntry.of(node(nodes() - 1).read(k)).attempts(now())).isEqualTo(1);
    }

    @Test
    void an_entry_expires_after_its_time_to_live() throws Exception {
        CounterKey k = key(CounterKey.Kind.PAIR, 7);
        long now = now();
        node(0).apply(k, new Change.AdmitPair(now, false, new Limit(10, Long.MAX_VALUE, 300)), 300).join();
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).isEqualTo(1);
        Thread.sleep(700);
        assertThat(node(nodes() - 1).read(k)).isNull();
        assertThat(answer(0, k, admit(10, Long.MAX_VALUE, false))).isEqualTo(LayerOutcome.COUNTED);
        assertThat(PairEntry.of(node(0).read(k)).attempts(now())).isEqualTo(1);
    }

    // ---- at the bound (tables of their own, with small bounds) ----

    static final long BOUND = 16;

    static Change admitAddress(long threshold, long band, boolean solved, long member) {
        return new Change.AdmitAddress(now(), solved, new Limit(threshold, band, WINDOW), Limit.OFF, member);
    }

    static boolean shared(long[] v) {
        return AdmissionAnswer.of(v).shared();
    }

    static LayerOutcome layer(long[] v) {
        return AdmissionAnswer.of(v).outcome();
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
        store.apply(account, new Change.Lock(now(), now() + 600_000), 600_000).join();
        int sharedAnswers = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            long[] v = store.apply(key(CounterKey.Kind.ADDRESS, 1000 + i), new Change.AdmitAddress(now(), false, new Limit(10, Long.MAX_VALUE, WINDOW), new Limit(10, Long.MAX_VALUE, WINDOW), 42), WINDOW).join();
            assertThat(v).as("a full store still answers every new subject").isNotNull();
            sharedAnswers += shared(v) ? 1 : 0;
        }
        assertThat(sizesOf(store)[0]).as("cheap entries held").isLessThanOrEqualTo(BOUND);
        assertThat(LockoutEntry.of(store.read(account)).lockRemaining(now())).as("the lock survives the flood").isPositive();
        assertThat(layer(store.apply(account, reserve(3, Long.MAX_VALUE), WINDOW).join())).isEqualTo(LayerOutcome.BLOCKED);
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
            assertThat(AddressEntry.of(store.read(k)).attempts(now())).as("%s kept its own count", k).isEqualTo(2);
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
        List<LayerOutcome> answers = new ArrayList<>();
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(LayerOutcome.COUNTED);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(LayerOutcome.COUNTED);
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
        assertThat(answers.stream().filter(a -> a == LayerOutcome.COUNTED).count())
                .as("threshold 3, at most one attempt given back by the flood: %s", answers).isBetween(3L, 4L);
        assertThat(answers.get(answers.size() - 1)).as("blocked on its own count").isEqualTo(LayerOutcome.BLOCKED);
        assertThat(PairEntry.of(store.read(steady)).attempts(now())).as("a pair seen twice keeps its count through the flood").isEqualTo(2);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(LayerOutcome.COUNTED);
        assertThat(layer(store.apply(steady, admit(3, Long.MAX_VALUE, false), WINDOW).join())).isEqualTo(LayerOutcome.BLOCKED);
    }

    /** The password-spray layer's read: a subject's exact entry from every node, else its realm's shared counter, marked. */
    @Test
    void a_peek_reads_the_exact_entry_else_the_realms_shared_counter() {
        CounterKey bucket = key(CounterKey.Kind.ADDRESS, 77);
        assertThat(node(0).peek(bucket).join()).isNull();
        for (int i = 0; i < 3; i++) {
            node(i % nodes()).apply(bucket, new Change.AdmitAddress(now(), true, Limit.OFF, new Limit(10, Long.MAX_VALUE, WINDOW), 500 + i),
                    WINDOW).join();
        }
        for (int n = 0; n < nodes(); n++) {
            long[] v = node(n).peek(bucket).join();
            assertThat(AddressEntry.of(v).distinct(now())).as("node %d", n).isEqualTo(3);
            assertThat(shared(v)).isFalse();
        }
        CounterStore store = bounded(BOUND, BOUND);
        fillWithAddressesSeenTwice(store, 11_000);
        int onShared = 0;
        for (int i = 0; i < 4 * BOUND; i++) {
            CounterKey fresh = key(CounterKey.Kind.ADDRESS, 12_000 + i);
            long[] written = store.apply(fresh, new Change.AdmitAddress(now(), true, Limit.OFF, new Limit(10, Long.MAX_VALUE, WINDOW),
                    600 + i), WINDOW).join();
            if (shared(written)) {
                onShared++;
                long[] seen = store.peek(fresh).join();
                assertThat(shared(seen)).as("read from the shared counter").isTrue();
                assertThat(AddressEntry.of(seen).distinct(now())).isGreaterThanOrEqualTo(1);
            }
        }
        assertThat(onShared).isPositive();
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
                    assertThat(layer(v)).as("a shared count never blocks").isNotEqualTo(LayerOutcome.BLOCKED);
                    allowed += layer(v) == LayerOutcome.COUNTED ? 1 : 0;
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
        assertThat(layer(solved)).isEqualTo(LayerOutcome.COUNTED);
        // a subject with an exact entry still blocks on its own count
        CounterKey own = held.get(0);
        assertThat(layer(store.apply(own, admitAddress(threshold, 2, true, 0), WINDOW).join())).isEqualTo(LayerOutcome.COUNTED);
        long[] blocked = store.apply(own, admitAddress(threshold, 2, true, 0), WINDOW).join();
        assertThat(shared(blocked)).isFalse();
        assertThat(layer(blocked)).isEqualTo(LayerOutcome.BLOCKED);
    }

    @Test
    void at_the_protective_bound_new_identifiers_are_counted_on_a_shared_counter_and_locks_kept() {
        CounterStore store = bounded(1_000, BOUND);
        CounterKey locked = key(CounterKey.Kind.ACCOUNT, 10);
        store.apply(locked, new Change.Lock(now(), now() + 600_000), 600_000).join();
        List<CounterKey> failed = new ArrayList<>();
        int sharedReservations = 0;
        int sharedBlocks = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.ACCOUNT, 2000 + i);
            long[] v = store.apply(k, reserve(3, Long.MAX_VALUE), WINDOW).join();
            assertThat(v).as("a full protective table still answers").isNotNull();
            if (layer(v) == LayerOutcome.BLOCKED) {
                // the cautious answer: a shared lockout count past its threshold blocks, as an exact one would
                assertThat(shared(v)).as("a new identifier is blocked only on a shared count past its threshold").isTrue();
                sharedBlocks++;
                continue;
            }
            if (shared(v)) {
                sharedReservations++;
                long[] f = store.apply(k, TestChanges.fail(now(), 3, WINDOW, 60_000, 1.0, 0, 0, false, true, true), WINDOW).join();
                assertThat(FailureOutcome.of(f)).as("a failure on a shared count never locks").isNotEqualTo(FailureOutcome.LOCKED);
            } else {
                store.apply(k, fail(3, 60_000), WINDOW).join();
                failed.add(k);
            }
        }
        assertThat(sharedReservations).as("identifiers past the bound counted on shared counters").isPositive();
        assertThat(sharedBlocks).as("shared counts that reached the threshold block").isPositive();
        assertThat(sizesOf(store)[1]).as("protective entries held").isLessThanOrEqualTo(BOUND);
        assertThat(LockoutEntry.of(store.read(locked)).lockRemaining(now())).isPositive();
        for (CounterKey k : failed) {
            assertThat(LockoutEntry.of(store.read(k)).confirmed(now())).as("a failure count is never replaced").isEqualTo(1);
        }
    }

    @Test
    void a_full_used_captcha_table_refuses_new_solutions_and_keeps_every_record() {
        CounterStore store = bounded(1_000, 4 * BOUND); // used captchas get a quarter: BOUND records
        List<CounterKey> recorded = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 10 * BOUND; i++) {
            CounterKey k = key(CounterKey.Kind.USED, 20_000 + i);
            long[] v = store.apply(k, new Change.MarkUsed(now(), now() + WINDOW), WINDOW).join();
            if (v == null) {
                refused++;
            } else {
                assertThat(UsedEntry.firstUse(v)).isTrue();
                recorded.add(k);
            }
        }
        assertThat(refused).as("solutions refused once the used table is full").isPositive();
        assertThat(recorded.size()).isLessThanOrEqualTo((int) BOUND);
        for (CounterKey k : recorded) {
            assertThat(UsedEntry.firstUse(store.apply(k, new Change.MarkUsed(now(), now() + WINDOW), WINDOW).join()))
                    .as("a replay is still recognised").isFalse();
        }
        // accounts do not share the used captchas' room
        assertThat(shared(store.apply(key(CounterKey.Kind.ACCOUNT, 30_000), reserve(3, Long.MAX_VALUE), WINDOW).join())).isFalse();
    }

    interface Attempt<T> {
        T run(int i) throws Exception;
    }

    /** Runs {@code n} calls at once (released together by a barrier) and returns their answers. */
    static <T> List<T> race(int n, Attempt<T> attempt) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CyclicBarrier start = new CyclicBarrier(n);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return attempt.run(index);
                }));
            }
            List<T> answers = new ArrayList<>();
            for (Future<T> f : futures) {
                answers.add(f.get(60, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Realm isolation: a flood of one realm that fills every table (addresses and pairs past their threshold,
     * failures and locks, used captchas) leaves another realm's answers as on an empty store: its newcomers take the
     * place of the flooding realm's entries (that realm holds more than its share of every slot), never a shared
     * count.
     */
    @Test
    void a_flood_of_one_realm_leaves_another_realms_answers_as_on_an_empty_store() {
        CounterStore store = bounded(BOUND, 4 * BOUND);
        String flooder = realm + "-flood";
        int sharedInFlood = 0;
        int refusedInFlood = 0;
        for (int i = 0; i < 20 * BOUND; i++) {
            CounterKey a = CounterKey.of(flooder, CounterKey.Kind.ADDRESS, 0x5eed, i);
            CounterKey p = CounterKey.of(flooder, CounterKey.Kind.PAIR, 0x5eed, i);
            CounterKey acct = CounterKey.of(flooder, CounterKey.Kind.ACCOUNT, 0x5eed, i);
            for (int j = 0; j < 2; j++) {
                sharedInFlood += shared(store.apply(a, admitAddress(1, Long.MAX_VALUE, false, 0), WINDOW).join()) ? 1 : 0;
                sharedInFlood += shared(store.apply(p, admit(1, Long.MAX_VALUE, false), WINDOW).join()) ? 1 : 0;
            }
            long[] r = store.apply(acct, reserve(3, Long.MAX_VALUE), WINDOW).join();
            if (layer(r) == LayerOutcome.COUNTED) {
                store.apply(acct, TestChanges.fail(now(), 3, WINDOW, 60_000, 1.0, 0, 0, false, true, shared(r)), WINDOW).join();
            }
            sharedInFlood += shared(r) ? 1 : 0;
            refusedInFlood += store.apply(CounterKey.of(flooder, CounterKey.Kind.USED, 0x5eed, i),
                    new Change.MarkUsed(now(), now() + WINDOW), WINDOW).join() == null ? 1 : 0;
        }
        assertThat(sharedInFlood).as("the flood filled the tables: its newcomers are counted on shared counters").isPositive();
        assertThat(refusedInFlood).as("the flood filled the used-captcha table").isPositive();

        // the other realm: an exact lockout at threshold 3
        CounterKey account = key(CounterKey.Kind.ACCOUNT, 1);
        for (int i = 1; i <= 3; i++) {
            long[] r = store.apply(account, reserve(3, Long.MAX_VALUE), WINDOW).join();
            assertThat(shared(r)).as("attempt %d counted on the account's own entry", i).isFalse();
            assertThat(layer(r)).isEqualTo(LayerOutcome.COUNTED);
            FailureOutcome f = FailureOutcome.of(store.apply(account, fail(3, 60_000), WINDOW).join());
            assertThat(f).as("failure %d", i).isEqualTo(i < 3 ? FailureOutcome.COUNTED : FailureOutcome.LOCKED);
        }
        assertThat(layer(store.apply(account, new Change.Reserve(now(), true, new Limit(3, Long.MAX_VALUE, WINDOW)), WINDOW).join()))
                .as("locked: refused, solved captcha or not").isEqualTo(LayerOutcome.BLOCKED);
        // a fresh address and pair count from zero, on their own entries
        assertAFreshAddressAndPairCountExactly(store);
        // a solved captcha is accepted once, and its replay refused
        CounterKey solution = key(CounterKey.Kind.USED, 3);
        assertThat(UsedEntry.firstUse(store.apply(solution, new Change.MarkUsed(now(), now() + WINDOW), WINDOW).join())).isTrue();
        assertThat(UsedEntry.firstUse(store.apply(solution, new Change.MarkUsed(now(), now() + WINDOW), WINDOW).join())).isFalse();
        assertThat(sizesOf(store)[0]).as("cheap entries held").isLessThanOrEqualTo(BOUND);
        assertThat(sizesOf(store)[1]).as("protective entries and used captchas held").isLessThanOrEqualTo(4 * BOUND + 4 * BOUND / 4);
    }

    /** A fresh address and pair of the test's realm, at threshold 2: counted on their own entries, blocked at the third. */
    void assertAFreshAddressAndPairCountExactly(CounterStore store) {
        CounterKey address = key(CounterKey.Kind.ADDRESS, 2);
        CounterKey pair = key(CounterKey.Kind.PAIR, 2);
        for (int i = 1; i <= 3; i++) {
            long[] a = store.apply(address, admitAddress(2, Long.MAX_VALUE, false, 0), WINDOW).join();
            long[] p = store.apply(pair, admit(2, Long.MAX_VALUE, false), WINDOW).join();
            assertThat(shared(a) || shared(p)).as("attempt %d counted on its own entries", i).isFalse();
            LayerOutcome expected = i <= 2 ? LayerOutcome.COUNTED : LayerOutcome.BLOCKED;
            assertThat(layer(a)).as("address, attempt %d", i).isEqualTo(expected);
            assertThat(layer(p)).as("pair, attempt %d", i).isEqualTo(expected);
        }
    }

    /** A failed password check joining a password bucket, as the spray layer writes it (threshold 10). */
    static Change bucketFailure(long account) {
        return new Change.AdmitAddress(now(), true, Limit.OFF, new Limit(10, Long.MAX_VALUE, WINDOW), account);
    }

    /**
     * The spray layer's buckets live in a table of their own: a flood of distinct buckets, each failed for two
     * accounts (so that none may make room for another), fills that table alone. The same realm's addresses, pairs
     * and accounts still count exactly on their own entries, and another realm's bucket counts exactly too.
     */
    @Test
    void a_flood_of_password_buckets_fills_their_own_table_and_no_other() {
        CounterStore store = bounded(BOUND, 4 * BOUND); // the spray table gets a quarter of the protective bound: BOUND
        int shared = 0;
        for (int i = 0; i < 20 * BOUND; i++) {
            CounterKey bucket = key(CounterKey.Kind.BUCKET, 100_000 + i);
            for (int account = 1; account <= 2; account++) {
                shared += shared(store.apply(bucket, bucketFailure(account), WINDOW).join()) ? 1 : 0;
            }
        }
        assertThat(shared).as("the flood filled the spray table: its newcomers are counted on shared counters").isPositive();
        // the flooding realm's other layers: a fresh address and pair block at exactly threshold 2, an account locks at 3
        assertAFreshAddressAndPairCountExactly(store);
        CounterKey account = key(CounterKey.Kind.ACCOUNT, 3);
        for (int i = 1; i <= 3; i++) {
            assertThat(shared(store.apply(account, reserve(3, Long.MAX_VALUE), WINDOW).join())).as("reservation %d", i).isFalse();
            assertThat(FailureOutcome.of(store.apply(account, fail(3, 60_000), WINDOW).join()))
                    .isEqualTo(i < 3 ? FailureOutcome.COUNTED : FailureOutcome.LOCKED);
        }
        // another realm's bucket: its distinct accounts counted exactly, on its own entry
        CounterKey theirs = CounterKey.of(realm + "-other", CounterKey.Kind.BUCKET, 0x5eed, 7);
        for (int n = 1; n <= 3; n++) {
            long[] v = store.apply(theirs, bucketFailure(n), WINDOW).join();
            assertThat(shared(v)).as("account %d counted on the bucket's own entry", n).isFalse();
            assertThat(AddressEntry.of(v).distinct(now())).isEqualTo(n);
        }
        assertThat(sizesOf(store)[0]).as("no bucket in the cheap table").isLessThanOrEqualTo(2);
        assertThat(sizesOf(store)[1]).as("protective entries, used captchas and buckets held")
                .isLessThanOrEqualTo(4 * BOUND + 2 * BOUND);
    }

    @Test
    void a_realm_over_its_share_shows_in_its_share_use_and_another_realm_within_its_share_does_not() {
        CounterStore store = bounded(BOUND, 4 * BOUND);
        String flooder = realm + "-share";
        long floodTag = CounterKey.realmTagOf(flooder);
        long mineTag = CounterKey.realmTagOf(realm);
        org.junit.jupiter.api.Assumptions.assumeFalse(Double.isNaN(store.shareUse(floodTag, 1)), "a store that keeps share figures");
        for (int i = 0; i < 20 * BOUND; i++) {
            CounterKey k = CounterKey.of(flooder, CounterKey.Kind.ACCOUNT, 0x5eed, i);
            long[] r = store.apply(k, reserve(1000, Long.MAX_VALUE), WINDOW).join();
            store.apply(k, TestChanges.fail(now(), 1000, WINDOW, 60_000, 1.0, 0, 0, false, true, shared(r)), WINDOW).join();
        }
        for (int i = 0; i < 3; i++) {
            store.apply(key(CounterKey.Kind.ACCOUNT, i), reserve(1000, Long.MAX_VALUE), WINDOW).join();
        }
        assertThat(store.shareUse(floodTag, 1)).as("the flooding realm holds its slots: its share and more").isGreaterThan(0.9);
        assertThat(store.shareUse(mineTag, 1)).as("a realm with a few entries, well within its share").isLessThan(0.5);
        assertThat(store.shareUse(mineTag, 0)).as("a table the realm never wrote").isZero();
    }

    static CompletableFuture<long[]> done(long[] v) {
        return CompletableFuture.completedFuture(v);
    }
}
