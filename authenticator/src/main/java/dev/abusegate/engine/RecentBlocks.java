package dev.abusegate.engine;

import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.CounterKey;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Addresses this node has just seen blocked by their own count on layer 1, so that an address that keeps
 * hammering while blocked costs the store one change per {@code holdMillis} on this node, not one per attempt.
 * In a cluster that change is a round trip to the entry's owners and their backup write: without this, a flood
 * from one blocked address is multiplied into cluster traffic.
 *
 * <p>What it changes: layer 1 blocks when an address's count has reached the threshold, whatever identifier it
 * sends, and past the threshold more counting only pushes the window's end further out. An attempt answered from
 * here gets the same answer, event and metric as one the store blocked, but is not written, so while the flood
 * lasts the window's end is pushed out once per {@code holdMillis}: the block ends at most {@code holdMillis}
 * sooner than if every attempt were written, and the counts past the threshold (layer 1's, and the pair's and
 * identifiers' counting of blocked attempts) are lower. For at most {@code holdMillis} after the store last said
 * "blocked", the answer stays "blocked" even where the store would now answer otherwise: a captcha answer gave
 * an attempt's count back, the store became unreachable (a held answer reports no outage), or another node
 * cleared the address. A block is never answered from here under another threshold or window than the one it
 * was decided with, nor if the clock went back; clearing the address on this node forgets it at once. Only
 * blocks the store counted are remembered, never a layer that failed closed.
 *
 * <p>Bounded: a fixed table of {@value #SLOTS} slots, each one immutable record replaced whole. The slot is chosen
 * by mixing the address key with a seed drawn at random when the table is made (an address key of an IP address
 * is its bits, which a client chooses), so a client cannot pick addresses that share a slot. A flood of many
 * blocked addresses overwrites slots, which only sends more of them to the store.
 */
final class RecentBlocks {

    static final int SLOTS = 4096;

    /** One remembered block; immutable, so a slot is read whole or not at all. */
    private record Slot(CounterKey address, int threshold, long windowMillis, long since, long until) {
    }

    private final long holdMillis;
    /** A hint for the edge ({@link #edgeHints()}): held for the layer's whole window, not a tenth of it. */
    private final boolean wholeWindow;
    private final long seed;
    /** A reader sees a slot's old or new record, either one complete; a forgotten slot is seen empty by every thread. */
    private final AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(SLOTS);
    /** Counts clears: a block the store answered before a clear that finished since is not remembered. */
    private final AtomicLong clears = new AtomicLong();

    RecentBlocks(long holdMillis) {
        this(holdMillis, new SecureRandom().nextLong());
    }

    /** With a given seed (tests). */
    RecentBlocks(long holdMillis, long seed) {
        this(holdMillis, seed, false);
    }

    private RecentBlocks(long holdMillis, long seed, boolean wholeWindow) {
        if (holdMillis <= 0) {
            throw new IllegalArgumentException("holdMillis must be positive, was " + holdMillis);
        }
        this.holdMillis = holdMillis;
        this.seed = seed;
        this.wholeWindow = wholeWindow;
    }

    /**
     * The same table as hints for the edge ({@link EdgeAdmission}): an address the store blocked on layer 1 or 4, or
     * answered in the captcha band, is held for layer 1's whole window after the store last said so (the window a
     * count past the threshold pushes out; a layer-4 block's hint at most layer 4's), and never answered from here: a
     * hint only says that asking the store before Keycloak's flow is worth it.
     */
    static RecentBlocks edgeHints() {
        return new RecentBlocks(Long.MAX_VALUE, new SecureRandom().nextLong(), true);
    }

    /** How long a block is answered from here: {@code holdMillis}, but at most a tenth of the layer's window. */
    private long hold(LayerPolicy p) {
        return wholeWindow ? Math.max(1, p.windowMillis()) : Math.max(1, Math.min(holdMillis, p.windowMillis() / 10));
    }

    /** The slot of {@code address}: its key mixed with the seed (two rounds of a 64-bit finalizer), top bits. */
    int index(CounterKey address) {
        long x = mix(mix(address.hi() ^ seed) ^ address.lo() ^ address.realmTag());
        return (int) (x >>> (64 - Integer.numberOfTrailingZeros(SLOTS)));
    }

    private static long mix(long x) {
        x = (x ^ x >>> 33) * 0xff51afd7ed558ccdL;
        x = (x ^ x >>> 33) * 0xc4ceb9fe1a85ec53L;
        return x ^ x >>> 33;
    }

    /** Read before asking the store; hand it to {@link #remember} with the store's answer. */
    long clears() {
        return clears.get();
    }

    private static boolean same(Slot s, CounterKey address) {
        CounterKey a = s.address;
        return a.hi() == address.hi() && a.lo() == address.lo() && a.realmTag() == address.realmTag() && a.shape() == address.shape();
    }

    /**
     * Whether {@code address} was remembered under layer 1's policy {@code p} less than the hold ago, as the store said
     * (a block on layer 1; in the edge's hints also a block on layer 4 or a band answer).
     */
    boolean holds(CounterKey address, LayerPolicy p, long now) {
        Slot s = slots.get(index(address));
        return s != null && now >= s.since && now < s.until && same(s, address) && s.threshold == p.threshold()
                && s.windowMillis == p.windowMillis();
    }

    /**
     * The store has just blocked {@code address} on layer 1 under policy {@code p}, answering a change sent after
     * {@link #clears()} returned {@code clearsBefore}. Not remembered if a clear has finished since: the answer may
     * be older than the clear.
     */
    void remember(CounterKey address, LayerPolicy p, long now, long clearsBefore) {
        remember(address, p, now, Long.MAX_VALUE, clearsBefore);
    }

    /** As {@link #remember(CounterKey, LayerPolicy, long, long)}, held until {@code until} at the latest. */
    void remember(CounterKey address, LayerPolicy p, long now, long until, long clearsBefore) {
        int i = index(address);
        Slot mine = new Slot(address, p.threshold(), p.windowMillis(), now, Math.min(now + hold(p), until));
        slots.set(i, mine);
        // Either this sees a clear's count, or that clear's forget sees this record (both are volatile).
        if (clears.get() != clearsBefore) {
            slots.compareAndSet(i, mine, null);
        }
    }

    /** Forgets {@code address}, whose counters are being cleared: call before and after removing them. */
    void forget(CounterKey address) {
        clears.incrementAndGet();
        int i = index(address);
        Slot s = slots.get(i);
        if (s != null && same(s, address)) {
            slots.compareAndSet(i, s, null);
        }
    }
}
