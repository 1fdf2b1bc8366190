package dev.abusegate.engine.store;

import java.util.function.Function;

/**
 * The change types as a store carries them ({@link StoreCodec}): each with its tag, its length in words and how its
 * fields become words and back. The words after the header are the record's fields in order, booleans packed
 * into one flags word (bit 0 first).
 */
enum ChangeType {
    ADMIT_ADDRESS(1, 10, Change.AdmitAddress.class, c -> {
        Change.AdmitAddress a = (Change.AdmitAddress) c;
        Limit l1 = a.perIp();
        Limit l4 = a.identifiers();
        return new long[] {a.now(), flags(a.solved()), l1.threshold(), l1.bandStart(), l1.windowMillis(), l4.threshold(),
                l4.bandStart(), l4.windowMillis(), a.member()};
    }, w -> new Change.AdmitAddress(w[1], flag(w[2], 0), limit(w, 3), limit(w, 6), w[9])),
    UNDO_ADDRESS(2, 6, Change.UndoAddress.class, c -> {
        Change.UndoAddress u = (Change.UndoAddress) c;
        return new long[] {u.now(), flags(u.attempt(), u.removeMember()), u.member(), u.attemptsExpiry(), u.idsExpiry()};
    }, w -> new Change.UndoAddress(w[1], new Change.UndoAddress.Given(flag(w[2], 0), flag(w[2], 1), w[3]), w[4], w[5])),
    ADMIT_PAIR(3, 6, Change.AdmitPair.class, c -> {
        Change.AdmitPair a = (Change.AdmitPair) c;
        return admission(a.now(), a.solved(), a.limit());
    }, w -> new Change.AdmitPair(w[1], flag(w[2], 0), limit(w, 3))),
    UNDO_PAIR(4, 3, Change.UndoPair.class, c -> new long[] {c.now(), ((Change.UndoPair) c).expiry()},
            w -> new Change.UndoPair(w[1], w[2])),
    RESERVE(5, 6, Change.Reserve.class, c -> {
        Change.Reserve r = (Change.Reserve) c;
        return admission(r.now(), r.solved(), r.limit());
    }, w -> new Change.Reserve(w[1], flag(w[2], 0), limit(w, 3))),
    GIVE_BACK(6, 3, Change.GiveBack.class, c -> new long[] {c.now(), flags(((Change.GiveBack) c).shared())},
            w -> new Change.GiveBack(w[1], flag(w[2], 0))),
    FAIL(7, 9, Change.Fail.class, c -> {
        Change.Fail f = (Change.Fail) c;
        return new long[] {f.now(), f.threshold(), f.windowMillis(), f.lockBaseMillis(),
                Double.doubleToLongBits(f.progressiveFactor()), f.lockMaxMillis(), f.passwordTag(),
                flags(f.rememberTypos(), f.reserved(), f.shared())};
    }, w -> new Change.Fail(w[1], new Change.Fail.LockRule(w[2], w[3], w[4], Double.longBitsToDouble(w[5]), w[6]), w[7],
            new Change.Fail.Counted(flag(w[8], 0), flag(w[8], 1), flag(w[8], 2)))),
    SUCCEED(8, 3, Change.Succeed.class, c -> {
        Change.Succeed s = (Change.Succeed) c;
        return new long[] {s.now(), flags(s.reserved(), s.clearRun(), s.shared())};
    }, w -> new Change.Succeed(w[1], flag(w[2], 0), flag(w[2], 1), flag(w[2], 2))),
    LOCK(9, 3, Change.Lock.class, c -> new long[] {c.now(), ((Change.Lock) c).until()}, w -> new Change.Lock(w[1], w[2])),
    MARK_USED(10, 3, Change.MarkUsed.class, c -> new long[] {c.now(), ((Change.MarkUsed) c).expiry()},
            w -> new Change.MarkUsed(w[1], w[2]));

    private static final ChangeType[] ALL = values();
    private static final ChangeType[] BY_TAG = new ChangeType[16];

    static {
        for (ChangeType t : ALL) {
            BY_TAG[t.tag] = t;
        }
    }

    private final int tag;
    private final int words;
    private final Class<? extends Change> type;
    private final Function<Change, long[]> fields;
    private final Function<long[], Change> decoder;

    ChangeType(int tag, int words, Class<? extends Change> type, Function<Change, long[]> fields,
               Function<long[], Change> decoder) {
        this.tag = tag;
        this.words = words;
        this.type = type;
        this.fields = fields;
        this.decoder = decoder;
    }

    /** The type with {@code tag}, or null. */
    static ChangeType byTag(int tag) {
        return tag >= 0 && tag < BY_TAG.length ? BY_TAG[tag] : null;
    }

    /** The type of {@code change}. */
    static ChangeType of(Change change) {
        for (ChangeType t : ALL) {
            if (t.type == change.getClass()) {
                return t;
            }
        }
        throw new IllegalArgumentException("no change type for " + change.getClass().getSimpleName());
    }

    int words() {
        return words;
    }

    /** The change's words in the current format. */
    long[] encode(Change change) {
        long[] f = fields.apply(change);
        long[] w = new long[f.length + 1];
        w[0] = (long) Versions.CURRENT << 8 | tag;
        System.arraycopy(f, 0, w, 1, f.length);
        return w;
    }

    Change decode(long[] w) {
        return decoder.apply(w);
    }

    private static long[] admission(long now, boolean solved, Limit l) {
        return new long[] {now, flags(solved), l.threshold(), l.bandStart(), l.windowMillis()};
    }

    private static Limit limit(long[] w, int at) {
        return new Limit(w[at], w[at + 1], w[at + 2]);
    }

    private static long flags(boolean... bits) {
        long f = 0;
        for (int i = 0; i < bits.length; i++) {
            f |= bits[i] ? 1L << i : 0;
        }
        return f;
    }

    private static boolean flag(long flags, int bit) {
        return (flags >>> bit & 1) != 0;
    }
}
