package dev.abusegate.engine.store;

import java.util.Arrays;

/**
 * An address's entry ({@link dev.abusegate.engine.keys.CounterKey.Kind#ADDRESS}): layer 1's attempts and layer 4's
 * distinct identifiers (64-bit tags). The previous expiries let a captcha answer give back what it counted
 * without keeping the entry alive longer. Stored as {@code [answer, attempts, attemptsExpiry, idsExpiry,
 * previousAttemptsExpiry, previousIdsExpiry, id...]}; only this class reads or writes those words.
 */
public final class AddressEntry {

    private static final int ATTEMPTS = 1;
    private static final int ATTEMPTS_EXPIRY = 2;
    private static final int IDS_EXPIRY = 3;
    private static final int PREVIOUS_ATTEMPTS_EXPIRY = 4;
    private static final int PREVIOUS_IDS_EXPIRY = 5;
    private static final int IDS = 6;
    private static final long[] NONE = {};

    private long attempts;
    private long attemptsExpiry;
    private long idsExpiry;
    private long previousAttemptsExpiry;
    private long previousIdsExpiry;
    private long[] ids = NONE;

    private AddressEntry() {
    }

    /** The entry in a stored value; an empty one for null. */
    public static AddressEntry of(long[] value) {
        AddressEntry e = new AddressEntry();
        if (value != null) {
            e.attempts = value[ATTEMPTS];
            e.attemptsExpiry = value[ATTEMPTS_EXPIRY];
            e.idsExpiry = value[IDS_EXPIRY];
            e.previousAttemptsExpiry = value[PREVIOUS_ATTEMPTS_EXPIRY];
            e.previousIdsExpiry = value[PREVIOUS_IDS_EXPIRY];
            e.ids = value.length == IDS ? NONE : Arrays.copyOfRange(value, IDS, value.length);
        }
        return e;
    }

    long[] encode(long answer) {
        long[] v = new long[IDS + ids.length];
        v[0] = answer;
        v[ATTEMPTS] = attempts;
        v[ATTEMPTS_EXPIRY] = attemptsExpiry;
        v[IDS_EXPIRY] = idsExpiry;
        v[PREVIOUS_ATTEMPTS_EXPIRY] = previousAttemptsExpiry;
        v[PREVIOUS_IDS_EXPIRY] = previousIdsExpiry;
        System.arraycopy(ids, 0, v, IDS, ids.length);
        return v;
    }

    /** Layer 1's attempts as of {@code now}. */
    public long attempts(long now) {
        return attemptsExpiry > now ? attempts : 0;
    }

    /** Layer 4's distinct identifiers as of {@code now}. */
    public int distinct(long now) {
        return idsExpiry > now ? ids.length : 0;
    }

    /** Whether the entry holds the identifier tag {@code member} as of {@code now}. */
    public boolean hasIdentifier(long member, long now) {
        return idsExpiry > now && indexOf(ids, member) >= 0;
    }

    /** Milliseconds until layer 1's attempts expire. */
    public long attemptsRemaining(long now) {
        return Math.max(0, attemptsExpiry - now);
    }

    /** Milliseconds until layer 4's identifiers expire. */
    public long distinctRemaining(long now) {
        return Math.max(0, idsExpiry - now);
    }

    static long[] admit(Change.AdmitAddress c, boolean create, long[] old) {
        if (old == null && !create) {
            return null;
        }
        long now = c.now();
        Limit l1 = c.perIp();
        Limit l4 = c.identifiers();
        AddressEntry e = of(old);
        long count = e.attempts(now);
        int idCount = e.distinct(now);
        boolean seen = idCount > 0 && indexOf(e.ids, c.member()) >= 0;
        long next4 = seen ? idCount : idCount + 1L;

        LayerOutcome r1 = !l1.on() ? LayerOutcome.OFF : count >= l1.threshold() ? LayerOutcome.BLOCKED
                : !c.solved() && count >= l1.bandStart() ? LayerOutcome.BAND : LayerOutcome.COUNTED;
        LayerOutcome r4 = !l4.on() ? LayerOutcome.OFF : next4 > l4.threshold() ? LayerOutcome.BLOCKED
                : !c.solved() && idCount >= l4.bandStart() ? LayerOutcome.BAND : LayerOutcome.COUNTED;
        boolean counts = r1.blocks() || r4.blocks() || r1 != LayerOutcome.BAND && r4 != LayerOutcome.BAND;
        if (!counts) {
            if (old == null) {
                return null;
            }
            long[] same = old.clone();
            same[0] = Answers.admission(r1, r4);
            return same;
        }
        boolean add = l4.on() && !seen && idCount < l4.threshold() + 1;
        long[] live = idCount == 0 ? NONE : e.ids;
        if (add) {
            live = Arrays.copyOf(live, live.length + 1);
            live[live.length - 1] = c.member();
        }
        e.ids = live;
        e.previousAttemptsExpiry = e.attemptsExpiry;
        e.previousIdsExpiry = e.idsExpiry;
        e.attempts = l1.on() ? count + 1 : count;
        e.attemptsExpiry = l1.on() ? now + l1.windowMillis() : e.attemptsExpiry;
        e.idsExpiry = l4.on() ? now + l4.windowMillis() : e.idsExpiry;
        return e.encode(Answers.admission(r1, r4) | (add ? Answers.ADDED : 0) | Answers.COUNTED);
    }

    static long[] undo(Change.UndoAddress c, long[] old) {
        if (old == null) {
            return null;
        }
        long now = c.now();
        AddressEntry e = of(old);
        if (c.attempt() && e.attempts > 0) {
            e.attempts--;
        }
        if (e.attemptsExpiry == c.attemptsExpiry()) {
            e.attemptsExpiry = e.previousAttemptsExpiry;
        }
        if (e.idsExpiry == c.idsExpiry()) {
            e.idsExpiry = e.previousIdsExpiry;
        }
        if (c.removeMember()) {
            int at = indexOf(e.ids, c.member());
            if (at >= 0) {
                long[] shorter = new long[e.ids.length - 1];
                System.arraycopy(e.ids, 0, shorter, 0, at);
                System.arraycopy(e.ids, at + 1, shorter, at, e.ids.length - at - 1);
                e.ids = shorter;
            }
        }
        boolean noCount = e.attempts == 0 || e.attemptsExpiry <= now;
        boolean noIds = e.ids.length == 0 || e.idsExpiry <= now;
        return noCount && noIds ? null : e.encode(0);
    }

    private static int indexOf(long[] v, long member) {
        for (int i = 0; i < v.length; i++) {
            if (v[i] == member) {
                return i;
            }
        }
        return -1;
    }
}
