package dev.abusegate.engine.store;

/**
 * The answer word (slot 0) of a stored value, as the changes write it and the answer types read it: two bits per
 * layer outcome ({@link LayerOutcome}, layer 4's shifted by two), then flags. Part of the value's format
 * ({@link StoreCodec#FORMAT}).
 */
final class Answers {

    private Answers() {
    }

    /** Layer 4's identifier was added by this change. */
    static final int ADDED = 1 << 4;
    /** The change counted. */
    static final int COUNTED = 1 << 5;
    /** The change was counted on a shared counter ({@link Slots}). */
    static final int SHARED = 1 << 6;

    static int admission(LayerOutcome outcome, LayerOutcome identifiers) {
        return outcome.bits() | identifiers.bits() << 2;
    }

    static boolean shared(long[] value) {
        return value != null && (value[0] & SHARED) != 0;
    }
}
