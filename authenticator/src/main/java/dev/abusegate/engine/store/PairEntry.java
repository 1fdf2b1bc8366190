package dev.abusegate.engine.store;

/**
 * A pair's entry ({@link dev.abusegate.engine.keys.CounterKey.Kind#PAIR}): layer 2's attempts of one address with
 * one identifier. Stored as {@code [answer, attempts, expiry, previousExpiry]}; only this class reads or writes
 * those words.
 */
public final class PairEntry {

    private static final int ATTEMPTS = 1;
    private static final int EXPIRY = 2;
    private static final int PREVIOUS_EXPIRY = 3;

    private final long attempts;
    private final long expiry;
    private final long previousExpiry;

    private PairEntry(long attempts, long expiry, long previousExpiry) {
        this.attempts = attempts;
        this.expiry = expiry;
        this.previousExpiry = previousExpiry;
    }

    /** The entry in a stored value; an empty one for null. */
    public static PairEntry of(long[] value) {
        return value == null ? new PairEntry(0, 0, 0) : new PairEntry(value[ATTEMPTS], value[EXPIRY], value[PREVIOUS_EXPIRY]);
    }

    long[] encode(long answer) {
        return new long[] {answer, attempts, expiry, previousExpiry};
    }

    /** Layer 2's attempts as of {@code now}. */
    public long attempts(long now) {
        return expiry > now ? attempts : 0;
    }

    /** Milliseconds until the attempts expire. */
    public long remaining(long now) {
        return Math.max(0, expiry - now);
    }

    static long[] admit(Change.AdmitPair c, boolean create, long[] old) {
        if (old == null && !create) {
            return null;
        }
        long now = c.now();
        Limit l = c.limit();
        PairEntry e = of(old);
        long count = e.attempts(now);
        LayerOutcome r = count >= l.threshold() ? LayerOutcome.BLOCKED
                : !c.solved() && count >= l.bandStart() ? LayerOutcome.BAND : LayerOutcome.COUNTED;
        if (r == LayerOutcome.BAND) {
            if (old == null) {
                return null;
            }
            long[] same = old.clone();
            same[0] = r.bits();
            return same;
        }
        return new PairEntry(count + 1, now + l.windowMillis(), e.expiry).encode(r.bits());
    }

    static long[] undo(Change.UndoPair c, long[] old) {
        long now = c.now();
        PairEntry e = of(old);
        if (old == null || e.expiry <= now || e.attempts <= 1) {
            return null;
        }
        long exp = e.expiry == c.expiry() ? e.previousExpiry : e.expiry;
        return exp <= now ? null : new PairEntry(e.attempts - 1, exp, e.previousExpiry).encode(0);
    }
}
