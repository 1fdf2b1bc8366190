package dev.abusegate.engine.store;

/** What a wrong password's change ({@link Change.Fail}) or a lock ({@link Change.Lock}) answered (see {@link LayerOutcome} for the words). */
public enum FailureOutcome {
    /** Nothing recorded: there was no entry to record it on. */
    NONE,
    /** A failure was recorded and the identifier is not locked. */
    COUNTED,
    /** A failure was recorded and it locked the identifier, or the lock was set. */
    LOCKED,
    /** A wrong password seen recently for this identifier: not counted again. */
    REPEATED;

    private static final FailureOutcome[] ALL = values();

    /** The outcome a settlement left in the value the store handed back. */
    public static FailureOutcome of(long[] value) {
        return value == null ? NONE : ALL[(int) value[0] & 3];
    }
}
