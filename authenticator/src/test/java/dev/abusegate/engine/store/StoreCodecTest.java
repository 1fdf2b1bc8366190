package dev.abusegate.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abusegate.engine.keys.CounterKey;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The codec: every change arrives as it was sent, and nothing of another format is misread. */
class StoreCodecTest {

    private static final long NOW = 1_000_000;
    private static final long WINDOW = 60_000;

    private static List<Change> everyChange(SplittableRandom r) {
        long now = r.nextLong(0, 1L << 47);
        Limit l = new Limit(r.nextLong(1, 1000), r.nextBoolean() ? Long.MAX_VALUE : r.nextLong(0, 1000), r.nextLong(1, 1L << 40));
        return List.of(
                new Change.AdmitAddress(now, r.nextBoolean(), l, r.nextBoolean() ? Limit.OFF : l, r.nextLong()),
                TestChanges.undoAddress(now, r.nextBoolean(), r.nextBoolean(), r.nextLong(), r.nextLong(), r.nextLong()),
                new Change.AdmitPair(now, r.nextBoolean(), l),
                new Change.UndoPair(now, r.nextLong()),
                new Change.Reserve(now, r.nextBoolean(), l),
                new Change.GiveBack(now, r.nextBoolean()),
                TestChanges.fail(now, r.nextLong(1, 100), r.nextLong(1, 1L << 40), r.nextLong(1, 1L << 40), 1 + r.nextDouble() * 3,
                        r.nextLong(0, 1L << 40), r.nextLong(), r.nextBoolean(), r.nextBoolean(), r.nextBoolean()),
                new Change.Succeed(now, r.nextBoolean(), r.nextBoolean(), r.nextBoolean()),
                new Change.Lock(now, r.nextLong()),
                new Change.MarkUsed(now, r.nextLong()));
    }

    @Test
    void every_change_arrives_as_it_was_sent() {
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 2_000; i++) {
            for (Change c : everyChange(r)) {
                long[] words = StoreCodec.encode(c);
                assertThat(words.length).isLessThanOrEqualTo(StoreCodec.MAX_WORDS);
                assertThat(StoreCodec.decode(words)).isEqualTo(c);
            }
        }
    }

    @Test
    void a_change_of_another_format_is_refused_not_misread() {
        for (Change c : everyChange(new SplittableRandom(12))) {
            long[] words = StoreCodec.encode(c);
            long[] newer = words.clone();
            newer[0] = (long) (StoreCodec.FORMAT + 1) << 8 | words[0] & 0xff;
            assertThatThrownBy(() -> StoreCodec.decode(newer)).isInstanceOf(StoreFormatException.class)
                    .hasMessageContaining("format " + (StoreCodec.FORMAT + 1));
            long[] older = words.clone();
            older[0] = words[0] & 0xff; // the positional changes before formats were numbered
            assertThatThrownBy(() -> StoreCodec.decode(older)).isInstanceOf(StoreFormatException.class);
        }
        assertThatThrownBy(() -> StoreCodec.decode(new long[] {(long) StoreCodec.FORMAT << 8 | 99, NOW, 0}))
                .isInstanceOf(StoreFormatException.class);
        assertThatThrownBy(() -> StoreCodec.decode(new long[] {(long) StoreCodec.FORMAT << 8 | 3, NOW}))
                .as("a change with words missing").isInstanceOf(StoreFormatException.class);
    }

    @Test
    void a_slot_of_another_format_is_read_as_absent_and_replaced_by_the_next_change() {
        Change admit = new Change.AdmitPair(NOW, false, new Limit(10, Long.MAX_VALUE, WINDOW));
        int pair = CounterKey.Kind.PAIR.ordinal();
        long[] slot = null;
        for (int i = 0; i < 4; i++) {
            slot = Slots.apply(slot, new Subject(1, pair, 0, 2, 3), admit, WINDOW, new TableShape(Slots.WAYS, Slots.Policy.CHEAP));
        }
        assertThat(Slots.format(slot)).isEqualTo(StoreCodec.FORMAT);
        assertThat(PairEntry.of(Slots.find(slot, new Subject(1, pair, 0, 2, 3), NOW)).attempts(NOW)).isEqualTo(4);
        for (long format : new long[] {0, StoreCodec.FORMAT + 1}) {
            long[] other = slot.clone();
            other[0] = format << 32 | other[0] & 0xFFFF_FFFFL;
            assertThat(Slots.find(other, new Subject(1, pair, 0, 2, 3), NOW)).isNull();
            assertThat(Slots.exactEntries(other, NOW)).isZero();
            long[] next = Slots.apply(other, new Subject(1, pair, 0, 2, 3), admit, WINDOW, new TableShape(Slots.WAYS, Slots.Policy.CHEAP));
            assertThat(Slots.format(next)).isEqualTo(StoreCodec.FORMAT);
            assertThat(PairEntry.of(Slots.result(next)).attempts(NOW)).as("counted from nothing").isEqualTo(1);
            assertThat(Slots.exactEntries(next, NOW)).isEqualTo(1);
        }
    }

    @Test
    void a_change_for_a_kind_this_node_does_not_know_is_refused_as_a_format() {
        Change admit = new Change.AdmitPair(NOW, false, new Limit(10, Long.MAX_VALUE, WINDOW));
        int unknown = CounterKey.Kind.values().length;
        SlotCommand command = new SlotCommand(new Subject(1, unknown, 0, 2, 3), admit, WINDOW,
                new TableShape(Slots.WAYS, Slots.Policy.CHEAP));
        assertThatThrownBy(() -> SlotCommand.fromBytes(command.toBytes()).applyTo(null))
                .as("a kind a later release added").isInstanceOf(StoreFormatException.class);
    }
}
