package dev.abusegate.engine.store;

import dev.abusegate.engine.config.GateOptions;
import java.util.Arrays;

/**
 * An identifier's or a device's layer-3 entry ({@link dev.abusegate.engine.keys.CounterKey.Kind#ACCOUNT},
 * {@link dev.abusegate.engine.keys.CounterKey.Kind#DEVICE}): its budget, its lock, its run of locks and its recent
 * wrong passwords. The budget's {@code taken} are reservations (attempts let through, password not yet checked)
 * plus confirmed failures.
 *
 * <p>Stored as {@code [answer, taken << 32 | confirmed, expiry, lockedUntil, run << 48 | runExpiry]}, then
 * {@code typosExpiry, typo...} when there are recent wrong passwords: two pairs of small numbers share a word
 * each, 24 bytes less per account. Only this class reads or writes those words.
 */
public final class LockoutEntry {

    private static final int COUNTS = 1;
    private static final int EXPIRY = 2;
    private static final int LOCKED_UNTIL = 3;
    private static final int RUN = 4;
    private static final int TYPOS_EXPIRY = 5;
    private static final long[] NONE = {};

    private long taken;
    private long confirmed;
    private long expiry;
    private long lockedUntil;
    private long run;
    private long runExpiry;
    private long typosExpiry;
    private long[] typos = NONE;

    private LockoutEntry() {
    }

    /** The entry in a stored value; an empty one for null. */
    public static LockoutEntry of(long[] value) {
        LockoutEntry e = new LockoutEntry();
        if (value != null) {
            e.taken = value[COUNTS] >>> 32;
            e.confirmed = value[COUNTS] & 0xFFFF_FFFFL;
            e.expiry = value[EXPIRY];
            e.lockedUntil = value[LOCKED_UNTIL];
            e.run = value[RUN] >>> 48;
            e.runExpiry = value[RUN] & 0xFFFF_FFFF_FFFFL;
            if (value.length > TYPOS_EXPIRY) {
                e.typosExpiry = value[TYPOS_EXPIRY];
                e.typos = Arrays.copyOfRange(value, TYPOS_EXPIRY + 1, value.length);
            }
        }
        return e;
    }

    long[] encode(long answer) {
        long[] v = new long[typos.length > 0 ? TYPOS_EXPIRY + 1 + typos.length : TYPOS_EXPIRY];
        v[0] = answer;
        v[COUNTS] = taken << 32 | confirmed & 0xFFFF_FFFFL;
        v[EXPIRY] = expiry;
        v[LOCKED_UNTIL] = lockedUntil;
        v[RUN] = run << 48 | runExpiry & 0xFFFF_FFFF_FFFFL;
        if (typos.length > 0) {
            v[TYPOS_EXPIRY] = typosExpiry;
            System.arraycopy(typos, 0, v, TYPOS_EXPIRY + 1, typos.length);
        }
        return v;
    }

    /** Layer 3's budget taken as of {@code now}: reservations plus confirmed failures. */
    public long taken(long now) {
        return expiry > now ? taken : 0;
    }

    /** Layer 3's confirmed failures as of {@code now}. */
    public long confirmed(long now) {
        return expiry > now ? confirmed : 0;
    }

    /** Milliseconds the lock still lasts; 0 when not locked. */
    public long lockRemaining(long now) {
        return Math.max(0, lockedUntil - now);
    }

    /** How many locks in a row the entry counts (progressive lockout). */
    public long lockRun(long now) {
        return runExpiry > now ? run : 0;
    }

    /** Milliseconds until the failures expire. */
    public long failuresRemaining(long now) {
        return Math.max(0, expiry - now);
    }

    /** The entry as of {@code now}: expired parts cleared. */
    private static LockoutEntry asOf(long[] old, long now) {
        LockoutEntry e = of(old);
        if (e.expiry <= now) {
            e.taken = 0;
            e.confirmed = 0;
        }
        if (e.lockedUntil <= now) {
            e.lockedUntil = 0;
        }
        if (e.runExpiry <= now) {
            e.run = 0;
        }
        if (e.typos.length > 0 && e.typosExpiry <= now) {
            e.typos = NONE;
            e.typosExpiry = 0;
        }
        return e;
    }

    private boolean empty() {
        return taken <= 0 && lockedUntil == 0 && run == 0 && typos.length == 0;
    }

    private long[] encodeOrNone(long answer) {
        return empty() ? null : encode(answer);
    }

    static long[] reserve(Change.Reserve c, boolean create, long[] old) {
        if (old == null && !create) {
            return null;
        }
        long now = c.now();
        Limit l = c.limit();
        LockoutEntry e = asOf(old, now);
        LayerOutcome r = e.lockedUntil > now || e.taken >= l.threshold() ? LayerOutcome.BLOCKED
                : !c.solved() && e.taken >= l.bandStart() ? LayerOutcome.BAND : LayerOutcome.COUNTED;
        if (r == LayerOutcome.COUNTED) {
            e.taken++;
            e.expiry = now + l.windowMillis();
        } else if (old == null) {
            return null;
        }
        return e.encode(r.bits());
    }

    /**
     * Two entries as one, for a shared counter that takes in another subject's entry ({@link Slots}): every count
     * summed, every lock and expiry the later one, so the result only over-counts either.
     */
    static long[] merge(long[] a, long[] b, long now) {
        LockoutEntry x = asOf(a, now);
        LockoutEntry y = asOf(b, now);
        x.taken += y.taken;
        x.confirmed += y.confirmed;
        x.expiry = Math.max(x.expiry, y.expiry);
        x.lockedUntil = Math.max(x.lockedUntil, y.lockedUntil);
        x.run = Math.max(x.run, y.run);
        x.runExpiry = Math.max(x.runExpiry, y.runExpiry);
        if (y.typos.length > 0) {
            long[] all = Arrays.copyOf(x.typos, x.typos.length + y.typos.length);
            System.arraycopy(y.typos, 0, all, x.typos.length, y.typos.length);
            int kept = Math.min(all.length, GateOptions.REMEMBERED_WRONG_PASSWORDS);
            x.typos = Arrays.copyOfRange(all, all.length - kept, all.length);
            x.typosExpiry = Math.max(x.typosExpiry, y.typosExpiry);
        }
        return x.encode(0);
    }

    static long[] giveBack(Change.GiveBack c, long[] old) {
        if (old == null) {
            return null;
        }
        LockoutEntry e = asOf(old, c.now());
        if (e.taken > 0) {
            e.taken--;
            e.confirmed = Math.min(e.confirmed, e.taken);
        }
        return e.encodeOrNone(0);
    }

    static long[] fail(Change.Fail c, boolean create, long[] old) {
        if (old == null && (c.reserved() || !create)) {
            // the reservation is gone (expired, or cleared by an operator): nothing left to confirm
            return null;
        }
        long now = c.now();
        LockoutEntry e = asOf(old, now);
        long typo = c.passwordTag();
        if (c.rememberTypos() && typo != 0) {
            if (Arrays.stream(e.typos).anyMatch(t -> t == typo)) {
                if (c.reserved() && e.taken > e.confirmed) {
                    e.taken--;
                }
                return e.encodeOrNone(FailureOutcome.REPEATED.ordinal());
            }
            int kept = Math.min(e.typos.length, GateOptions.REMEMBERED_WRONG_PASSWORDS - 1);
            long[] t = new long[kept + 1];
            System.arraycopy(e.typos, e.typos.length - kept, t, 0, kept);
            t[kept] = typo;
            e.typos = t;
            e.typosExpiry = now + c.windowMillis();
        }
        if (c.reserved()) {
            if (e.taken <= e.confirmed) {
                e.taken = e.confirmed + 1; // the reservation expired meanwhile: the failure still counts
            }
        } else {
            e.taken++;
        }
        e.confirmed++;
        e.expiry = now + c.windowMillis();
        FailureOutcome answer = FailureOutcome.COUNTED;
        if (e.confirmed >= c.threshold()) {
            long duration = c.lockBaseMillis();
            if (c.progressiveFactor() > 1.0) {
                e.run++;
                e.runExpiry = now + c.lockMaxMillis() + c.windowMillis();
                duration = progressiveMillis(c.lockBaseMillis(), c.progressiveFactor(), c.lockMaxMillis(), e.run);
            }
            e.lockedUntil = Math.max(e.lockedUntil, now + duration);
            // the confirmed failures go; reservations of attempts still being checked stay theirs
            e.taken -= e.confirmed;
            e.confirmed = 0;
            answer = FailureOutcome.LOCKED;
        }
        return e.encode(answer.ordinal());
    }

    /** How long the n-th lock in a row lasts (1-based): {@code base * factor^(n-1)}, at most {@code max} (or base). */
    static long progressiveMillis(long base, double factor, long max, long n) {
        double d = base * Math.pow(factor, Math.max(0, n - 1));
        return (long) Math.min(d, Math.max(base, max));
    }

    static long[] succeed(Change.Succeed c, long[] old) {
        if (old == null) {
            return null;
        }
        LockoutEntry e = asOf(old, c.now());
        e.taken = Math.max(0, e.taken - e.confirmed - (c.reserved() ? 1 : 0));
        e.confirmed = 0;
        if (c.clearRun()) {
            e.run = 0;
            e.runExpiry = 0;
        }
        return e.encodeOrNone(0);
    }

    static long[] lock(Change.Lock c, boolean create, long[] old) {
        if (old == null && !create) {
            return null;
        }
        LockoutEntry e = asOf(old, c.now());
        e.lockedUntil = Math.max(e.lockedUntil, c.until());
        e.taken -= e.confirmed;
        e.confirmed = 0;
        return e.encodeOrNone(FailureOutcome.LOCKED.ordinal());
    }
}
