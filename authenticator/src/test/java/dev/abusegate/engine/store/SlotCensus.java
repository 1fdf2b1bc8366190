package dev.abusegate.engine.store;

/**
 * Test support: counts what a slot holds, for the census of stores in other packages ({@code StoreCensus}). No
 * login path counts a slot's entries, so {@link Slots} keeps its census package-private.
 */
public final class SlotCensus {

    private SlotCensus() {
    }

    /** Live exact entries in a slot as of {@code now}. */
    public static int exactEntries(long[] slot, long now) {
        return Slots.exactEntries(slot, now);
    }

    /** Live shared counters in a slot as of {@code now}. */
    public static int sharedCounters(long[] slot, long now) {
        return Slots.sharedCounters(slot, now);
    }
}
