package dev.abusegate.engine.store;

/**
 * The codec of what a store carries: a {@link Change} as {@code long} words, {@code [format << 8 | type, field...]},
 * booleans packed into one flags word, and a stored value's words as bytes. A store never reads either form: it
 * carries a change's words to where the entry lives and keeps a slot's words (or their bytes) as they are.
 *
 * <p>Each change type is one {@link ChangeType}, found by its tag when decoding and by its class when encoding:
 * the one place that maps between the two. A change of a format outside {@link Versions}' range is refused
 * ({@link StoreFormatException}); a slot's format is {@link SlotFormat}'s. Raise {@link Versions#CURRENT}
 * whenever a change's fields or a value's layout change meaning.
 */
public final class StoreCodec {

    /** The format this node writes ({@link Versions#CURRENT}). Slots written before formats were numbered read as format 0. */
    public static final int FORMAT = Versions.CURRENT;
    /** The most words a change takes. */
    public static final int MAX_WORDS = 10;

    private StoreCodec() {
    }

    /** A change as the words a store carries. */
    public static long[] encode(Change change) {
        return ChangeType.of(change).encode(change);
    }

    /** The change in carried words; refuses words of a format this node does not read or of no known change. */
    public static Change decode(long[] w) {
        if (w == null || w.length < 2) {
            throw new StoreFormatException("not a change");
        }
        long format = w[0] >>> 8;
        if (!Versions.readable(format)) {
            throw new StoreFormatException("a change in format " + format + "; this node reads formats "
                    + Versions.FIRST_READABLE + " to " + Versions.CURRENT);
        }
        int tag = (int) (w[0] & 0xff);
        ChangeType type = ChangeType.byTag(tag);
        if (type == null || w.length != type.words()) {
            throw new StoreFormatException("not a change of format " + format + ": type " + tag + ", " + w.length + " words");
        }
        return type.decode(w);
    }

    /** Stored words as bytes, big-endian: what a clustered cache holds (it marshals a byte[] natively). */
    public static byte[] toBytes(long[] v) {
        if (v == null) {
            return null;
        }
        byte[] out = new byte[v.length * 8];
        for (int i = 0; i < v.length; i++) {
            long x = v[i];
            for (int j = 7; j >= 0; j--) {
                out[i * 8 + j] = (byte) x;
                x >>>= 8;
            }
        }
        return out;
    }

    /** Stored bytes as words again. */
    public static long[] fromBytes(byte[] b) {
        if (b == null) {
            return null;
        }
        long[] out = new long[b.length / 8];
        for (int i = 0; i < out.length; i++) {
            long x = 0;
            for (int j = 0; j < 8; j++) {
                x = x << 8 | (b[i * 8 + j] & 0xff);
            }
            out[i] = x;
        }
        return out;
    }
}
