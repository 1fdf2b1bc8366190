package dev.abusegate.engine.store;

import static dev.abusegate.engine.store.SlotFormat.E_EXP;
import static dev.abusegate.engine.store.SlotFormat.E_META;
import static dev.abusegate.engine.store.SlotFormat.FORMAT_WORD;
import static dev.abusegate.engine.store.SlotFormat.HEADER;
import static dev.abusegate.engine.store.SlotFormat.LATEST;
import static dev.abusegate.engine.store.SlotFormat.RESULT;
import static dev.abusegate.engine.store.SlotFormat.after;
import static dev.abusegate.engine.store.SlotFormat.readable;
import static dev.abusegate.engine.store.SlotFormat.resultOffset;
import static dev.abusegate.engine.store.SlotFormat.same;
import static dev.abusegate.engine.store.SlotFormat.value;

import dev.abusegate.engine.keys.CounterKey;

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
 * <p>Realms share a full slot max-min fairly ({@link Room}). A newcomer of a realm holding fewer exact entries in
 * the slot than the realm holding the most takes the place of one of that realm's entries (one worth at most one
 * attempt if it has one, else the least protective: calm, then in the band, then blocking; of those the one
 * expiring first); a protective entry that gives way is folded into its realm's shared counter
 * ({@link EntryCodec#merge}: over-counted, never lost) while the slot has room for one. So with at most
 * {@code ways} realms present, each keeps at least {@code ways / realms present} exact entries of the slot,
 * whatever the others send. A newcomer of the realm holding the most makes room only from its own realm: a cheap
 * entry of its own worth at most one attempt ({@link EntryCodec#worthOneAttempt}), else its realm's shared counter
 * of its kind (one per realm in the protective table). Every newcomer of that realm is counted there while it
 * lives (a subject counted there must not start an exact count from zero): its count includes every other
 * sharer's of the same realm, never another realm's, so it can only be over-counted. A shared count of an address
 * or a pair never blocks: where an exact one would, it asks for a captcha and lets a solved one through, counted.
 * A shared lockout count blocks where an exact one would, solved captcha or not ({@link EntryCodec#onShared}). A
 * used-captcha record of a realm at its share finds no room and is refused (the solution counts as unsolved)
 * before another realm's is. A newcomer that finds no place at all (the slot's shared counters all taken, by more
 * than {@code ways} realms) is answered without being kept: a captcha asked for, a reservation refused
 * ({@link EntryCodec#homeless}).
 *
 * <p>The layout of a slot is {@link SlotFormat}'s; a slot of a format this node does not read ({@link Versions})
 * is read as absent, never misread, and the next change writes it again. Expired entries are dropped by the next
 * change of their slot.
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

    /**
     * The format a slot was written in (0: a slot that carries no format number). Package-private: only the format's tests
     * read it; a store reads a slot through {@link #find} and {@link #apply}, which check the format themselves.
     */
    static int format(long[] slot) {
        return SlotFormat.format(slot);
    }

    /**
     * Whether a stored slot is of a format this node does not read ({@link Versions}): it is read as absent, and
     * the store says so in a WARN. Null (no slot) is not.
     */
    public static boolean unreadable(long[] slot) {
        return SlotFormat.unreadable(slot);
    }

    /**
     * Applies {@code change} for {@code subject} to its slot and returns the new slot (null when it holds nothing
     * any more). Never modifies {@code slot}. The change's own time is the clock, so every copy computes the same
     * slot. A slot of a format outside {@link Versions}' range is read as absent and replaced.
     */
    public static long[] apply(long[] slot, Subject subject, Change change, long ttl, TableShape table) {
        return SlotWriter.write(Placement.of(readable(slot), subject, change, ttl, table));
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

    /** The answer of the change that wrote {@code slot}: the value it left (marked if shared), or null. */
    public static long[] result(long[] slot) {
        slot = readable(slot);
        return slot == null || resultOffset(slot) == 0 ? null : value(slot, resultOffset(slot));
    }

    /** A subject's exact value in its slot as of {@code now}, or null (a shared count is nobody's own). */
    public static long[] find(long[] slot, Subject subject, long now) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        for (int o = HEADER; o < slot.length; o = after(slot, o)) {
            if (slot[o + E_EXP] > now && same(slot, o, subject)) {
                return value(slot, o);
            }
        }
        return null;
    }

    /**
     * A subject's exact value as of {@code now}, else its realm's shared counter of its kind's shared kind
     * ({@link EntryCodec#sharedKind}) in the slot, marked {@link Answers#SHARED} (what {@link CounterStore#peek}
     * answers), else null. A used-captcha record has no shared counter.
     */
    public static long[] findOrShared(long[] slot, Subject subject, long now, Policy policy) {
        long[] v = find(slot, subject, now);
        if (v != null || policy == Policy.USED) {
            return v;
        }
        long[] s = shared(slot, subject.realm(), EntryCodec.of(subject.kind()).sharedKind(), now);
        if (s != null) {
            s[0] |= Answers.SHARED;
        }
        return s;
    }

    /**
     * The slot without the subject's exact entry (null when nothing is left, or the slot is of a format this node
     * does not read); the same array when it had none.
     */
    public static long[] remove(long[] slot, Subject subject) {
        slot = readable(slot);
        if (slot == null) {
            return null;
        }
        for (int o = HEADER; o < slot.length; o = after(slot, o)) {
            if (same(slot, o, subject)) {
                int len = after(slot, o) - o;
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
        for (int o = HEADER; o < slot.length; o = after(slot, o)) {
            if (slot[o + E_EXP] > now && SlotFormat.shared(slot[o + E_META]) == sharedOnes) {
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
        for (int o = HEADER; o < slot.length; o = after(slot, o)) {
            if (slot[o + E_EXP] > now && SlotFormat.sameShared(slot, o, realm, kind)) {
                return value(slot, o);
            }
        }
        return null;
    }
}
