package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The entry layout's edges: the type in META's top bits, three inline members, the fourth one moving out.
 * {@link InMemoryCounterStoreTest}'s general model runs seldom grow a set past three members (keys expire
 * between visits), so these tests go there on purpose; its set-heavy model run and its lock-free read race do too.
 */
class InMemoryCounterStoreLayoutTest {

    private static final long W = 1_000_000;

    @Test
    void a_set_crossing_the_inline_boundary_keeps_every_member_whatever_the_insertion_order() {
        long[][] orders = {{1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}, {3, 1, 2, 6, 4, 5}, {1, 3, 2, 0, 7, 4}, {5, 1, 3, 4, 2, 6}};
        for (long[] order : orders) {
            InMemoryCounterStore store = new InMemoryCounterStore();
            CounterKey k = CounterKey.of("r", CounterKey.Kind.IDS, 4, 2);
            TreeSet<Long> model = new TreeSet<>();
            for (long m : order) {
                model.add(m);
                assertThat(store.addDistinct(k, m, 9, W, 1)).isEqualTo(CounterStore.DistinctView.of(model.size(), true));
                for (long q = -1; q <= 8; q++) {
                    assertThat(store.distinct(k, q, 2)).as("order %s, after %s, member %s", java.util.Arrays.toString(order), m, q)
                            .isEqualTo(CounterStore.DistinctView.of(model.size(), model.contains(q)));
                }
            }
        }
    }

    @Test
    void one_key_changes_type_through_every_size_and_nothing_leaks_between_types() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        CounterKey k = CounterKey.of("r", CounterKey.Kind.FAIL, 9, 9);
        for (int n = 1; n <= 6; n++) {
            long now = 100L * n;
            for (int i = 0; i < 3; i++) {
                store.increment(k, 50, now);
            }
            assertThat(store.confirm(k, 50, now)).isEqualTo(1);
            // counter -> set: the set starts empty, its first member overwrites CONFIRMED
            for (long m = 1; m <= n; m++) {
                store.addDistinct(k, m * 1000, 9, 50, now);
            }
            assertThat(store.count(k, now)).isZero();
            assertThat(store.distinct(k, 1000, now)).isEqualTo(CounterStore.DistinctView.of(n, true));
            assertThat(store.distinct(k, 0, now)).isEqualTo(CounterStore.DistinctView.of(n, false));
            // set -> lock
            store.lock(k, 30, now);
            assertThat(store.lockRemainingMillis(k, now)).isEqualTo(30);
            assertThat(store.distinct(k, 1000, now)).isEqualTo(CounterStore.DistinctView.EMPTY);
            assertThat(store.count(k, now)).isZero();
            // lock -> counter: confirmed units start at 0, not at a member's value
            assertThat(store.increment(k, 50, now)).isEqualTo(1);
            assertThat(store.confirm(k, 50, now)).isEqualTo(1);
            store.release(k, 0, 50, now);
            assertThat(store.count(k, now)).isZero();
            // counter -> set again, then cleared, then a new set
            for (long m = 1; m <= n; m++) {
                store.addDistinct(k, m, 9, 50, now);
            }
            store.clear(k);
            assertThat(store.distinct(k, 1, now)).isEqualTo(CounterStore.DistinctView.EMPTY);
            assertThat(store.remainingMillis(k, now)).isZero();
            assertThat(store.addDistinct(k, 77, 9, 50, now)).isEqualTo(CounterStore.DistinctView.of(1, true));
            assertThat(store.distinct(k, 1, now)).isEqualTo(CounterStore.DistinctView.of(1, false));
            store.clear(k);
        }
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void sets_of_every_size_survive_growth_and_purges() {
        InMemoryCounterStore store = new InMemoryCounterStore();
        int sets = 3000;
        for (int i = 0; i < sets; i++) {
            CounterKey k = CounterKey.of("r", CounterKey.Kind.IDS, i, ~i);
            for (int m = 0; m < i % 7; m++) {
                store.addDistinct(k, i * 10L + m, 9, W, 1);
            }
            // a counter, a lock and a cleared entry of the same subject: every type bit pattern in the table
            store.increment(k.as(CounterKey.Kind.IP), W, 1);
            store.lock(k.as(CounterKey.Kind.LOCK), W, 1);
            store.increment(k.as(CounterKey.Kind.FAIL), W, 1);
            store.clear(k.as(CounterKey.Kind.FAIL));
            if (i % 500 == 0) {
                store.purgeExpired(2);
            }
        }
        store.purgeExpired(2);
        for (int i = 0; i < sets; i++) {
            CounterKey k = CounterKey.of("r", CounterKey.Kind.IDS, i, ~i);
            int size = i % 7;
            for (int m = -1; m <= 7; m++) {
                assertThat(store.distinct(k, i * 10L + m, 3)).as("set %s member %s", i, m)
                        .isEqualTo(size == 0 ? CounterStore.DistinctView.EMPTY : CounterStore.DistinctView.of(size, m >= 0 && m < size));
            }
            assertThat(store.count(k.as(CounterKey.Kind.IP), 3)).isEqualTo(1);
            assertThat(store.lockRemainingMillis(k.as(CounterKey.Kind.LOCK), 3)).isEqualTo(W - 2);
            assertThat(store.count(k.as(CounterKey.Kind.FAIL), 3)).isZero();
        }
    }

    @Test
    void the_largest_realm_number_and_shape_stay_below_the_type_bits_and_survive_a_rebuild() {
        CounterKey top = new CounterKey("r", Integer.MAX_VALUE, CounterKey.Kind.values()[CounterKey.Kind.values().length - 1],
                CounterKey.IPV6 + 128, -1L, -1L);
        assertThat(top.meta()).isLessThan(1L << 56).isPositive();
        InMemoryCounterStore store = new InMemoryCounterStore();
        List<CounterKey> keys = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            keys.add(new CounterKey("r", Integer.MAX_VALUE - i % 3, CounterKey.Kind.IDS, CounterKey.IPV6 + 128 - i % 5, i, -i));
        }
        for (CounterKey k : keys) {
            for (long m = 0; m < 4; m++) {
                store.addDistinct(k, m, 9, W, 1);
            }
        }
        store.purgeExpired(2);
        for (CounterKey k : keys) {
            assertThat(store.distinct(k, 3, 3)).as(k.toString()).isEqualTo(CounterStore.DistinctView.of(4, true));
        }
    }
}
