package dev.abusegate.engine.store;

/**
 * The store's formats: the one this node writes ({@link #CURRENT}) and the range it reads ({@link #FIRST_READABLE}
 * to {@link #CURRENT}). A release reads its own format and the one before it, so that during a rolling upgrade of
 * one release at a time old and new nodes read each other's slots and changes, and nothing counted is forgotten.
 * A slot of a format outside the range is read as absent (its subjects start again), a change of one is refused.
 *
 * <p>Raise {@link #CURRENT} whenever a change's fields or a slot's layout change meaning, and teach
 * {@link SlotFormat#readable} to read the format before it; {@link #FIRST_READABLE} then becomes that one.
 */
public final class Versions {

    /** The format this node writes. */
    public static final int CURRENT = 2;
    /**
     * The oldest format this node reads. Release 1.0.0 writes format 2 and format 1 was never released, so today
     * the range is this one format.
     */
    public static final int FIRST_READABLE = 2;

    private Versions() {
    }

    /** Whether this node reads what was written in {@code format}. */
    public static boolean readable(long format) {
        return format >= FIRST_READABLE && format <= CURRENT;
    }
}
