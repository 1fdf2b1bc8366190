package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.config.GateOptions;
import java.util.Arrays;

/**
 * What is stored per subject, and every change to it, as pure functions of the stored value. A store applies
 * one change atomically per key ({@link CounterStore#apply}); in a cluster the function runs where the entry
 * lives, so one change is one round trip, and the function's captured arguments ({@code int}, {@code long[]},
 * {@code boolean}) and the value ({@code long[]}) need no schema.
 *
 * <p>Every value is a {@code long[]} whose slot 0 holds the answer of the change that wrote it, so the caller
 * reads its own answer from the value the store hands back. All times are milliseconds on the gate's clock,
 * passed in as {@code now}; nothing here reads a clock, so applying a change twice to equal copies gives equal
 * copies.
 *
 * <p>Layouts:
 * <ul>
 *   <li>{@link CounterKey.Kind#ADDRESS}: {@code [answer, attempts, attemptsExpiry, idsExpiry, previousAttemptsExpiry,
 *       previousIdsExpiry, id...]}: layer 1's counter and layer 4's distinct identifiers (64-bit tags) of one
 *       address. The previous expiries let a captcha answer give back what it counted without keeping the
 *       entry alive longer.</li>
 *   <li>{@link CounterKey.Kind#PAIR}: {@code [answer, attempts, expiry, previousExpiry]}: layer 2.</li>
 *   <li>{@link CounterKey.Kind#ACCOUNT} and {@link CounterKey.Kind#DEVICE}: {@code [answer, units << 32 | confirmed,
 *       failuresExpiry, lockedUntil, lockRun << 48 | lockRunExpiry]}, then {@code typosExpiry, typo...} when there
 *       are recent wrong passwords: layer 3. {@code units} are reservations (attempts let through, password not
 *       yet checked) plus confirmed failures. The changes work on an unpacked copy (one slot per number).</li>
 *   <li>{@link CounterKey.Kind#USED}: {@code [answer, expiry]}: a captcha solution already accepted.</li>
 * </ul>
 */
public final class Entries {

    private Entries() {
    }

    // ---- answers of the admission changes (2 bits per layer) ----

    /** The layer is off for this change. */
    public static final int NONE = 0;
    /** Counted and under the threshold. */
    public static final int ALLOW = 1;
    /** In the captcha band without a solved captcha: nothing was counted. */
    public static final int BAND = 2;
    /** At the threshold (or locked): counted for layers 1, 2 and 4, never for layer 3. */
    public static final int BLOCK = 3;

    /** Address answer: layer 4's identifier was added by this change (a compensation removes it again). */
    public static final int ADDED = 1 << 4;
    /** Address answer: the change counted (layer 1 and 4 count together or not at all). */
    public static final int COUNTED = 1 << 5;

    // ---- answers of the settlement changes ----

    /** A failure was recorded and the identifier is not locked. */
    public static final int FAILED = 1;
    /** A failure was recorded and it locked the identifier. */
    public static final int LOCKED = 2;
    /** A wrong password seen recently for this identifier: not counted again. */
    public static final int REPEATED = 3;

    // ---- changes ----

    /** Address admission: args {@code now, solved, t1, band1, win1, t4, band4, win4, member} (t = 0: layer off). */
    public static final int ADMIT_ADDRESS = 1;
    /**
     * Undo an address admission: args {@code now, undoAttempt, removeMember, member, countExpiry, idsExpiry}; the
     * expiries are what the admission set: while nothing wrote after it, the ones before it come back.
     */
    public static final int UNDO_ADDRESS = 2;
    /** Pair admission: args {@code now, solved, threshold, band, window}. */
    public static final int ADMIT_COUNTER = 3;
    /** Undo a pair admission: args {@code now, expiry} (as for {@link #UNDO_ADDRESS}). */
    public static final int UNDO_COUNTER = 4;
    /** Layer 3 reservation: args {@code now, solved, threshold, band, window}. */
    public static final int RESERVE = 5;
    /** Layer 3 reservation given back (no password checked): args {@code now[, shared]} ({@link Slots#sharedSettlement}). */
    public static final int GIVE_BACK = 6;
    /**
     * A wrong password: args {@code now, threshold, window, lockBaseMillis, progressiveFactorBits, lockMaxMillis,
     * typoTag, rememberTypos, reserved[, shared]}. {@code reserved = 1} confirms this attempt's own reservation;
     * {@code 0} records the failure on another login name of the same account; {@code shared = 1}: the reservation
     * was taken on a shared counter ({@link Slots}).
     */
    public static final int FAIL = 7;
    /**
     * A right password: args {@code now, reserved, clearRun[, shared]}. Confirmed failures go, with the reservation
     * (on a shared counter only the reservation goes).
     */
    public static final int SUCCEED = 8;
    /** Lock until a time (another login name of the account was locked): args {@code now, until}. */
    public static final int LOCK = 9;
    /** First use of a captcha solution: args {@code now, expiry}. Answer 1 on first use, 0 on a replay. */
    public static final int MARK_USED = 10;

    static final int A_COUNT = 1;
    static final int A_COUNT_EXP = 2;
    static final int A_IDS_EXP = 3;
    static final int A_PREV_COUNT_EXP = 4;
    static final int A_PREV_IDS_EXP = 5;
    static final int A_IDS = 6;

    static final int C_COUNT = 1;
    static final int C_EXP = 2;
    static final int C_PREV_EXP = 3;

    static final int L_UNITS = 1;
    static final int L_CONFIRMED = 2;
    static final int L_EXP = 3;
    static final int L_LOCKED_UNTIL = 4;
    static final int L_RUN = 5;
    static final int L_RUN_EXP = 6;
    static final int L_TYPOS_EXP = 7;
    static final int L_TYPOS = 8;

    /**
     * Applies one change. Never modifies {@code old}. Returns the new value, or null for "no entry": the
     * change emptied it, or there was none and the change creates nothing, or {@code create} is false (the
     * store is at its bound) and there was none.
     */
    public static long[] apply(int change, long[] args, boolean create, long[] old) {
        switch (change) {
            case ADMIT_ADDRESS:
                return admitAddress(args, create, old);
            case UNDO_ADDRESS:
                return undoAddress(args, old);
            case ADMIT_COUNTER:
                return admitCounter(args, create, old);
            case UNDO_COUNTER:
                return undoCounter(args, old);
            case RESERVE:
                return reserve(args, create, old);
            case GIVE_BACK:
                return giveBack(args, old);
            case FAIL:
                return fail(args, create, old);
            case SUCCEED:
                return succeed(args, old);
            case LOCK:
                return lock(args, create, old);
            case MARK_USED:
                return markUsed(args, create, old);
            default:
                throw new IllegalArgumentException("unknown change " + change);
        }
    }

    /** The answer a change left in the value: 0 when there is no value. */
    public static int answer(long[] value) {
        return value == null ? 0 : (int) value[0];
    }

    /** Layer 1's part of an address answer. */
    public static int perIp(int answer) {
        return answer & 3;
    }

    /** Layer 4's part of an address answer. */
    public static int identifiers(int answer) {
        return answer >>> 2 & 3;
    }

    // ---- address ----

    private static long[] admitAddress(long[] a, boolean create, long[] old) {
        long now = a[0];
        boolean solved = a[1] != 0;
        long t1 = a[2], band1 = a[3], win1 = a[4], t4 = a[5], band4 = a[6], win4 = a[7], member = a[8];
        if (old == null && !create) {
            return null;
        }
        long count = old != null && old[A_COUNT_EXP] > now ? old[A_COUNT] : 0;
        // the live identifiers are old[A_IDS ..], read in place
        int idCount = old != null && old[A_IDS_EXP] > now ? old.length - A_IDS : 0;
        boolean seen = idCount > 0 && indexOf(old, A_IDS, member) >= 0;
        long next4 = seen ? idCount : idCount + 1L;

        int r1 = t1 == 0 ? NONE : count >= t1 ? BLOCK : !solved && count >= band1 ? BAND : ALLOW;
        int r4 = t4 == 0 ? NONE : next4 > t4 ? BLOCK : !solved && idCount >= band4 ? BAND : ALLOW;
        boolean counts = r1 == BLOCK || r4 == BLOCK || r1 != BAND && r4 != BAND;
        if (!counts) {
            if (old == null) {
                return null;
            }
            long[] same = old.clone();
            same[0] = r1 | r4 << 2;
            return same;
        }
        boolean add = t4 != 0 && !seen && idCount < t4 + 1;
        long[] next = new long[A_IDS + idCount + (add ? 1 : 0)];
        next[0] = r1 | r4 << 2 | (add ? ADDED : 0) | COUNTED;
        long countExp = old == null ? 0 : old[A_COUNT_EXP];
        long idsExp = old == null ? 0 : old[A_IDS_EXP];
        next[A_COUNT] = t1 == 0 ? count : count + 1;
        next[A_COUNT_EXP] = t1 == 0 ? countExp : now + win1;
        next[A_IDS_EXP] = t4 == 0 ? idsExp : now + win4;
        next[A_PREV_COUNT_EXP] = countExp;
        next[A_PREV_IDS_EXP] = idsExp;
        if (idCount > 0) {
            System.arraycopy(old, A_IDS, next, A_IDS, idCount);
        }
        if (add) {
            next[next.length - 1] = member;
        }
        return next;
    }

    private static long[] undoAddress(long[] a, long[] old) {
        if (old == null) {
            return null;
        }
        long now = a[0];
        long[] next = old.clone();
        next[0] = 0;
        if (a[1] != 0 && next[A_COUNT] > 0) {
            next[A_COUNT]--;
        }
        if (next[A_COUNT_EXP] == a[4]) {
            next[A_COUNT_EXP] = next[A_PREV_COUNT_EXP];
        }
        if (next[A_IDS_EXP] == a[5]) {
            next[A_IDS_EXP] = next[A_PREV_IDS_EXP];
        }
        if (a[2] != 0) {
            int at = indexOf(next, A_IDS, a[3]);
            if (at >= 0) {
                long[] shorter = new long[next.length - 1];
                System.arraycopy(next, 0, shorter, 0, at);
                System.arraycopy(next, at + 1, shorter, at, next.length - at - 1);
                next = shorter;
            }
        }
        boolean noCount = next[A_COUNT] == 0 || next[A_COUNT_EXP] <= now;
        boolean noIds = next.length == A_IDS || next[A_IDS_EXP] <= now;
        return noCount && noIds ? null : next;
    }

    // ---- plain counter (layer 2) ----

    private static long[] admitCounter(long[] a, boolean create, long[] old) {
        long now = a[0];
        boolean solved = a[1] != 0;
        long t = a[2], band = a[3], win = a[4];
        if (old == null && !create) {
            return null;
        }
        long count = old != null && old[C_EXP] > now ? old[C_COUNT] : 0;
        int r = count >= t ? BLOCK : !solved && count >= band ? BAND : ALLOW;
        if (r == BAND) {
            if (old == null) {
                return null;
            }
            long[] same = old.clone();
            same[0] = r;
            return same;
        }
        long exp = old == null ? 0 : old[C_EXP];
        return new long[] {r, count + 1, now + win, exp};
    }

    private static long[] undoCounter(long[] a, long[] old) {
        if (old == null || old[C_EXP] <= a[0] || old[C_COUNT] <= 1) {
            return null;
        }
        long exp = old[C_EXP] == a[1] ? old[C_PREV_EXP] : old[C_EXP];
        return exp <= a[0] ? null : new long[] {0, old[C_COUNT] - 1, exp, old[C_PREV_EXP]};
    }

    // ---- lockout (layer 3) ----

    /** Stored lockout values pack two pairs of small numbers into one word each: 24 bytes less per account. */
    static final int P_COUNTS = 1;
    static final int P_EXP = 2;
    static final int P_LOCKED_UNTIL = 3;
    static final int P_RUN = 4;
    static final int P_TYPOS_EXP = 5;

    /** The stored form of a working lockout value ({@code [answer, units << 32 | confirmed, ...]}, see the class comment). */
    static long[] pack(long[] v) {
        int typos = v.length - L_TYPOS;
        long[] p = new long[typos > 0 ? P_TYPOS_EXP + 1 + typos : P_TYPOS_EXP];
        p[0] = v[0];
        p[P_COUNTS] = v[L_UNITS] << 32 | v[L_CONFIRMED] & 0xFFFF_FFFFL;
        p[P_EXP] = v[L_EXP];
        p[P_LOCKED_UNTIL] = v[L_LOCKED_UNTIL];
        p[P_RUN] = v[L_RUN] << 48 | v[L_RUN_EXP] & 0xFFFF_FFFF_FFFFL;
        if (typos > 0) {
            p[P_TYPOS_EXP] = v[L_TYPOS_EXP];
            System.arraycopy(v, L_TYPOS, p, P_TYPOS_EXP + 1, typos);
        }
        return p;
    }

    /** The working form of a stored lockout value: one slot per number. */
    static long[] unpack(long[] p) {
        int typos = p.length > P_TYPOS_EXP ? p.length - P_TYPOS_EXP - 1 : 0;
        long[] v = new long[L_TYPOS + typos];
        v[0] = p[0];
        v[L_UNITS] = p[P_COUNTS] >>> 32;
        v[L_CONFIRMED] = p[P_COUNTS] & 0xFFFF_FFFFL;
        v[L_EXP] = p[P_EXP];
        v[L_LOCKED_UNTIL] = p[P_LOCKED_UNTIL];
        v[L_RUN] = p[P_RUN] >>> 48;
        v[L_RUN_EXP] = p[P_RUN] & 0xFFFF_FFFF_FFFFL;
        if (typos > 0) {
            v[L_TYPOS_EXP] = p[P_TYPOS_EXP];
            System.arraycopy(p, P_TYPOS_EXP + 1, v, L_TYPOS, typos);
        }
        return v;
    }

    /** A lockout value as of {@code now}: expired parts cleared; a fresh array the caller may change. */
    private static long[] lockout(long[] old, long now) {
        if (old == null) {
            return new long[L_TYPOS];
        }
        long[] v = unpack(old);
        if (v[L_EXP] <= now) {
            v[L_UNITS] = 0;
            v[L_CONFIRMED] = 0;
        }
        if (v[L_LOCKED_UNTIL] <= now) {
            v[L_LOCKED_UNTIL] = 0;
        }
        if (v[L_RUN_EXP] <= now) {
            v[L_RUN] = 0;
        }
        if (v.length > L_TYPOS && v[L_TYPOS_EXP] <= now) {
            v = Arrays.copyOf(v, L_TYPOS);
        }
        v[0] = 0;
        return v;
    }

    private static boolean empty(long[] v) {
        return v[L_UNITS] <= 0 && v[L_LOCKED_UNTIL] == 0 && v[L_RUN] == 0 && v.length == L_TYPOS;
    }

    private static long[] reserve(long[] a, boolean create, long[] old) {
        long now = a[0];
        boolean solved = a[1] != 0;
        long t = a[2], band = a[3], win = a[4];
        if (old == null && !create) {
            return null;
        }
        long[] v = lockout(old, now);
        int r = v[L_LOCKED_UNTIL] > now || v[L_UNITS] >= t ? BLOCK : !solved && v[L_UNITS] >= band ? BAND : ALLOW;
        if (r == ALLOW) {
            v[L_UNITS]++;
            v[L_EXP] = now + win;
        } else if (old == null) {
            return null;
        }
        v[0] = r;
        return pack(v);
    }

    private static long[] giveBack(long[] a, long[] old) {
        if (old == null) {
            return null;
        }
        long[] v = lockout(old, a[0]);
        if (v[L_UNITS] > 0) {
            v[L_UNITS]--;
            v[L_CONFIRMED] = Math.min(v[L_CONFIRMED], v[L_UNITS]);
        }
        return empty(v) ? null : pack(v);
    }

    private static long[] fail(long[] a, boolean create, long[] old) {
        long now = a[0];
        long t = a[1], win = a[2], lockBase = a[3];
        double factor = Double.longBitsToDouble(a[4]);
        long lockMax = a[5], typo = a[6];
        boolean rememberTypos = a[7] != 0, reserved = a[8] != 0;
        if (old == null && (reserved || !create)) {
            // the reservation is gone (expired, or cleared by an operator): nothing left to confirm
            return null;
        }
        long[] v = lockout(old, now);
        if (rememberTypos && typo != 0) {
            if (indexOf(v, L_TYPOS, typo) >= 0) {
                if (reserved && v[L_UNITS] > v[L_CONFIRMED]) {
                    v[L_UNITS]--;
                }
                v[0] = REPEATED;
                return empty(v) ? null : pack(v);
            }
            int kept = Math.min(v.length - L_TYPOS, GateOptions.REMEMBERED_WRONG_PASSWORDS - 1);
            long[] w = new long[L_TYPOS + kept + 1];
            System.arraycopy(v, 0, w, 0, L_TYPOS);
            System.arraycopy(v, v.length - kept, w, L_TYPOS, kept);
            w[w.length - 1] = typo;
            w[L_TYPOS_EXP] = now + win;
            v = w;
        }
        if (reserved) {
            if (v[L_UNITS] <= v[L_CONFIRMED]) {
                v[L_UNITS] = v[L_CONFIRMED] + 1; // the reservation expired meanwhile: the failure still counts
            }
        } else {
            v[L_UNITS]++;
        }
        v[L_CONFIRMED]++;
        v[L_EXP] = now + win;
        v[0] = FAILED;
        if (v[L_CONFIRMED] >= t) {
            long duration = lockBase;
            if (factor > 1.0) {
                v[L_RUN]++;
                v[L_RUN_EXP] = now + lockMax + win;
                duration = progressiveMillis(lockBase, factor, lockMax, v[L_RUN]);
            }
            v[L_LOCKED_UNTIL] = Math.max(v[L_LOCKED_UNTIL], now + duration);
            // the confirmed failures go; reservations of attempts still being checked stay theirs
            v[L_UNITS] -= v[L_CONFIRMED];
            v[L_CONFIRMED] = 0;
            v[0] = LOCKED;
        }
        return pack(v);
    }

    /** How long the n-th lock in a row lasts (1-based): {@code base * factor^(n-1)}, at most {@code max} (or base). */
    static long progressiveMillis(long base, double factor, long max, long n) {
        double d = base * Math.pow(factor, Math.max(0, n - 1));
        return (long) Math.min(d, Math.max(base, max));
    }

    private static long[] succeed(long[] a, long[] old) {
        if (old == null) {
            return null;
        }
        long[] v = lockout(old, a[0]);
        v[L_UNITS] = Math.max(0, v[L_UNITS] - v[L_CONFIRMED] - (a[1] != 0 ? 1 : 0));
        v[L_CONFIRMED] = 0;
        if (a[2] != 0) {
            v[L_RUN] = 0;
            v[L_RUN_EXP] = 0;
        }
        return empty(v) ? null : pack(v);
    }

    private static long[] lock(long[] a, boolean create, long[] old) {
        if (old == null && !create) {
            return null;
        }
        long[] v = lockout(old, a[0]);
        v[L_LOCKED_UNTIL] = Math.max(v[L_LOCKED_UNTIL], a[1]);
        v[L_UNITS] -= v[L_CONFIRMED];
        v[L_CONFIRMED] = 0;
        v[0] = LOCKED;
        return empty(v) ? null : pack(v);
    }

    // ---- captcha replay ----

    private static long[] markUsed(long[] a, boolean create, long[] old) {
        if (old != null && old[1] > a[0]) {
            return new long[] {0, old[1]};
        }
        return create ? new long[] {1, a[1]} : null;
    }

    // ---- reading ----

    /** Layer 1's attempts in an address value as of {@code now}. */
    public static long attempts(long[] address, long now) {
        return address != null && address[A_COUNT_EXP] > now ? address[A_COUNT] : 0;
    }

    /** Layer 4's distinct identifiers in an address value as of {@code now}. */
    public static int distinct(long[] address, long now) {
        return address != null && address[A_IDS_EXP] > now ? address.length - A_IDS : 0;
    }

    /** Whether an address value as of {@code now} holds the identifier tag {@code member}. */
    public static boolean hasIdentifier(long[] address, long member, long now) {
        return address != null && address[A_IDS_EXP] > now && indexOf(address, A_IDS, member) >= 0;
    }

    /** Layer 2's attempts in a pair value as of {@code now}. */
    public static long count(long[] pair, long now) {
        return pair != null && pair[C_EXP] > now ? pair[C_COUNT] : 0;
    }

    /** Layer 3's failures and reservations in a lockout value as of {@code now}. */
    public static long units(long[] lockout, long now) {
        return lockout != null && lockout[P_EXP] > now ? lockout[P_COUNTS] >>> 32 : 0;
    }

    /** Layer 3's confirmed failures in a lockout value as of {@code now}. */
    public static long confirmed(long[] lockout, long now) {
        return lockout != null && lockout[P_EXP] > now ? lockout[P_COUNTS] & 0xFFFF_FFFFL : 0;
    }

    /** Milliseconds the lock in a lockout value still lasts; 0 when not locked. */
    public static long lockRemaining(long[] lockout, long now) {
        return lockout == null ? 0 : Math.max(0, lockout[P_LOCKED_UNTIL] - now);
    }

    /** How many locks in a row a lockout value counts (progressive lockout). */
    public static long lockRun(long[] lockout, long now) {
        return lockout != null && (lockout[P_RUN] & 0xFFFF_FFFF_FFFFL) > now ? lockout[P_RUN] >>> 48 : 0;
    }

    /** Milliseconds until layer 1's attempts in an address value expire. */
    public static long attemptsRemaining(long[] address, long now) {
        return address == null ? 0 : Math.max(0, address[A_COUNT_EXP] - now);
    }

    /** Milliseconds until layer 4's distinct identifiers in an address value expire. */
    public static long distinctRemaining(long[] address, long now) {
        return address == null ? 0 : Math.max(0, address[A_IDS_EXP] - now);
    }

    /** Milliseconds until layer 3's failures in a lockout value expire. */
    public static long failuresRemaining(long[] lockout, long now) {
        return lockout == null ? 0 : Math.max(0, lockout[P_EXP] - now);
    }

    /** Milliseconds until layer 2's attempts in a pair value expire. */
    public static long countRemaining(long[] pair, long now) {
        return pair == null ? 0 : Math.max(0, pair[C_EXP] - now);
    }

    private static int indexOf(long[] v, int from, long member) {
        for (int i = from; i < v.length; i++) {
            if (v[i] == member) {
                return i;
            }
        }
        return -1;
    }
}
