package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import java.util.Arrays;

/**
 * How a bounded store keeps its entries: a fixed table of slots, each holding at most {@code ways} exact
 * entries plus, per kind, one shared counter for subjects that found no room. A subject's slot is a keyed hash
 * of its key ({@link SlotHash}), so nobody without the table's key can aim a flood at one slot. Every change is
 * one atomic compute of one slot ({@link #apply}): finding the subject, making room and counting all happen
 * inside it, so in a cluster both owners of a slot apply the same pure function to equal copies and agree.
 *
 * <p>The bound is structural: a slot never holds more than {@code ways} exact entries, so a table never holds
 * more than its slots times its ways, whatever is sent. When a slot is full, a new subject takes the place of an
 * entry only if that entry is worth at most one attempt to its owner (see {@link #replaceable}); protective
 * entries (failures, locks, device budgets, used captchas) are never replaced, only reused once expired. A
 * subject that finds no room is counted in the slot's shared counter of its kind ({@link AdmissionAnswer#shared()}
 * in the answer), and so is every newcomer of that kind while that counter lives (a subject counted there must not
 * start an exact count from zero): its count there includes every other such subject's, so it can only be
 * over-counted, and a shared
 * count never blocks: where an exact count would block, the shared one asks for a captcha (and lets a solved one
 * through, counted). A used-captcha record that finds no room is refused (the solution counts as unsolved).
 *
 * <p>Layout of a slot ({@code long[]}): {@code [format << 32 | result, latestExpiry, entry...]}, each entry
 * {@code [realmTag, meta, hi, lo, expiry, value...]} with {@code meta = shared << 62 | kind << 40 | shape << 32 |
 * valueLength}. {@code format} is {@link StoreCodec#FORMAT}: a slot of another format is read as absent, never
 * misread. {@code result} is the offset of the entry that holds this change's answer (0: none), so the caller
 * reads its answer from the slot the store hands back. Expired entries are dropped by the next change of their
 * slot.
 */
public final class Slots {

    private Slots() {
    }

    /** Exact entries per slot. */
    public static final int WAYS = 8;
    /**
     * Records per slot of the used-captcha table: wider slots, so that records (which are never replaced) spread
     * evenly enough that no slot is full long before the table is.
     */
    public static final int USED_WAYS = 32;

    /** What may make room in a table. */
    public enum Policy {
        /** Addresses and pairs: an entry worth at most one attempt may be replaced; else the shared counter. */
        CHEAP,
        /** Failures, locks, device budgets: never replaced; else the shared counter. */
        PROTECTIVE,
        /** Used captchas: never replaced, no shared counter: no room means the solution is refused. */
        USED
    }

    static final int RESULT = 0;
    static final int LATEST = 1;
    static final int HEADER = 2;
    static final int E_REALM = 0;
    static final int E_META = 1;
    static final int E_HI = 2;
    static final int E_LO = 3;
    static final int E_EXP = 4;
    static final int E_VALUE = 5;
    private static final long SHARED_META = 1L << 62;

    /** The slot count for a table of at most {@code bound} exact entries ({@code ways} per slot). */
    public static long slotsFor(long bound, int ways) {
        return Math.max(1, bound / ways + (bound % ways == 0 ? 0 : 1));
    }

    /** Exact entries per slot for a table of at most {@code bound} entries. */
    public static int waysFor(long bound) {
        return waysFor(bound, Policy.CHEAP);
    }

    /** Exact entries per slot for a table of at most {@code bound} entries under {@code policy}. */
    public static int waysFor(long bound, Policy policy) {
        return (int) Math.max(1, Math.min(policy == Policy.USED ? USED_WAYS : WAYS, bound));
    }

    private static final long FORMAT_WORD = (long) StoreCodec.FORMAT << 32;

    /** Whether a slot is of this node's format (null is no slot, of no format). */
    private static boolean current(long[] slot) {
        return slot != null && slot[RESULT] >>> 32 == StoreCodec.FORMAT;
    }

    /** The slot, or null when it is of another format (written by another version: read as absent). */
    private static long[] readable(long[] slot) {
        return current(slot) ? slot : null;
    }

    private static int resultOffset(long[] slot) {
        return (int) slot[RESULT];
    }

    /**
     * The format a slot was written in (0: a slot that carries no format number). Package-private: only the format's tests
     * read it; a store reads a slot through {@link #find} and {@link #apply}, which check the format themselves.
     */
    static int format(long[] slot) {
        return (int) (slot[RESULT] >>> 32);
    }

    private static long meta(boolean shared, int kind, int shape, int length) {
        return (shared ? SHARED_META : 0) | (long) kind << 40 | (long) (shape & 0xff) << 32 | length;
    }

    private static int length(long meta) {
        return (int) meta;
    }

    private static boolean shared(long meta) {
        return (meta & SHARED_META) != 0;
    }

    private static int kind(long meta) {
        return (int) (meta >>> 40) & 0xff;
    }

    private static boolean same(long[] s, int o, long realm, long meta, long hi, long lo) {
        return s[o + E_HI] == hi && s[o + E_LO] == lo && s[o + E_REALM] == realm
                && (s[o + E_META] & ~0xFFFF_FFFFL) == (meta & ~0xFFFF_FFFFL);
    }

    /**
     * Applies {@code change} for one subject to its slot and returns the new slot (null when it holds nothing any
     * more). Never modifies {@code slot}. {@code now} is the change's own time, so every copy computes the same
     * slot. A slot of another format is read as absent and replaced.
     */
    public static long[] apply(long[] slot, long realm, int kind, int shape, long hi, long lo, Change change,
                               long ttl, int ways, Policy policy) {
        slot = readable(slot);
        long now = change.now();
        long id = meta(false, kind, shape, 0);
        long sharedId = meta(true, kind, 0, 0);
        int exact = -1;
        int sharedAt = -1;
        int live = 0;
        int[] offsets = new int[slot == null ? 0 : ways + 8];
        int n = 0;
        boolean dropped = false;
        if (slot != null) {
            for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
                if (slot[o + E_EXP] <= now) {
                    dropped = true;
                    continue;
                }
                if (n == offsets.length) {
                    offsets = Arrays.copyOf(offsets, n * 2);
                }
                offsets[n++] = o;
                if (shared(slot[o + E_META])) {
                    if (same(slot, o, 0, sharedId, 0, 0)) {
                        sharedAt = o;
                    }
                } else {
                    live++;
                    if (same(slot, o, realm, id, hi, lo)) {
                        exact = o;
                    }
                }
            }
        }
        int target;
        long[] next;
        boolean onShared = false;
        if (policy != Policy.USED && change.settlesShared()) {
            // the attempt was counted on the shared counter: it is settled there, never on an exact entry
            onShared = true;
            target = sharedAt;
            // a right password on a shared count clears nobody's failures: it only gives its reservation back
            next = change instanceof Change.Succeed ? new Change.GiveBack(now, true).next(false, value(slot, sharedAt))
                    : change.next(false, value(slot, sharedAt));
        } else if (exact >= 0) {
            target = exact;
            next = change.next(true, value(slot, exact));
        } else {
            next = change.next(true, null);
            target = -1;
            // While the slot's shared counter of this kind is live, a newcomer is counted there even if room has
            // come free: it may have been counted there before, and a fresh exact count would forget that.
            boolean sharing = sharedAt >= 0 && policy != Policy.USED;
            if (next != null && (live >= ways || sharing)) {
                int victim = policy == Policy.CHEAP && !sharing ? victim(slot, offsets, n, now) : -1;
                if (victim >= 0) {
                    target = victim; // replaced: the victim's value is dropped, the newcomer's written in its place
                } else if (policy == Policy.USED) {
                    next = null;
                } else {
                    onShared = true;
                    target = sharedAt;
                    next = change.next(true, value(slot, sharedAt));
                }
            }
        }
        if (onShared && next != null) {
            next = cap(change, next);
        }
        if (target < 0 && next == null && !dropped) {
            // nothing changes but the result
            if (slot == null || resultOffset(slot) == 0) {
                return slot;
            }
            long[] same = slot.clone();
            same[RESULT] = FORMAT_WORD;
            return same;
        }
        // Build the new slot: every live entry but the target, then the target's new value.
        int size = HEADER;
        for (int i = 0; i < n; i++) {
            if (offsets[i] != target) {
                size += E_VALUE + length(slot[offsets[i] + E_META]);
            }
        }
        if (next != null) {
            size += E_VALUE + next.length;
        }
        if (size == HEADER) {
            return null;
        }
        long[] out = new long[size];
        long latest = 0;
        int w = HEADER;
        for (int i = 0; i < n; i++) {
            int o = offsets[i];
            if (o != target) {
                int len = E_VALUE + length(slot[o + E_META]);
                System.arraycopy(slot, o, out, w, len);
                latest = Math.max(latest, slot[o + E_EXP]);
                w += len;
            }
        }
        out[RESULT] = FORMAT_WORD;
        if (next != null) {
            out[RESULT] = FORMAT_WORD | w;
            boolean sh = onShared;
            out[w + E_REALM] = sh ? 0 : realm;
            out[w + E_META] = meta(sh, kind, sh ? 0 : shape, next.length);
            out[w + E_HI] = sh ? 0 : hi;
            out[w + E_LO] = sh ? 0 : lo;
            long old = target >= 0 && target == (sh ? sharedAt : exact) ? slot[target + E_EXP] : 0;
            // a shared counter lives as long as the longest change it counted (it is every sharer's count)
            long exp = sh ? Math.max(old, now + ttl) : now + ttl;
            out[w + E_EXP] = exp;
            System.arraycopy(next, 0, out, w + E_VALUE, next.length);
            latest = Math.max(latest, exp);
        }
        out[LATEST] = latest;
        return out;
    }


    /**
     * A shared count never blocks: where it would, an attempt without a solved captcha is asked for one, and one
     * with a solved captcha passes, counted; a failure on it never locks.
     */
    private static long[] cap(Change change, long[] v) {
        long[] c = v.clone();
        int a = (int) c[0];
        if (change instanceof Change.AdmitAddress admit) {
            LayerOutcome r1 = capLayer(LayerOutcome.of(a), admit.solved());
            LayerOutcome r4 = capLayer(LayerOutcome.of(a >>> 2), admit.solved());
            c[0] = Answers.admission(r1, r4) | (a & Answers.COUNTED) | Answers.SHARED;
        } else if (change instanceof Change.AdmitPair admit) {
            c[0] = capLayer(LayerOutcome.of(a), admit.solved()).bits() | Answers.SHARED;
        } else if (change instanceof Change.Reserve reserve) {
            if (LayerOutcome.of(a).blocks() && reserve.solved()) {
                // locked or full on the shared count, with a solved captcha: the attempt passes and is reserved
                return LockoutEntry.reserveOnShared(reserve, c);
            }
            c[0] = capLayer(LayerOutcome.of(a), false).bits() | Answers.SHARED;
        } else if (change instanceof Change.Fail) {
            c[0] = (a == FailureOutcome.LOCKED.ordinal() ? FailureOutcome.COUNTED.ordinal() : a) | Answers.SHARED;
        } else {
            c[0] = a | Answers.SHARED;
        }
        return c;
    }

    private static LayerOutcome capLayer(LayerOutcome r, boolean solved) {
        return r.blocks() ? (solved ? LayerOutcome.COUNTED : LayerOutcome.BAND) : r;
    }

    /**
     * Whether an exact entry may make room: its loss gives its owner back at most one attempt. An address seen
     * once (one attempt, at most one identifier) or a pair seen once, whose last answer was neither the captcha
     * band nor a block. Nothing else: never an entry in the band, a blocked one, nor any protective entry.
     */
    static boolean replaceable(int kind, long[] v, long now) {
        if (kind == CounterKey.Kind.ADDRESS.ordinal()) {
            return AddressEntry.worthOneAttempt(v, now);
        }
        if (kind == CounterKey.Kind.PAIR.ordinal()) {
            return PairEntry.worthOneAttempt(v, now);
        }
        return false;
    }

    /** The replaceable exact entry that expires first, or -1. */
    private static int victim(long[] slot, int[] offsets, int n, long now) {
        int best = -1;
        for (int i = 0; i < n; i++) {
            int o = offsets[i];
            long meta = slot[o + E_META];
            if (!shared(meta) && replaceable(kind(meta), value(slot, o), now)
                    && (best < 0 || slot[o + E_EXP] < slot[best + E_EXP])) {
                best = o;
            }
        }
        return best;
    }

    private static long[] value(long[] slot, int o) {
        if (o < 0) {
            return null;
        }
        int len = length(slot[o + E_META]);
        return Arrays.copyOfRange(slot, o + E_VALUE, o + E_VALUE + len);
    }

    /** The answer of the change that wrote {@code slot}: the value it left (marked if shared), or null. */
    public static long[] result(long[] slot) {
        slot = readable(slot);
        return slot == null || resultOffset(slot) == 0 ? null : value(slot, resultOffset(slot));
    }

    /** A subject's exact value in its slot as of {@code now}, or null (a shared count is nobody's own). */
    public static long[] find(long[] slot, long realm, int kind, int shape, long hi, long lo, long now) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        long id = meta(false, kind, shape, 0);
        for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
            if (!shared(slot[o + E_META]) && slot[o + E_EXP] > now && same(slot, o, realm, id, hi, lo)) {
                return value(slot, o);
            }
        }
        return null;
    }

    /**
     * The slot without the subject's exact entry (null when nothing is left, or the slot is of another format);
     * the same array when it had none.
     */
    public static long[] remove(long[] slot, long realm, int kind, int shape, long hi, long lo) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        long id = meta(false, kind, shape, 0);
        for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
            if (!shared(slot[o + E_META]) && same(slot, o, realm, id, hi, lo)) {
                int len = E_VALUE + length(slot[o + E_META]);
                if (slot.length - len == HEADER) {
                    return null;
                }
                long[] out = new long[slot.length - len];
                System.arraycopy(slot, 0, out, 0, o);
                System.arraycopy(slot, o + len, out, o, slot.length - o - len);
                out[RESULT] = FORMAT_WORD;
                return out;
            }
        }
        return slot;
    }

    /** The latest expiry of anything in the slot (0 for none): how long a store must keep it. */
    public static long latestExpiry(long[] slot) {
        return slot == null ? 0 : slot[LATEST];
    }

    /**
     * Live exact entries in a slot as of {@code now}. Package-private: no login path counts a slot's entries; the
     * tests of the store's bounds do (other packages through the test support {@code SlotCensus}).
     */
    static int exactEntries(long[] slot, long now) {
        return count(slot, now, false);
    }

    /** Live shared counters in a slot as of {@code now}. Package-private, as {@link #exactEntries}. */
    static int sharedCounters(long[] slot, long now) {
        return count(slot, now, true);
    }

    private static int count(long[] slot, long now, boolean sharedOnes) {
        slot = readable(slot);
        if (slot == null) {
            return 0;
        }
        int c = 0;
        for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
            if (slot[o + E_EXP] > now && shared(slot[o + E_META]) == sharedOnes) {
                c++;
            }
        }
        return c;
    }

    /**
     * A slot's shared counter of one kind as of {@code now}, or null. Package-private: a store reaches a shared
     * counter only through {@link #apply}; the tests of the slot format look at it directly.
     */
    static long[] shared(long[] slot, int kind, long now) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        long id = meta(true, kind, 0, 0);
        for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
            if (shared(slot[o + E_META]) && slot[o + E_EXP] > now && same(slot, o, 0, id, 0, 0)) {
                return value(slot, o);
            }
        }
        return null;
    }
}
