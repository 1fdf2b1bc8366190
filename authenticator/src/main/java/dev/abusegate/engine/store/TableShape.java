package dev.abusegate.engine.store;

/** What a table's slots look like: exact entries per slot and what may make room ({@link Slots.Policy}). */
public record TableShape(int ways, Slots.Policy policy) {

    /** The shape of a table of at most {@code bound} exact entries under {@code policy}. */
    public static TableShape of(long bound, Slots.Policy policy) {
        return new TableShape(Slots.waysFor(bound, policy), policy);
    }
}
