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

    private long[] apply(CounterKey.Kind kind, long subject, Change change, Slots.Policy policy) {
        slot = Slots.apply(slot, new Subject(REALM, kind.ordinal(), 0, 7, subject), change, WINDOW, new TableShape(WAYS, policy));
        return Slots.result(slot);
    }

    private long[] pair(long subject, long threshold, long band, boolean solved) {
        return apply(CounterKey.Kind.PAIR, subject, new Change.AdmitPair(NOW, solved, new Limit(threshold, band, WINDOW)), Slots.Policy.CHEAP);
    }

    private long[] address(long subject, long threshold, long band, boolean solved) {
        return apply(CounterKey.Kind.ADDRESS, subject, new Change.AdmitAddress(NOW, solved, new Limit(threshold, band, WINDOW), Limit.OFF, 0), Slots.Policy.CHEAP);
    }

    private long[] reserve(long subject, boolean solved) {
        return apply(CounterKey.Kind.ACCOUNT, subject, new Change.Reserve(NOW, solved, new Limit(3, 2, WINDOW)), Slots.Policy.PROTECTIVE);
    }

    private long[] fail(long subject, boolean shared) {
        return apply(CounterKey.Kind.ACCOUNT, subject, TestChanges.fail(NOW, 3, WINDOW, 60_000, 1.0, 0, 0, false, true, shared), Slots.Policy.PROTECTIVE);
    }

    private long[] find(CounterKey.Kind kind, long subject) {
        return Slots.find(slot, new Subject(REALM, kind.ordinal(), 0, 7, subject), NOW);
    }

    private static boolean shared(long[] v) {
        return AdmissionAnswer.of(v).shared();
    }

    private static LayerOutcome layer(long[] v) {
        return AdmissionAnswer.of(v).outcome();
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
            assertThat(PairEntry.of(find(CounterKey.Kind.PAIR, 1)).attempts(NOW)).as("the entry seen twice stays").isEqualTo(2);
        }
    }

    @Test
    void an_entry_in_the_band_or_blocked_is_never_replaced() {
        // threshold 1: the first attempt passes, the second is blocked (worth more than one attempt)
        pair(1, 1, Long.MAX_VALUE, false);
        assertThat(layer(pair(1, 1, Long.MAX_VALUE, false))).isEqualTo(LayerOutcome.BLOCKED);
        // band from 1, no captcha: the second attempt is in the band (counts nothing, still one attempt seen)
        pair(2, 10, 1, false);
        assertThat(layer(pair(2, 10, 1, false))).isEqualTo(LayerOutcome.BAND);
        // an address with two identifiers
        address(3, 10, Long.MAX_VALUE, false);
        apply(CounterKey.Kind.ADDRESS, 3, new Change.AdmitAddress(NOW, false, new Limit(10, Long.MAX_VALUE, WINDOW), new Limit(10, Long.MAX_VALUE, WINDOW), 99), Slots.Policy.CHEAP);
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
            apply(CounterKey.Kind.PAIR, i, new Change.AdmitPair(NOW - WINDOW - 1, false, new Limit(10, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
            apply(CounterKey.Kind.PAIR, i, new Change.AdmitPair(NOW - WINDOW - 1, false, new Limit(10, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
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
        List<LayerOutcome> answers = new ArrayList<>();
        for (int i = 10; i < 30; i++) {
            long[] v = pair(i, 3, Long.MAX_VALUE, false);
            assertThat(shared(v)).isTrue();
            answers.add(layer(v));
        }
        // 20 subjects, one attempt each, threshold 3: an exact count would let all 20 through; the shared one
        // counts them together and asks for a captcha where it would block
        assertThat(answers.subList(0, 3)).containsOnly(LayerOutcome.COUNTED);
        assertThat(answers.subList(3, answers.size())).containsOnly(LayerOutcome.BAND);
        long[] counter = Slots.shared(slot, REALM, CounterKey.Kind.PAIR.ordinal(), NOW);
        assertThat(PairEntry.of(counter).attempts(NOW)).as("every counted attempt is in the shared count").isGreaterThanOrEqualTo(3);
        long[] solved = pair(40, 3, Long.MAX_VALUE, true);
        assertThat(layer(solved)).isEqualTo(LayerOutcome.COUNTED);
        assertThat(PairEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.PAIR.ordinal(), NOW)).attempts(NOW))
                .as("a solved attempt is counted").isEqualTo(PairEntry.of(counter).attempts(NOW) + 1);
    }

    @Test
    void while_a_shared_counter_lives_a_newcomer_is_counted_there_even_if_room_came_free() {
        for (int i = 0; i < WAYS; i++) {
            pair(i, 100, Long.MAX_VALUE, false);
            pair(i, 100, Long.MAX_VALUE, false);
        }
        assertThat(shared(pair(10, 100, Long.MAX_VALUE, false))).isTrue();
        slot = Slots.remove(slot, new Subject(REALM, CounterKey.Kind.PAIR.ordinal(), 0, 7, 0)); // an operator's clear frees a way
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
            if (layer(r) == LayerOutcome.COUNTED) {
                assertThat(FailureOutcome.of(fail(i, true))).isNotEqualTo(FailureOutcome.LOCKED);
            }
        }
        for (int i = 0; i < WAYS; i++) {
            assertThat(LockoutEntry.of(find(CounterKey.Kind.ACCOUNT, i)).confirmed(NOW)).as("failures kept").isEqualTo(1);
        }
        // the shared count is past its threshold: never blocked, a captcha asked for; a solved one reserves
        assertThat(layer(reserve(30, false))).isEqualTo(LayerOutcome.BAND);
        long before = LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).taken(NOW);
        assertThat(layer(reserve(30, true))).isEqualTo(LayerOutcome.COUNTED);
        assertThat(LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).taken(NOW)).isEqualTo(before + 1);
        // a right password on the shared count gives its reservation back and clears nobody's failures
        long confirmed = LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).confirmed(NOW);
        apply(CounterKey.Kind.ACCOUNT, 30, new Change.Succeed(NOW, true, false, true), Slots.Policy.PROTECTIVE);
        long[] after = Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW);
        assertThat(LockoutEntry.of(after).confirmed(NOW)).isEqualTo(confirmed);
        assertThat(LockoutEntry.of(after).taken(NOW)).isEqualTo(before);
    }

    @Test
    void a_used_captcha_without_room_is_refused_and_every_record_kept() {
        for (int i = 0; i < WAYS; i++) {
            assertThat(UsedEntry.firstUse(apply(CounterKey.Kind.USED, i, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED))).isTrue();
        }
        assertThat(apply(CounterKey.Kind.USED, 99, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED)).isNull();
        for (int i = 0; i < WAYS; i++) {
            assertThat(UsedEntry.firstUse(apply(CounterKey.Kind.USED, i, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED))).as("a replay").isFalse();
        }
        assertThat(Slots.sharedCounters(slot, NOW)).isZero();
    }

    private static final long OTHER = 0x5678;

    private long[] applyIn(long realm, CounterKey.Kind kind, long subject, Change change, Slots.Policy policy) {
        slot = Slots.apply(slot, new Subject(realm, kind.ordinal(), 0, 7, subject), change, WINDOW, new TableShape(WAYS, policy));
        return Slots.result(slot);
    }

    private long[] reserveIn(long realm, long subject, boolean solved) {
        return applyIn(realm, CounterKey.Kind.ACCOUNT, subject, new Change.Reserve(NOW, solved, new Limit(3, 2, WINDOW)), Slots.Policy.PROTECTIVE);
    }

    private long[] failIn(long realm, long subject, boolean shared) {
        return applyIn(realm, CounterKey.Kind.ACCOUNT, subject, TestChanges.fail(NOW, 3, WINDOW, 60_000, 1.0, 0, 0, false, true, shared), Slots.Policy.PROTECTIVE);
    }

    @Test
    void a_shared_lockout_count_past_its_threshold_blocks_even_with_a_solved_captcha() {
        for (int i = 0; i < WAYS; i++) {
            reserve(i, false);
            fail(i, false);
        }
        // newcomers on the realm's shared counter, each with a solved captcha and a wrong password
        int counted = 0;
        for (int i = 10; i < 20; i++) {
            long[] r = reserve(i, true);
            assertThat(shared(r)).isTrue();
            if (layer(r) == LayerOutcome.COUNTED) {
                counted++;
                fail(i, true);
            } else {
                assertThat(layer(r)).as("past the threshold: refused, solved captcha or not").isEqualTo(LayerOutcome.BLOCKED);
            }
        }
        assertThat(counted).as("threshold 3: the shared count lets through what one exact count would").isEqualTo(3);
        assertThat(LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).lockRemaining(NOW)).isPositive();
    }

    @Test
    void a_flood_of_one_realm_never_takes_another_realms_entries_nor_shares_a_count_with_it() {
        reserveIn(OTHER, 1, false);
        failIn(OTHER, 1, false);
        for (int i = 100; i < 200; i++) {
            long[] r = reserve(i, true);
            if (layer(r) == LayerOutcome.COUNTED) {
                fail(i, shared(r));
            }
        }
        assertThat(layer(reserve(300, true))).as("the flooding realm's shared count is locked").isEqualTo(LayerOutcome.BLOCKED);
        assertThat(LockoutEntry.of(Slots.find(slot, new Subject(OTHER, CounterKey.Kind.ACCOUNT.ordinal(), 0, 7, 1), NOW)).confirmed(NOW))
                .as("the other realm's entry kept").isEqualTo(1);
        // the other realm's newcomer takes the place of one of the flooding realm's entries: its own count, from zero
        long[] fresh = reserveIn(OTHER, 2, false);
        assertThat(shared(fresh)).isFalse();
        assertThat(layer(fresh)).isEqualTo(LayerOutcome.COUNTED);
        assertThat(Slots.shared(slot, OTHER, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).isNull();
        assertThat(Slots.exactEntries(slot, NOW)).isLessThanOrEqualTo(WAYS);
    }

    @Test
    void an_entry_that_gives_way_to_another_realm_is_folded_into_its_realms_shared_count() {
        for (int i = 0; i < WAYS; i++) {
            reserve(i, false);
            fail(i, false);
        }
        long[] before = Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW);
        assertThat(before).isNull();
        reserveIn(OTHER, 1, false);
        // one of the full realm's entries moved to its shared counter, its failure kept there
        assertThat(LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).confirmed(NOW)).isEqualTo(1);
        reserveIn(OTHER, 2, false);
        assertThat(LockoutEntry.of(Slots.shared(slot, REALM, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).confirmed(NOW))
                .as("a second one is added to it").isEqualTo(2);
        // now each realm holds its share (2 of 4): the other realm's next newcomer goes to its own shared count
        long[] third = reserveIn(OTHER, 3, false);
        assertThat(shared(third)).isTrue();
        assertThat(LockoutEntry.of(third).taken(NOW)).as("a shared count of its own realm only").isEqualTo(1);
        int kept = 0;
        for (int i = 0; i < WAYS; i++) {
            kept += find(CounterKey.Kind.ACCOUNT, i) != null ? 1 : 0;
        }
        assertThat(kept).as("the full realm keeps its share").isEqualTo(WAYS / 2);
    }

    @Test
    void a_blocked_entry_is_the_last_its_realm_gives_to_another_realm() {
        // the blocked pair is written first, so it would expire first: expiry alone would pick it
        pair(1, 1, Long.MAX_VALUE, false);
        assertThat(layer(pair(1, 1, Long.MAX_VALUE, false))).isEqualTo(LayerOutcome.BLOCKED);
        for (int i = 2; i <= WAYS; i++) {
            pair(i, 10, 1, false);
            assertThat(layer(pair(i, 10, 1, false))).as("in the band").isEqualTo(LayerOutcome.BAND);
        }
        // another realm takes its fair share (half the slot): band entries give way, the block stays
        for (int i = 0; i < WAYS; i++) {
            applyIn(OTHER, CounterKey.Kind.PAIR, 500 + i, new Change.AdmitPair(NOW, false, new Limit(10, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
        }
        assertThat(find(CounterKey.Kind.PAIR, 1)).as("the blocked pair").isNotNull();
        assertThat(layer(pair(1, 1, Long.MAX_VALUE, false))).as("still blocked").isEqualTo(LayerOutcome.BLOCKED);
        int band = 0;
        for (int i = 2; i <= WAYS; i++) {
            band += find(CounterKey.Kind.PAIR, i) != null ? 1 : 0;
        }
        assertThat(band).as("band entries gave way first").isEqualTo(WAYS / 2 - 1);
    }

    @Test
    void each_of_up_to_ways_realms_keeps_its_share_of_a_slot_whatever_the_others_send() {
        // two realms fill the slot with cheap entries past their threshold (nothing may replace them)
        for (long r = 1; r <= 2; r++) {
            for (int i = 0; i < WAYS; i++) {
                applyIn(r, CounterKey.Kind.PAIR, i, new Change.AdmitPair(NOW, false, new Limit(1, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
                applyIn(r, CounterKey.Kind.PAIR, i, new Change.AdmitPair(NOW, false, new Limit(1, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
            }
        }
        // a flood from two more realms
        for (int i = 0; i < 200; i++) {
            long r = 3 + i % 2;
            applyIn(r, CounterKey.Kind.PAIR, 1000 + i, new Change.AdmitPair(NOW, false, new Limit(1, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
            applyIn(r, CounterKey.Kind.PAIR, 1000 + i, new Change.AdmitPair(NOW, false, new Limit(1, Long.MAX_VALUE, WINDOW)), Slots.Policy.CHEAP);
            assertThat(Slots.exactEntries(slot, NOW)).isLessThanOrEqualTo(WAYS);
            assertThat(Slots.sharedCounters(slot, NOW)).isLessThanOrEqualTo(WAYS);
        }
        for (long r = 1; r <= 4; r++) {
            int held = 0;
            for (int i = 0; i < 1200; i++) {
                held += Slots.find(slot, new Subject(r, CounterKey.Kind.PAIR.ordinal(), 0, 7, i), NOW) != null ? 1 : 0;
            }
            assertThat(held).as("realm %d keeps ways / realms present", r).isEqualTo(WAYS / 4);
        }
        assertThat(Slots.shareUse(slot, WAYS)).as("the last writer holds exactly its share").isEqualTo(1.0);
    }

    @Test
    void a_used_captcha_of_a_realm_at_its_share_is_refused_before_another_realms() {
        for (int i = 0; i < WAYS; i++) {
            assertThat(UsedEntry.firstUse(apply(CounterKey.Kind.USED, i, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED))).isTrue();
        }
        assertThat(apply(CounterKey.Kind.USED, 99, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED)).as("at its share").isNull();
        assertThat(UsedEntry.firstUse(applyIn(OTHER, CounterKey.Kind.USED, 1, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED)))
                .as("another realm's first record").isTrue();
        assertThat(UsedEntry.firstUse(applyIn(OTHER, CounterKey.Kind.USED, 1, new Change.MarkUsed(NOW, NOW + WINDOW), Slots.Policy.USED)))
                .as("and its replay").isFalse();
    }

    @Test
    void past_ways_realms_at_their_share_a_newcomer_without_a_place_is_answered_cautiously_and_not_kept() {
        for (long r = 1; r <= WAYS; r++) {
            for (int i = 0; i < 2 * WAYS; i++) {
                reserveIn(r, r * 100 + i, false);
            }
            assertThat(Slots.shared(slot, r, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).as("realm %d spilled onto its own shared counter", r).isNotNull();
        }
        long[] last = null;
        for (int i = 0; i < 2 * WAYS; i++) {
            last = reserveIn(WAYS + 1, 9000 + i, false);
            assertThat(Slots.exactEntries(slot, NOW)).isLessThanOrEqualTo(WAYS);
            assertThat(Slots.sharedCounters(slot, NOW)).isLessThanOrEqualTo(WAYS);
        }
        assertThat(shared(last)).isTrue();
        assertThat(layer(last)).as("no place for a count: the reservation is refused").isEqualTo(LayerOutcome.BLOCKED);
        assertThat(Slots.find(slot, new Subject(WAYS + 1, CounterKey.Kind.ACCOUNT.ordinal(), 0, 7, 9000 + 2 * WAYS - 1), NOW)).isNull();
        assertThat(Slots.shared(slot, WAYS + 1, CounterKey.Kind.ACCOUNT.ordinal(), NOW)).isNull();
    }

    @Test
    void a_value_handed_out_is_a_copy_and_the_slot_given_is_never_changed() {
        pair(1, 10, Long.MAX_VALUE, false);
        long[] before = slot;
        long[] copy = before.clone();
        long[] v = pair(1, 10, Long.MAX_VALUE, false);
        assertThat(before).isEqualTo(copy);
        v[1] = 99;
        assertThat(PairEntry.of(find(CounterKey.Kind.PAIR, 1)).attempts(NOW)).isEqualTo(2);
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
