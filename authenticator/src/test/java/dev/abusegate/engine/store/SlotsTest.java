package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The slot layout and its rules, on one slot ({@link Slots#apply} as a pure function): what may make room, the
 * shared counters (never under-count, never block, never lock), used captchas without room refused.
 */
class SlotsTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final long WINDOW = 600_000;
    private static final int WAYS = 4;
    private static final long REALM = 0x1234;

    private long[] slot;

    private long[] apply(CounterKey.Kind kind, long subject, int code, Slots.Policy policy, long... args) {
        slot = Slots.apply(slot, REALM, kind.ordinal(), 0, 7, subject, code, args, WINDOW, WAYS, policy);
        return Slots.result(slot);
    }

    private long[] pair(long subject, long threshold, long band, boolean solved) {
        return apply(CounterKey.Kind.PAIR, subject, Entries.ADMIT_COUNTER, Slots.Policy.CHEAP, NOW, solved ? 1 : 0, threshold, band, WINDOW);
    }

    private long[] address(long subject, long threshold, long band, boolean solved) {
        return apply(CounterKey.Kind.ADDRESS, subject, Entries.ADMIT_ADDRESS, Slots.Policy.CHEAP, NOW, solved ? 1 : 0,
                threshold, band, WINDOW, 0, 0, 0, 0);
    }

    private long[] reserve(long subject, boolean solved) {
        return apply(CounterKey.Kind.ACCOUNT, subject, Entries.RESERVE, Slots.Policy.PROTECTIVE, NOW, solved ? 1 : 0, 3, 2, WINDOW);
    }

    private long[] fail(long subject, boolean shared) {
        return apply(CounterKey.Kind.ACCOUNT, subject, Entries.FAIL, Slots.Policy.PROTECTIVE, NOW, 3, WINDOW, 60_000,
                Double.doubleToLongBits(1.0), 0, 0, 0, 1, shared ? 1 : 0);
    }

    private long[] find(CounterKey.Kind kind, long subject) {
        return Slots.find(slot, REALM, kind.ordinal(), 0, 7, subject, NOW);
    }

    private static boolean shared(long[] v) {
        return (Entries.answer(v) & Slots.SHARED) != 0;
    }

    private static int layer(long[] v) {
        return Entries.answer(v) & 3;
    }

    @Test
    void a_slot_never_holds_more_than_its_ways_of_exact_entries() {
        for (int i = 0; i < 50; i++) {
            pair(i, 10, Long.MAX_VALUE, false);
            pair(i, 10, Long.MAX_VALUE, false);
            assertThat(Slots.exactEntries(slot, NOW)).isLessThanOrEqualTo(WAYS);
        }
        assertThat(Slots.sharedCounters(slot, NOW)).isEqualTo(1);
    }

    @Test
    void a_newcomer_replaces_only_an_entry_seen_once_and_never_one_seen_twice() {
        pair(1, 10, Long.MAX_VALUE, false);
        pair(1, 10, Long.MAX_VALUE, false); // seen twice
        for (int i = 2; i <= WAYS; i++) {
            pair(i, 10, Long.MAX_VALUE, false); // seen once
        }
        for (int i = 100; i < 120; i++) {
            assertThat(shared(pair(i, 10, Long.MAX_VALUE, false))).as("room made from an entry seen once").isFalse();
            assertThat(Entries.count(find(CounterKey.Kind.PAIR, 1), NOW)).as("the entry seen twice stays").isEqualTo(2);
        }
    }

    @Test
    void an_entry_in_the_band_or_blocked_is_never_replaced() {
        // threshold 1: the first attempt passes, the second is blocked (worth more than one attempt)
        pair(1, 1, Long.MAX_VALUE, false);
        assertThat(layer(pair(1, 1, Long.MAX_VALUE, false))).isEqualTo(Entries.BLOCK);
        // band from 1, no captcha: the second attempt is in the band (counts nothing, still one attempt seen)
        pair(2, 10, 1, false);
        assertThat(layer(pair(2, 10, 1, false))).isEqualTo(Entries.BAND);
        // an address with two identifiers
        address(3, 10, Long.MAX_VALUE, false);
        apply(CounterKey.Kind.ADDRESS, 3, Entries.ADMIT_ADDRESS, Slots.Policy.CHEAP, NOW, 0, 10, Long.MAX_VALUE, WINDOW, 10,
                Long.MAX_VALUE, WINDOW, 99);
        pair(4, 10, Long.MAX_VALUE, false);
        for (int i = 100; i < 120; i++) {
            pair(i, 10, Long.MAX_VALUE, false);
        }
        assertThat(find(CounterKey.Kind.PAIR, 1)).as("blocked").isNotNull();
        assertThat(find(CounterKey.Kind.PAIR, 2)).as("in the band").isNotNull();
        assertThat(find(CounterKey.Kind.ADDRESS, 3)).as("two attempts").isNotNull();
        assertThat(find(CounterKey.Kind.PAIR, 4)).as("seen once: made room").isNull();
    }

    @Test
    void expired_entries_make_room_first() {
        for (int i = 0; i < WAYS; i++) {
            apply(CounterKey.Kind.PAIR, i, Entries.ADMIT_COUNTER, Slots.Policy.CHEAP, NOW - WINDOW - 1, 0, 10, Long.MAX_VALUE, WINDOW);
            apply(CounterKey.Kind.PAIR, i, Entries.ADMIT_COUNTER, Slots.Policy.CHEAP, NOW - WINDOW - 1, 0, 10, Long.MAX_VALUE, WINDOW);
        }
        assertThat(shared(pair(50, 10, Long.MAX_VALUE, false))).isFalse();
        assertThat(Slots.exactEntries(slot, NOW)).isEqualTo(1);
    }

    @Test
    void a_shared_count_never_under_counts_never_blocks_and_lets_a_solved_captcha_through_counted() {
        for (int i = 0; i < WAYS; i++) {
            pair(i, 100, Long.MAX_VALUE, false);
            pair(i, 100, Long.MAX_VALUE, false);
        }
        List<Integer> answers = new ArrayList<>();
        for (int i = 10; i < 30; i++) {
            long[] v = pair(i, 3, Long.MAX_VALUE, false);
            assertThat(shared(v)).isTrue();
            answers.add(layer(v));
        }
        // 20 subjects, one attempt each, threshold 3: an exact count would let all 20 through; the shared one
        // counts them together and asks for a captcha where it would block
        assertThat(answers.subList(0, 3)).containsOnly(Entries.ALLOW);
        assertThat(answers.subList(3, answers.size())).containsOnly(Entries.BAND);
        long[] counter = Slots.shared(slot, CounterKey.Kind.PAIR.ordinal(), NOW);
        assertThat(Entries.count(counter, NOW)).as("every counted attempt is in the shared count").isGreaterThanOrEqualTo(3);
        long[] solved = pair(40, 3, Long.MAX_VALUE, true);
        assertThat(layer(solved)).isEqualTo(Entries.ALLOW);
        assertThat(Entries.count(Slots.shared(slot, CounterKey.Kind.PAIR.ordinal(), NOW), NOW))
                .as("a solved attempt is counted").isEqualTo(Entries.count(counter, NOW) + 1);
    }

    @Test
    void while_a_shared_counter_lives_a_newcomer_is_counted_there_even_if_room_came_free() {
        for (int i = 0; i < WAYS; i++) {
            pair(i, 100, Long.MAX_VALUE, false);
            pair(i, 100, Long.MAX_VALUE, false);
        }
        assertThat(shared(pair(10, 100, Long.MAX_VALUE, false))).isTrue();
        slot = Slots.remove(slot, REALM, CounterKey.Kind.PAIR.ordinal(), 0, 7, 0); // an operator's clear frees a way
        assertThat(shared(pair(10, 100, Long.MAX_VALUE, false))).as("it was counted on the shared counter before").isTrue();
        assertThat(shared(address(11, 100, Long.MAX_VALUE, false))).as("another kind takes the free way").isFalse();
    }

    @Test
    void protective_entries_are_never_replaced_and_a_failure_on_a_shared_count_never_locks() {
        for (int i = 0; i < WAYS; i++) {
            reserve(i, false);
            fail(i, false);
        }
        for (int i = 10; i < 20; i++) {
            long[] r = reserve(i, false);
            assertThat(shared(r)).isTrue();
            if (layer(r) == Entries.ALLOW) {
                assertThat(Entries.answer(fail(i, true)) & 3).isNotEqualTo(Entries.LOCKED);
            }
        }
        for (int i = 0; i < WAYS; i++) {
            assertThat(Entries.confirmed(find(CounterKey.Kind.ACCOUNT, i), NOW)).as("failures kept").isEqualTo(1);
        }
        // the shared count is past its threshold: never blocked, a captcha asked for; a solved one reserves
        assertThat(layer(reserve(30, false))).isEqualTo(Entries.BAND);
        long before = Entries.units(Slots.shared(slot, CounterKey.Kind.ACCOUNT.ordinal(), NOW), NOW);
        assertThat(layer(reserve(30, true))).isEqualTo(Entries.ALLOW);
        assertThat(Entries.units(Slots.shared(slot, CounterKey.Kind.ACCOUNT.ordinal(), NOW), NOW)).isEqualTo(before + 1);
        // a right password on the shared count gives its reservation back and clears nobody's failures
        long confirmed = Entries.confirmed(Slots.shared(slot, CounterKey.Kind.ACCOUNT.ordinal(), NOW), NOW);
        apply(CounterKey.Kind.ACCOUNT, 30, Entries.SUCCEED, Slots.Policy.PROTECTIVE, NOW, 1, 0, 1);
        long[] after = Slots.shared(slot, CounterKey.Kind.ACCOUNT.ordinal(), NOW);
        assertThat(Entries.confirmed(after, NOW)).isEqualTo(confirmed);
        assertThat(Entries.units(after, NOW)).isEqualTo(before);
    }

    @Test
    void a_used_captcha_without_room_is_refused_and_every_record_kept() {
        for (int i = 0; i < WAYS; i++) {
            assertThat(Entries.answer(apply(CounterKey.Kind.USED, i, Entries.MARK_USED, Slots.Policy.USED, NOW, NOW + WINDOW)))
                    .isEqualTo(1);
        }
        assertThat(apply(CounterKey.Kind.USED, 99, Entries.MARK_USED, Slots.Policy.USED, NOW, NOW + WINDOW)).isNull();
        for (int i = 0; i < WAYS; i++) {
            assertThat(Entries.answer(apply(CounterKey.Kind.USED, i, Entries.MARK_USED, Slots.Policy.USED, NOW, NOW + WINDOW)))
                    .as("a replay").isZero();
        }
        assertThat(Slots.sharedCounters(slot, NOW)).isZero();
    }

    @Test
    void a_value_handed_out_is_a_copy_and_the_slot_given_is_never_changed() {
        pair(1, 10, Long.MAX_VALUE, false);
        long[] before = slot;
        long[] copy = before.clone();
        long[] v = pair(1, 10, Long.MAX_VALUE, false);
        assertThat(before).isEqualTo(copy);
        v[1] = 99;
        assertThat(Entries.count(find(CounterKey.Kind.PAIR, 1), NOW)).isEqualTo(2);
    }

    @Test
    void the_slot_hash_depends_on_every_part_of_the_key_and_on_the_table_key() {
        SlotHash a = new SlotHash(1, 2);
        SlotHash b = new SlotHash(1, 3);
        CounterKey k = CounterKey.of("realm", CounterKey.Kind.PAIR, 5, 6);
        assertThat(a.slot(k, 1L << 36)).isNotEqualTo(b.slot(k, 1L << 36));
        assertThat(a.slot(k, 1L << 36)).isNotEqualTo(a.slot(CounterKey.of("realm", CounterKey.Kind.PAIR, 5, 7), 1L << 36));
        assertThat(a.slot(k, 1L << 36)).isNotEqualTo(a.slot(CounterKey.of("realm", CounterKey.Kind.PAIR, 4, 6), 1L << 36));
        assertThat(a.slot(k, 1L << 36)).isNotEqualTo(a.slot(CounterKey.of("realm", CounterKey.Kind.ADDRESS, 5, 6), 1L << 36));
        assertThat(a.slot(k, 1L << 36)).isNotEqualTo(a.slot(CounterKey.of("other", CounterKey.Kind.PAIR, 5, 6), 1L << 36));
        // spread: 8,000 keys over 100 slots, none far from 80
        int[] hits = new int[100];
        for (int i = 0; i < 8_000; i++) {
            hits[(int) a.slot(CounterKey.of("realm", CounterKey.Kind.ADDRESS, 0, i), 100)]++;
        }
        for (int h : hits) {
            assertThat(h).isBetween(40, 130);
        }
    }
}
