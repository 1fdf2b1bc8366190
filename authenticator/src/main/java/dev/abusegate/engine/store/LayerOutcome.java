package dev.abusegate.engine.store;

/**
 * What one change answered for one layer. The words follow one rule through the engine: an <em>outcome</em> is
 * an answer ({@link dev.abusegate.engine.Outcome} the gate's for an attempt, this one a layer's for a change,
 * {@link FailureOutcome} a settlement's), and a {@link dev.abusegate.engine.Decision} is the gate's outcome with
 * its reasons.
 */
public enum LayerOutcome {
    /** The layer is off for this change. */
    OFF,
    /** Counted and under the threshold. */
    COUNTED,
    /** In the captcha band without a solved captcha: nothing was counted. */
    BAND,
    /** At the threshold (or locked): counted for layers 1, 2 and 4, never for layer 3. */
    BLOCKED;

    private static final LayerOutcome[] ALL = values();

    /** Whether the layer blocks the attempt. */
    public boolean blocks() {
        return this == BLOCKED;
    }

    /** The outcome in a stored answer's two bits. */
    static LayerOutcome of(long bits) {
        return ALL[(int) bits & 3];
    }

    /** The outcome as two bits of a stored answer. */
    int bits() {
        return ordinal();
    }
}
