package dev.abusegate.engine;

/**
 * Addresses this node has just seen blocked by their own count on layer 1, so that an address that keeps
 * hammering while blocked costs the store one change per {@code holdMillis} on this node, not one per attempt.
 * In a cluster that change is a round trip to the entry's owners and their backup write: without this, a flood
 * from one blocked address is multiplied into cluster traffic.
 *
 * <p>What it changes, and why that is safe: layer 1 blocks when an address's count has reached the threshold,
 * whatever identifier it sends, and past the threshold more counting only pushes the window's end further out.
 * An attempt answered from here is blocked like any other (same answer, same event and metric) but not written,
 * so the window's end is pushed out at least once per {@code holdMillis} while the flood lasts: the block ends at
 * most {@code holdMillis} sooner than if every attempt were written, and the counts past the threshold (layer 1's,
 * and the pair's and identifiers' counting of blocked attempts) are lower. A remembered block is never answered
 * for longer than {@code holdMillis} after the store last said so (nor if the clock went back), nor under another threshold or window than
 * the one it was decided with; clearing the address on this node forgets it at once (other nodes: within
 * {@code holdMillis}). Only blocks the store decided are remembered, never a layer that failed closed.
 *
 * <p>Bounded: a fixed table of {@value #SLOTS} slots indexed by the address's keyed hash (which a client cannot
 * steer), each slot one immutable record replaced whole. A flood of many blocked addresses overwrites slots, which
 * only sends more of them to the store.
 */
final class RecentBlocks {

    static final int SLOTS = 4096;

    /** One remembered block; immutable, so a slot is read whole or not at all. */
    private record Slot(long realm, int shape, long hi, long lo, int threshold, long windowMillis, long since, long until) {
    }

    private final long holdMillis;
    /** Written and read without locks: a reader sees a slot's old or new record, either is a complete record. */
    private final Slot[] slots = new Slot[SLOTS];

    RecentBlocks(long holdMillis) {
        if (holdMillis <= 0) {
            throw new IllegalArgumentException("holdMillis must be positive, was " + holdMillis);
        }
        this.holdMillis = holdMillis;
    }

    /** How long a block is answered from here: {@code holdMillis}, but at most a tenth of the layer's window. */
    private long hold(LayerPolicy p) {
        return Math.max(1, Math.min(holdMillis, p.windowMillis() / 10));
    }

    private static int index(CounterKey address) {
        long x = address.hi() ^ address.lo() ^ address.realmTag();
        return (int) (x ^ x >>> 32) & (SLOTS - 1);
    }

    private static boolean same(Slot s, CounterKey address) {
        return s.hi == address.hi() && s.lo == address.lo() && s.realm == address.realmTag() && s.shape == address.shape();
    }

    /** Whether layer 1 blocked {@code address} under policy {@code p} less than the hold ago, as the store said. */
    boolean holds(CounterKey address, LayerPolicy p, long now) {
        Slot s = slots[index(address)];
        return s != null && now >= s.since && now < s.until && same(s, address) && s.threshold == p.threshold()
                && s.windowMillis == p.windowMillis();
    }

    /** The store has just blocked {@code address} on layer 1 under policy {@code p}. */
    void remember(CounterKey address, LayerPolicy p, long now) {
        slots[index(address)] = new Slot(address.realmTag(), address.shape(), address.hi(), address.lo(), p.threshold(),
                p.windowMillis(), now, now + hold(p));
    }

    /** Forgets {@code address} (its counters were cleared). */
    void forget(CounterKey address) {
        int i = index(address);
        Slot s = slots[i];
        if (s != null && same(s, address)) {
            slots[i] = null;
        }
    }
}
