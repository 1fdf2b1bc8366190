package dev.abusegate.engine.store;

/**
 * The one codec of what a store holds and carries, with its format version. A store never reads either form: it
 * carries a change's words to where the entry lives and keeps a slot's words (or their bytes) as they are.
 *
 * <ul>
 *   <li>A {@link Change} travels as {@code long} words: {@code [FORMAT << 8 | type, field...]}, booleans packed into
 *       one flags word. A change of another format is refused ({@link StoreFormatException}).</li>
 *   <li>A slot ({@link Slots}) carries the format in the high half of its first word. A slot of another format is
 *       read as absent: its subjects start again from nothing, and the next change of the slot replaces it.</li>
 * </ul>
 * Bump {@link #FORMAT} whenever a change's fields or a value's layout change meaning.
 */
public final class StoreCodec {

    /** The format this node writes and reads. Slots written before formats were numbered read as format 0. */
    public static final int FORMAT = 2;
    /** The most words a change takes. */
    public static final int MAX_WORDS = 10;

    private static final int ADMIT_ADDRESS = 1;
    private static final int UNDO_ADDRESS = 2;
    private static final int ADMIT_PAIR = 3;
    private static final int UNDO_PAIR = 4;
    private static final int RESERVE = 5;
    private static final int GIVE_BACK = 6;
    private static final int FAIL = 7;
    private static final int SUCCEED = 8;
    private static final int LOCK = 9;
    private static final int MARK_USED = 10;

    private StoreCodec() {
    }

    private static long header(int type) {
        return (long) FORMAT << 8 | type;
    }

    private static long flag(boolean b, int bit) {
        return b ? 1L << bit : 0;
    }

    private static boolean flag(long flags, int bit) {
        return (flags >>> bit & 1) != 0;
    }

    /** A change as the words a store carries. */
    public static long[] encode(Change change) {
        if (change instanceof Change.AdmitAddress c) {
            Limit l1 = c.perIp();
            Limit l4 = c.identifiers();
            return new long[] {header(ADMIT_ADDRESS), c.now(), flag(c.solved(), 0), l1.threshold(), l1.bandStart(),
                    l1.windowMillis(), l4.threshold(), l4.bandStart(), l4.windowMillis(), c.member()};
        }
        if (change instanceof Change.UndoAddress c) {
            return new long[] {header(UNDO_ADDRESS), c.now(), flag(c.attempt(), 0) | flag(c.removeMember(), 1), c.member(),
                    c.attemptsExpiry(), c.idsExpiry()};
        }
        if (change instanceof Change.AdmitPair c) {
            return admission(ADMIT_PAIR, c.now(), c.solved(), c.limit());
        }
        if (change instanceof Change.UndoPair c) {
            return new long[] {header(UNDO_PAIR), c.now(), c.expiry()};
        }
        if (change instanceof Change.Reserve c) {
            return admission(RESERVE, c.now(), c.solved(), c.limit());
        }
        if (change instanceof Change.GiveBack c) {
            return new long[] {header(GIVE_BACK), c.now(), flag(c.shared(), 0)};
        }
        if (change instanceof Change.Fail c) {
            return new long[] {header(FAIL), c.now(), c.threshold(), c.windowMillis(), c.lockBaseMillis(),
                    Double.doubleToLongBits(c.progressiveFactor()), c.lockMaxMillis(), c.passwordTag(),
                    flag(c.rememberTypos(), 0) | flag(c.reserved(), 1) | flag(c.shared(), 2)};
        }
        if (change instanceof Change.Succeed c) {
            return new long[] {header(SUCCEED), c.now(), flag(c.reserved(), 0) | flag(c.clearRun(), 1) | flag(c.shared(), 2)};
        }
        if (change instanceof Change.Lock c) {
            return new long[] {header(LOCK), c.now(), c.until()};
        }
        Change.MarkUsed c = (Change.MarkUsed) change;
        return new long[] {header(MARK_USED), c.now(), c.expiry()};
    }

    private static long[] admission(int type, long now, boolean solved, Limit l) {
        return new long[] {header(type), now, flag(solved, 0), l.threshold(), l.bandStart(), l.windowMillis()};
    }

    /** The change in carried words; refuses words of another format or of no known change. */
    public static Change decode(long[] w) {
        if (w == null || w.length < 2) {
            throw new StoreFormatException("not a change");
        }
        long format = w[0] >>> 8;
        if (format != FORMAT) {
            throw new StoreFormatException("a change in format " + format + "; this node speaks format " + FORMAT);
        }
        int type = (int) (w[0] & 0xff);
        int need = type == ADMIT_ADDRESS ? 10 : type == UNDO_ADDRESS ? 6 : type == ADMIT_PAIR || type == RESERVE ? 6
                : type == FAIL ? 9 : 3;
        if (type < ADMIT_ADDRESS || type > MARK_USED || w.length != need) {
            throw new StoreFormatException("not a change of format " + FORMAT + ": type " + type + ", " + w.length + " words");
        }
        switch (type) {
            case ADMIT_ADDRESS:
                return new Change.AdmitAddress(w[1], flag(w[2], 0), new Limit(w[3], w[4], w[5]), new Limit(w[6], w[7], w[8]), w[9]);
            case UNDO_ADDRESS:
                return new Change.UndoAddress(w[1], flag(w[2], 0), flag(w[2], 1), w[3], w[4], w[5]);
            case ADMIT_PAIR:
                return new Change.AdmitPair(w[1], flag(w[2], 0), new Limit(w[3], w[4], w[5]));
            case UNDO_PAIR:
                return new Change.UndoPair(w[1], w[2]);
            case RESERVE:
                return new Change.Reserve(w[1], flag(w[2], 0), new Limit(w[3], w[4], w[5]));
            case GIVE_BACK:
                return new Change.GiveBack(w[1], flag(w[2], 0));
            case FAIL:
                return new Change.Fail(w[1], w[2], w[3], w[4], Double.longBitsToDouble(w[5]), w[6], w[7], flag(w[8], 0),
                        flag(w[8], 1), flag(w[8], 2));
            case SUCCEED:
                return new Change.Succeed(w[1], flag(w[2], 0), flag(w[2], 1), flag(w[2], 2));
            case LOCK:
                return new Change.Lock(w[1], w[2]);
            default:
                return new Change.MarkUsed(w[1], w[2]);
        }
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
