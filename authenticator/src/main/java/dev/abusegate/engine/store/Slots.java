package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import java.util.Arrays;

/**
 * How a bounded store keeps its entries: a fixed table of slots, each holding at most {@code ways} exact
 * entries plus at most {@code ways} shared counters, each of one realm, for that realm's subjects that found no
 * room. A subject's slot is a keyed hash of its key ({@link SlotHash}), so nobody without the table's key can aim a
 * flood at one slot. Every change is one atomic compute of one slot ({@link #apply}): finding the subject, making
 * room and counting all happen inside it, so in a cluster both owners of a slot apply the same pure function to
 * equal copies and agree.
 *
 * <p>The bound is structural: a slot never holds more than {@code ways} exact entries and {@code ways} shared
 * counters, so a table never holds more than twice its bound, whatever is sent and whatever the number of realms.
 *
 * <p>Realms share a full slot max-min fairly. A newcomer of a realm holding fewer exact entries in the slot than
 * the realm holding the most takes the place of one of that realm's entries (one worth at most one attempt if it
 * has one, else the least protective: calm, then in the band, then blocking; of those the one expiring first); a protective entry
 * that gives way is folded into its realm's shared counter ({@link LockoutEntry#merge}: over-counted, never lost)
 * while the slot has room for one. So with at most {@code ways} realms present, each keeps at least
 * {@code ways / realms present} exact entries of the slot, whatever the others send. A newcomer of the realm
 * holding the most makes room only from its own realm: a cheap entry of its own worth at most one attempt (see
 * {@link #replaceable}), else its realm's shared counter of its kind (one per realm in the protective table). Every
 * newcomer of that realm is counted there while it lives (a subject counted there must not start an exact count
 * from zero): its count includes every other sharer's of the same realm, never another realm's, so it can only be
 * over-counted. A shared count of an address or a pair never blocks: where an exact one would, it asks for a
 * captcha and lets a solved one through, counted. A shared lockout count blocks where an exact one would, solved
 * captcha or not (see {@link #cap}). A used-captcha record of a realm at its share finds no room and is refused (the
 * solution counts as unsolved) before another realm's is. A newcomer that finds no place at all (the slot's shared
 * counters all taken, by more than {@code ways} realms) is answered without being kept: a captcha asked for, a
 * reservation refused.
 *
 * <p>Layout of a slot ({@code long[]}): {@code [format << 32 | realms << 24 | held << 16 | result, latestExpiry,
 * entry...]}, each entry {@code [realmTag, meta, hi, lo, expiry, value...]} with {@code meta = shared << 62 | kind
 * << 40 | shape << 32 | valueLength}. {@code format} is {@link StoreCodec#FORMAT}: a slot of another format is read
 * as absent, never misread. {@code result} is the offset of the entry that holds this change's answer (0: none), so
 * the caller reads its answer from the slot the store hands back; {@code held} and {@code realms} are the writing
 * realm's exact entries in the slot and the realms holding any ({@link #shareUse}, for the store's metric).
 * Expired entries are dropped by the next change of their slot.
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
        return (int) slot[RESULT] & 0xFFFF;
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
        int sharedKind = sharedKind(kind, policy);
        long sharedId = meta(true, sharedKind, 0, 0);
        int exact = -1;
        int sharedAt = -1;
        int exactLive = 0;
        int sharedLive = 0;
        int[] offsets = new int[slot == null ? 0 : 2 * ways + 4];
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
                    sharedLive++;
                    if (same(slot, o, realm, sharedId, 0, 0)) {
                        sharedAt = o;
                    }
                } else {
                    exactLive++;
                    if (same(slot, o, realm, id, hi, lo)) {
                        exact = o;
                    }
                }
            }
        }
        int target;
        long[] next;
        boolean onShared = false;
        boolean homeless = false;
        // another realm's entry that gave way to the newcomer is folded into that realm's shared counter: either
        // into the one it has (foldInto, rewritten with merged) or as a new one (movedOut, the entry itself)
        int foldInto = -1;
        long[] merged = null;
        boolean movedOut = false;
        if (policy != Policy.USED && change.settlesShared()) {
            // the attempt was counted on the realm's shared counter: it is settled there, never on an exact entry
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
            if (next != null && sharedAt >= 0 && policy != Policy.USED) {
                // While the realm's shared counter of this kind is live, a newcomer is counted there even if room
                // has come free: it may have been counted there before, and a fresh exact count would forget that.
                onShared = true;
                target = sharedAt;
                next = change.next(true, value(slot, sharedAt));
            } else if (next != null && exactLive >= ways) {
                Room room = new Room(slot, offsets, n, realm, now);
                if (room.mine < room.most) {
                    // max-min fairness: a realm holding fewer entries here than the most present one takes the
                    // place of one of that realm's entries (that realm is over its share: it alone gives way)
                    target = room.victimOf(room.mostRealm, policy);
                    if (policy == Policy.PROTECTIVE) {
                        // a protective entry is never dropped while its realm has a shared counter or there is
                        // room for one: its count goes there, over-counted, never lost
                        foldInto = room.sharedOf(room.mostRealm);
                        if (foldInto >= 0) {
                            merged = LockoutEntry.merge(value(slot, foldInto), value(slot, target), now);
                        } else {
                            movedOut = sharedLive < ways;
                        }
                    }
                } else if (policy == Policy.USED) {
                    next = null; // a realm at its share is refused before another realm is
                } else {
                    int own = policy == Policy.CHEAP ? room.replaceable(realm) : -1;
                    if (own >= 0) {
                        target = own; // replaced: the entry was worth at most one attempt to its owner
                    } else {
                        onShared = true;
                        // the realm's own shared counter, if the slot's room for shared counters has a place
                        homeless = sharedLive >= ways;
                    }
                }
            }
        }
        if (onShared && next != null) {
            next = homeless ? homeless(change, next) : cap(change, next);
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
        // Build the new slot: every live entry but the target (one folded into rewritten), then the entry moved
        // out to its realm's shared counter, then the target's new value.
        int size = HEADER;
        for (int i = 0; i < n; i++) {
            int o = offsets[i];
            if (o != target) {
                size += E_VALUE + (o == foldInto ? merged.length : length(slot[o + E_META]));
            }
        }
        if (movedOut) {
            size += E_VALUE + length(slot[target + E_META]);
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
            if (o == target) {
                continue;
            }
            if (o == foldInto) {
                System.arraycopy(slot, o, out, w, E_VALUE);
                out[w + E_META] = meta(true, kind(slot[o + E_META]), 0, merged.length);
                out[w + E_EXP] = Math.max(slot[o + E_EXP], slot[target + E_EXP]);
                System.arraycopy(merged, 0, out, w + E_VALUE, merged.length);
            } else {
                System.arraycopy(slot, o, out, w, E_VALUE + length(slot[o + E_META]));
            }
            latest = Math.max(latest, out[w + E_EXP]);
            w += E_VALUE + length(out[w + E_META]);
        }
        if (movedOut) {
            int len = length(slot[target + E_META]);
            System.arraycopy(slot, target, out, w, E_VALUE + len);
            out[w + E_META] = meta(true, sharedKind(kind(slot[target + E_META]), policy), 0, len);
            out[w + E_HI] = 0;
            out[w + E_LO] = 0;
            latest = Math.max(latest, out[w + E_EXP]);
            w += E_VALUE + len;
        }
        out[RESULT] = FORMAT_WORD;
        if (next != null) {
            out[RESULT] = FORMAT_WORD | w;
            boolean sh = onShared;
            out[w + E_REALM] = realm;
            out[w + E_META] = sh ? meta(true, sharedKind, 0, next.length) : meta(false, kind, shape, next.length);
            out[w + E_HI] = sh ? 0 : hi;
            out[w + E_LO] = sh ? 0 : lo;
            long old = target >= 0 && target == (sh ? sharedAt : exact) ? slot[target + E_EXP] : 0;
            // a shared counter lives as long as the longest change it counted (it is every sharer's count); a
            // homeless answer is written expired: it carries the answer back and the next change drops it
            long exp = homeless ? now : sh ? Math.max(old, now + ttl) : now + ttl;
            out[w + E_EXP] = exp;
            System.arraycopy(next, 0, out, w + E_VALUE, next.length);
            latest = Math.max(latest, homeless ? 0 : exp);
        }
        out[LATEST] = latest;
        return withShare(out, realm, ways, now);
    }

    /**
     * The kind of a realm's shared counter for subjects of {@code kind}: in the protective table one per realm
     * (accounts and devices keep the same value, {@link LockoutEntry}, and so can be folded together); in the cheap
     * table one per kind (addresses and pairs keep different values).
     */
    private static int sharedKind(int kind, Policy policy) {
        return policy == Policy.PROTECTIVE ? CounterKey.Kind.ACCOUNT.ordinal() : kind;
    }

    /** Who holds a full slot's exact entries: each has a realm. */
    private static final class Room {
        private final long[] slot;
        private final int[] offsets;
        private final int n;
        private final long now;
        /** Exact entries the newcomer's realm holds, the most any other realm holds, and that realm. */
        final int mine;
        final int most;
        final long mostRealm;

        Room(long[] slot, int[] offsets, int n, long realm, long now) {
            this.slot = slot;
            this.offsets = offsets;
            this.n = n;
            this.now = now;
            int m = 0;
            int best = 0;
            long bestRealm = 0;
            long bestExpiry = Long.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                int o = offsets[i];
                if (shared(slot[o + E_META])) {
                    continue;
                }
                long r = slot[o + E_REALM];
                if (r == realm) {
                    m++;
                    continue;
                }
                int c = 0;
                long first = Long.MAX_VALUE;
                for (int j = 0; j < n; j++) {
                    int p = offsets[j];
                    if (slot[p + E_REALM] == r && !shared(slot[p + E_META])) {
                        c++;
                        first = Math.min(first, slot[p + E_EXP]);
                    }
                }
                // ties go to the realm whose first entry expires first, then the lower tag: every copy agrees
                if (c > best || c == best && (first < bestExpiry || first == bestExpiry && r < bestRealm)) {
                    best = c;
                    bestRealm = r;
                    bestExpiry = first;
                }
            }
            this.mine = m;
            this.most = best;
            this.mostRealm = bestRealm;
        }

        /**
         * The exact entry realm {@code r} gives up: one worth at most one attempt if it has one (cheap table), else
         * the least protective one, and of those the one that expires first: one whose last answer neither blocked
         * nor asked for a captcha, else one in the captcha band, and a blocking entry only when the realm holds
         * nothing else here (a blocked subject keeps its block while its realm has anything else to give).
         */
        int victimOf(long r, Policy policy) {
            int best = policy == Policy.CHEAP ? replaceable(r) : -1;
            if (best >= 0) {
                return best;
            }
            for (int i = 0; i < n; i++) {
                int o = offsets[i];
                if (slot[o + E_REALM] != r || shared(slot[o + E_META])) {
                    continue;
                }
                if (best < 0 || rank(o) < rank(best) || rank(o) == rank(best) && slot[o + E_EXP] < slot[best + E_EXP]) {
                    best = o;
                }
            }
            return best;
        }

        /** How much an entry protects: 0 calm, 1 in the captcha band, 2 blocking (its last answer, either layer). */
        private int rank(int o) {
            if (length(slot[o + E_META]) == 0) {
                return 0;
            }
            long a = slot[o + E_VALUE];
            int worst = Math.max(LayerOutcome.of(a).ordinal(), LayerOutcome.of(a >>> 2).ordinal());
            return Math.max(0, worst - LayerOutcome.COUNTED.ordinal());
        }

        /** Realm {@code r}'s shared counter (the protective table has one per realm), or -1. */
        int sharedOf(long r) {
            for (int i = 0; i < n; i++) {
                int o = offsets[i];
                if (slot[o + E_REALM] == r && shared(slot[o + E_META])) {
                    return o;
                }
            }
            return -1;
        }

        /** Realm {@code r}'s replaceable exact entry that expires first, or -1. */
        int replaceable(long r) {
            int best = -1;
            for (int i = 0; i < n; i++) {
                int o = offsets[i];
                long meta = slot[o + E_META];
                if (slot[o + E_REALM] == r && !shared(meta) && Slots.replaceable(kind(meta), value(slot, o), now)
                        && (best < 0 || slot[o + E_EXP] < slot[best + E_EXP])) {
                    best = o;
                }
            }
            return best;
        }
    }

    /**
     * The slot with the writing realm's share of it in the result word: the exact entries it holds and the realms
     * holding any ({@link #shareUse}). Read by the store for its metric, never by a decision.
     */
    private static long[] withShare(long[] out, long realm, int ways, long now) {
        int held = 0;
        int realms = 0;
        for (int o = HEADER; o < out.length; o += E_VALUE + length(out[o + E_META])) {
            if (shared(out[o + E_META]) || out[o + E_EXP] <= now) {
                continue;
            }
            long r = out[o + E_REALM];
            held += r == realm ? 1 : 0;
            boolean first = true;
            for (int p = HEADER; p < o && first; p += E_VALUE + length(out[p + E_META])) {
                first = shared(out[p + E_META]) || out[p + E_EXP] <= now || out[p + E_REALM] != r;
            }
            realms += first ? 1 : 0;
        }
        out[RESULT] |= (long) Math.min(held, 0xff) << 16 | (long) Math.min(realms, 0xff) << 24;
        return out;
    }

    /**
     * The part of its slot the realm that wrote it holds, against its fair share there ({@code ways / realms
     * present}): 1 is exactly its share of a full slot; above 1 it holds more than its share (it is the first to
     * give way when the slot is full); 0 for a slot it holds no exact entry in.
     */
    public static double shareUse(long[] slot, int ways) {
        slot = readable(slot);
        if (slot == null) {
            return 0;
        }
        int held = (int) (slot[RESULT] >>> 16) & 0xff;
        int realms = (int) (slot[RESULT] >>> 24) & 0xff;
        return realms == 0 ? 0 : (double) held * realms / Math.max(1, ways);
    }

    /**
     * A shared count of a cheap subject never blocks: where it would, an attempt without a solved captcha is asked
     * for one, and one with a solved captcha passes, counted. A shared lockout count blocks where an exact one would
     * (locked, or its budget taken), solved captcha or not: everyone of the realm counted there is refused until it
     * expires (the cautious answer: a flood of the realm must not turn a lock into a captcha). A failure on it
     * is never anybody's own lock.
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
        } else if (change instanceof Change.Fail) {
            c[0] = (a == FailureOutcome.LOCKED.ordinal() ? FailureOutcome.COUNTED.ordinal() : a) | Answers.SHARED;
        } else {
            c[0] = a | Answers.SHARED;
        }
        return c;
    }

    /**
     * The answer for a subject that found no place (nothing of its realm in a full slot may give way): nothing is
     * counted, so nothing may pass uncounted: a cheap layer asks for a captcha (a solved one passes), a reservation
     * is refused.
     */
    private static long[] homeless(Change change, long[] v) {
        long[] c = v.clone();
        LayerOutcome band = change instanceof Change.AdmitAddress a ? (a.solved() ? LayerOutcome.COUNTED : LayerOutcome.BAND)
                : change instanceof Change.AdmitPair p ? (p.solved() ? LayerOutcome.COUNTED : LayerOutcome.BAND) : null;
        if (change instanceof Change.AdmitAddress) {
            LayerOutcome r1 = LayerOutcome.of(c[0]) == LayerOutcome.OFF ? LayerOutcome.OFF : band;
            LayerOutcome r4 = LayerOutcome.of(c[0] >>> 2) == LayerOutcome.OFF ? LayerOutcome.OFF : band;
            c[0] = Answers.admission(r1, r4) | Answers.SHARED;
        } else if (change instanceof Change.AdmitPair) {
            c[0] = band.bits() | Answers.SHARED;
        } else if (change instanceof Change.Reserve) {
            c[0] = LayerOutcome.BLOCKED.bits() | Answers.SHARED;
        } else {
            c[0] = cap(change, v)[0];
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
     * A realm's shared counter of one kind in a slot as of {@code now}, or null (the protective table keeps one per
     * realm, filed as {@link CounterKey.Kind#ACCOUNT}). Package-private: a store reaches a shared
     * counter only through {@link #apply}; the tests of the slot format look at it directly.
     */
    static long[] shared(long[] slot, long realm, int kind, long now) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        long id = meta(true, kind, 0, 0);
        for (int o = HEADER; o < slot.length; o += E_VALUE + length(slot[o + E_META])) {
            if (shared(slot[o + E_META]) && slot[o + E_EXP] > now && same(slot, o, realm, id, 0, 0)) {
                return value(slot, o);
            }
        }
        return null;
    }
}
