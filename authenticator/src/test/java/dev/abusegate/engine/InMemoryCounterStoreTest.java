package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store against a plain model of the port's contract, over long random runs: counters and
 * their confirmed units, sets growing past what fits in an entry, locks, expiry, removals inside clusters,
 * growth and purges.
 */
class InMemoryCounterStoreTest {

    /** The port's contract, written as simply as possible. */
    private static final class Model {
        static final class E {
            String type;
            long value;
            long confirmed;
            TreeSet<Long> members = new TreeSet<>();
            long expires;
        }

        final Map<CounterKey, E> map = new HashMap<>();

        E live(CounterKey k, String type, long now) {
            E e = map.get(k);
            return e != null && e.expires > now && e.type.equals(type) ? e : null;
        }

        long count(CounterKey k, long now) {
            E e = live(k, "c", now);
            return e == null ? 0 : e.value;
        }

        long increment(CounterKey k, long window, long now) {
            E e = live(k, "c", now);
            if (e == null) {
                e = new E();
                e.type = "c";
                map.put(k, e);
            }
            e.value++;
            e.expires = now + window;
            return e.value;
        }

        void decrement(CounterKey k, long window, long now) {
            E e = map.get(k);
            if (e == null) {
                return;
            }
            if (!e.type.equals("c") || e.expires <= now || e.value <= 1) {
                map.remove(k);
                return;
            }
            e.value--;
            e.confirmed = Math.min(e.confirmed, e.value);
            e.expires = now + window;
        }

        long confirm(CounterKey k, long window, long now) {
            E e = live(k, "c", now);
            if (e == null) {
                return 0;
            }
            e.confirmed = Math.min(e.confirmed + 1, e.value);
            e.expires = now + window;
            return e.confirmed;
        }

        void release(CounterKey k, long unconfirmed, long window, long now) {
            E e = live(k, "c", now);
            if (e == null) {
                return;
            }
            long left = e.value - e.confirmed - unconfirmed;
            if (left <= 0) {
                map.remove(k);
                return;
            }
            e.value = left;
            e.confirmed = 0;
            e.expires = now + window;
        }

        CounterStore.DistinctView distinct(CounterKey k, long m, long now) {
            E e = live(k, "s", now);
            return e == null ? CounterStore.DistinctView.EMPTY : new CounterStore.DistinctView(e.members.size(), e.members.contains(m));
        }

        CounterStore.DistinctView addDistinct(CounterKey k, long m, int cap, long window, long now) {
            E e = live(k, "s", now);
            if (e == null) {
                e = new E();
                e.type = "s";
                map.put(k, e);
            }
            if (!e.members.contains(m) && e.members.size() < cap) {
                e.members.add(m);
            }
            e.expires = now + window;
            return new CounterStore.DistinctView(e.members.size(), e.members.contains(m));
        }

        void lock(CounterKey k, long duration, long now) {
            E e = new E();
            e.type = "l";
            e.expires = now + duration;
            map.put(k, e);
        }

        long lockRemaining(CounterKey k, long now) {
            E e = map.get(k);
            return e != null && e.type.equals("l") ? Math.max(0, e.expires - now) : 0;
        }
    }

    @Test
    void behaves_like_the_model_over_long_random_runs() {
        for (long seed = 1; seed <= 6; seed++) {
            runAgainstTheModel(seed, seed % 2 == 0 ? 40 : 3000, 400, false);
        }
    }

    /**
     * The runs above seldom grow a set past its three inline members: keys expire between visits. Here windows
     * are long and most calls are set calls, so sets often move out of their entry and back.
     */
    @Test
    void sets_beyond_the_inline_members_behave_like_the_model() {
        for (long seed = 1; seed <= 4; seed++) {
            assertThat(runAgainstTheModel(seed, 100, 20_000, true)).as("reads of sets of more than three members").isGreaterThan(1_000);
        }
    }

    /** Random calls on store and model alike; answers the number of set reads that met more than three members. */
    private static int runAgainstTheModel(long seed, int subjects, int maxWindow, boolean mostlySets) {
        int beyondInline = 0;
        SplittableRandom r = new SplittableRandom(seed);
        InMemoryCounterStore store = new InMemoryCounterStore();
        Model model = new Model();
        // few subjects with several kinds each, in two realms: clusters, shared homes, removals in the middle
        List<CounterKey> keys = new ArrayList<>();
        for (int i = 0; i < subjects; i++) {
            for (String realm : new String[] {"a", "b"}) {
                long hi = r.nextLong(8);
                long lo = r.nextLong(subjects);
                for (CounterKey.Kind kind : new CounterKey.Kind[] {CounterKey.Kind.IP, CounterKey.Kind.IDS, CounterKey.Kind.FAIL,
                        CounterKey.Kind.LOCK}) {
                    keys.add(CounterKey.of(realm, kind, hi, lo));
                }
            }
        }
        long now = 1_000_000;
        for (int step = 0; step < 200_000; step++) {
            CounterKey k = keys.get(r.nextInt(keys.size()));
            now += r.nextInt(3);
            long window = 1 + r.nextInt(maxWindow);
            long m = r.nextInt(12) - 6;
            String where = "seed " + seed + " step " + step + " " + k;
            int call = mostlySets && r.nextInt(4) != 0 ? 4 + r.nextInt(3) : r.nextInt(12);
            if (call == 4 && model.distinct(k, m, now).size() > 3) {
                beyondInline++;
            }
            switch (call) {
                case 0 -> assertThat(store.count(k, now)).as(where).isEqualTo(model.count(k, now));
                case 1, 2 -> assertThat(store.increment(k, window, now)).as(where).isEqualTo(model.increment(k, window, now));
                case 3 -> {
                    store.decrement(k, window, now);
                    model.decrement(k, window, now);
                }
                case 4 -> assertThat(store.distinct(k, m, now)).as(where).isEqualTo(model.distinct(k, m, now));
                case 5, 6 -> {
                    int cap = 1 + r.nextInt(9);
                    assertThat(store.addDistinct(k, m, cap, window, now)).as(where).isEqualTo(model.addDistinct(k, m, cap, window, now));
                }
                case 7 -> {
                    store.lock(k, window, now);
                    model.lock(k, window, now);
                }
                case 8 -> assertThat(store.lockRemainingMillis(k, now)).as(where).isEqualTo(model.lockRemaining(k, now));
                case 9 -> assertThat(store.confirm(k, window, now)).as(where).isEqualTo(model.confirm(k, window, now));
                case 10 -> {
                    long unconfirmed = r.nextInt(2);
                    store.release(k, unconfirmed, window, now);
                    model.release(k, unconfirmed, window, now);
                }
                default -> {
                    if (r.nextInt(50) == 0) {
                        store.purgeExpired(now);
                    } else {
                        store.clear(k);
                        model.map.remove(k);
                    }
                }
            }
        }
        // every key, read every way, agrees at the end
        for (CounterKey k : keys) {
            assertThat(store.count(k, now)).as(k.toString()).isEqualTo(model.count(k, now));
            assertThat(store.distinct(k, 0, now)).as(k.toString()).isEqualTo(model.distinct(k, 0, now));
            assertThat(store.lockRemainingMillis(k, now)).as(k.toString()).isEqualTo(model.lockRemaining(k, now));
        }
        return beyondInline;
    }

    @Test
    void confirmed_units_never_outnumber_the_units() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey k = CounterKey.of("r", CounterKey.Kind.FAIL, 1, 2);
        for (int i = 0; i < 3; i++) {
            store.increment(k, 1_000, 10);
        }
        assertThat(store.confirm(k, 1_000, 10)).isEqualTo(1);
        assertThat(store.confirm(k, 1_000, 10)).isEqualTo(2);
        assertThat(store.confirm(k, 1_000, 10)).isEqualTo(3);
        assertThat(store.confirm(k, 1_000, 10)).as("no more than the units").isEqualTo(3);
        store.decrement(k, 1_000, 10);
        store.decrement(k, 1_000, 10); // one unit left, so one confirmed
        store.increment(k, 1_000, 10);
        store.increment(k, 1_000, 10);
        assertThat(store.count(k, 10)).isEqualTo(3);
        assertThat(store.confirm(k, 1_000, 10)).as("the decrements lowered the confirmed units").isEqualTo(2);
        store.release(k, 1, 1_000, 10); // 3 units, 2 confirmed: one unconfirmed unit given back, none left
        assertThat(store.count(k, 10)).isZero();
        assertThat(store.confirm(k, 1_000, 10)).as("absent stays absent").isZero();
    }

    @Test
    void release_keeps_the_unconfirmed_units_of_others() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey k = CounterKey.of("r", CounterKey.Kind.FAIL, 3, 4);
        for (int i = 0; i < 4; i++) {
            store.increment(k, 1_000, 10);
        }
        store.confirm(k, 1_000, 10);
        store.release(k, 1, 1_000, 500); // 4 units, 1 confirmed: the releaser's and the confirmed go
        assertThat(store.count(k, 1_400)).as("two others still being checked").isEqualTo(2);
        assertThat(store.count(k, 1_500)).as("the release refreshed the expiry").isZero();
        store.increment(k, 1_000, 2_000);
        store.increment(k, 1_000, 2_000);
        store.confirm(k, 1_000, 2_000);
        store.release(k, 0, 1_000, 2_000); // only the confirmed unit goes
        assertThat(store.count(k, 2_000)).isEqualTo(1);
    }

    @Test
    void lock_free_reads_never_see_a_torn_or_stale_state_while_tables_grow() throws Exception {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey watched = CounterKey.of("r", CounterKey.Kind.IP, 7, 7);
        int increments = 200_000;
        java.util.concurrent.atomic.AtomicReference<String> problem = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < increments; i++) {
                store.increment(watched, 1_000_000, 1);
                // new keys in every table: they grow and are rebuilt under the readers' feet
                store.increment(CounterKey.of("r", CounterKey.Kind.PAIR, i, ~i), 1_000_000, 1);
                store.addDistinct(CounterKey.of("r", CounterKey.Kind.IDS, 7, 7), i % 50, 21, 1_000_000, 1);
            }
            done.set(true);
        });
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            readers.add(new Thread(() -> {
                long last = 0;
                while (!done.get()) {
                    long now = store.count(watched, 2);
                    if (now < last || now > increments) {
                        problem.compareAndSet(null, "read " + now + " after " + last);
                    }
                    last = now;
                    CounterStore.DistinctView v = store.distinct(CounterKey.of("r", CounterKey.Kind.IDS, 7, 7), 3, 2);
                    if (v.size() < 0 || v.size() > 21 || v.size() > 3 && !v.contains()) {
                        problem.compareAndSet(null, "set view " + v);
                    }
                }
            }));
        }
        readers.forEach(Thread::start);
        writer.start();
        writer.join();
        for (Thread t : readers) {
            t.join();
        }
        assertThat(problem.get()).isNull();
        assertThat(store.count(watched, 2)).isEqualTo(increments);
    }

    @Test
    void a_lock_free_read_of_a_small_set_never_reports_a_state_that_did_not_exist() throws Exception {
        // A small set lives inside the table, and its fourth member moves it out into an array of its own; a
        // reader racing the writer must still see only real states, and never fail.
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey k = CounterKey.of("r", CounterKey.Kind.IDS, 1, 1);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Object> bad = new java.util.concurrent.atomic.AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                while (!done.get()) {
                    CounterStore.DistinctView v = store.distinct(k, 5, 2);
                    boolean real = v.size() == 0 && !v.contains() || v.size() >= 1 && v.size() <= 4 && v.contains();
                    if (!real) {
                        bad.compareAndSet(null, v);
                    }
                }
            } catch (RuntimeException e) {
                bad.compareAndSet(null, e);
            }
        });
        reader.start();
        for (int i = 0; i < 2_000_000 && bad.get() == null; i++) {
            store.clear(k);
            store.addDistinct(k, 5, 21, 1_000_000, 1);
            store.addDistinct(k, 3, 21, 1_000_000, 1); // shifts 5 one place up inside the entry
            store.addDistinct(k, 1, 21, 1_000_000, 1);
            store.addDistinct(k, 0, 21, 1_000_000, 1); // the fourth: the members leave the entry
        }
        done.set(true);
        reader.join();
        assertThat(bad.get()).as("a view of a set that never held it that way").isNull();
    }

    @Test
    void expired_entries_are_dropped_when_the_table_grows_or_is_purged() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        for (int i = 0; i < 100_000; i++) {
            store.increment(CounterKey.of("r", CounterKey.Kind.PAIR, i, i), 10, i);
        }
        assertThat(store.size()).as("only recent entries are still held").isLessThan(100_000);
        store.purgeExpired(1_000_000);
        assertThat(store.size()).isZero();
        assertThat(store.count(CounterKey.of("r", CounterKey.Kind.PAIR, 99_999, 99_999), 100_000)).isZero();
    }

    @Test
    void a_new_key_takes_over_the_slot_of_an_expired_or_cleared_one_on_its_way() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        // one subject, three kinds: the same home slot
        CounterKey counter = CounterKey.of("r", CounterKey.Kind.IP, 1, 2);
        CounterKey set = CounterKey.of("r", CounterKey.Kind.IDS, 1, 2);
        CounterKey lock = CounterKey.of("r", CounterKey.Kind.LOCK, 1, 2);
        for (long m = 1; m <= 5; m++) { // more members than fit in an entry
            store.addDistinct(set, m, 10, 10, 0);
        }
        assertThat(store.size()).isEqualTo(1);

        store.increment(counter, 100, 20); // the set has expired: its slot is reused
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.count(counter, 20)).isEqualTo(1);
        assertThat(store.distinct(set, 3, 20)).isEqualTo(CounterStore.DistinctView.EMPTY);

        store.addDistinct(set, 9, 10, 10, 20); // a new set starts empty, nothing left of the old members
        assertThat(store.distinct(set, 3, 21)).isEqualTo(new CounterStore.DistinctView(1, false));
        assertThat(store.size()).isEqualTo(2);

        store.clear(counter);
        store.lock(lock, 50, 22); // takes the cleared counter's slot
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.lockRemainingMillis(lock, 22)).isEqualTo(50);
        assertThat(store.count(counter, 22)).isZero();
        assertThat(store.distinct(set, 9, 22)).isEqualTo(new CounterStore.DistinctView(1, true));
    }

    @Test
    void keys_of_one_subject_in_two_realms_or_kinds_never_share_an_entry() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey a = CounterKey.of("realm-a", CounterKey.Kind.FAIL, 1, 2);
        CounterKey b = CounterKey.of("realm-b", CounterKey.Kind.FAIL, 1, 2);
        store.increment(a, 1000, 0);
        store.increment(a, 1000, 0);
        store.lock(a.as(CounterKey.Kind.LOCK), 1000, 0);
        assertThat(store.count(a, 1)).isEqualTo(2);
        assertThat(store.count(b, 1)).isZero();
        assertThat(store.lockRemainingMillis(a.as(CounterKey.Kind.LOCK), 1)).isEqualTo(999);
        assertThat(store.lockRemainingMillis(b.as(CounterKey.Kind.LOCK), 1)).isZero();
        assertThat(store.count(a.as(CounterKey.Kind.LOCK), 1)).as("a lock is not a counter").isZero();
    }
}
