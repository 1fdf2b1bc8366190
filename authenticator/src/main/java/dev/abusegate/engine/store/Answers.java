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

    /**
     * A layer's outcome on a shared count of a cheap subject, which never blocks: where it would, an attempt without
     * a solved captcha is asked for one, and one with a solved captcha passes, counted.
     */
    static LayerOutcome capped(LayerOutcome r, boolean solved) {
        return r.blocks() ? (solved ? LayerOutcome.COUNTED : LayerOutcome.BAND) : r;
    }

    /** The outcome of a cheap layer for a subject that found no place: nothing counted, so a captcha is asked for. */
    static LayerOutcome homeless(LayerOutcome r, boolean solved) {
        return r == LayerOutcome.OFF ? LayerOutcome.OFF : solved ? LayerOutcome.COUNTED : LayerOutcome.BAND;
    }

    /** A copy of value {@code v} with {@code answer} as its answer word. */
    static long[] answered(long[] v, long answer) {
        long[] c = v.clone();
        c[0] = answer;
        return c;
    }
}
