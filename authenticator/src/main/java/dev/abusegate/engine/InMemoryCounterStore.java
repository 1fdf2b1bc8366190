package dev.abusegate.engine;

import java.util.Arrays;
import java.util.concurrent.locks.StampedLock;

/**
 * A counter store in one JVM's heap, on the gate's clock. Atomic per key. Meant for tests, benchmarks
 * and single-node experiments; the Keycloak adapter uses Infinispan.
 *
 * <p>Built so that a decision costs few cache misses and leaves no garbage behind: entries are not
 * objects but eight {@code long}s (64 bytes) in open-addressing tables with linear probing, 64 tables,
 * each guarded by its own {@link StampedLock}; reads are optimistic and mostly take no lock at all. Keys
 * of one subject (an address's counter and distinct set, an identifier's failures and lock) hash to the
 * same home slot and so sit side by side. A distinct set of
 * up to three members lives in its entry; a larger one keeps its members in a chunk of its table's member
 * arena (a {@code long[]} beside the table), whose offset the entry holds, so that reading it costs one
 * more line, not an object lookup and then the object, and growing it allocates nothing but now and then
 * a larger chunk. Expired or cleared entries read as absent, keep their slot for their key, and are
 * dropped when a table is rebuilt (on growth, or by {@link #purgeExpired(long)}); their chunks are
 * reclaimed then, or when the arena fills up and is compacted. Each table counts its lock entries, so that
 * looking up a lock (nearly always absent) costs no probe walk while the table holds none.
 */
public final class InMemoryCounterStore implements CounterStore {

    private static final int STRIPES = 64;
    private static final int STRIPE_SHIFT = 64 - Integer.numberOfTrailingZeros(STRIPES);
    private static final int MIN_CAPACITY = 16;

    // One entry: W longs.
    private static final int W = 8;
    /** {@link CounterKey#meta()}; 0 marks an empty slot. */
    private static final int META = 0;
    private static final int HI = 1;
    private static final int LO = 2;
    private static final int EXPIRES = 3;
    /** A counter's value; a set's size. */
    private static final int VALUE = 4;
    /**
     * A small set's members, sorted: words MEMBERS .. MEMBERS + INLINE - 1. A larger set's members are in
     * its table's arena, sorted: word CHUNK holds their offset there, word CHUNK_SIZE the chunk's length.
     */
    private static final int MEMBERS = 5;
    private static final int CHUNK = MEMBERS;
    private static final int CHUNK_SIZE = MEMBERS + 1;
    /** The first chunk a set gets when it outgrows its entry; a full chunk is followed by one twice as long. */
    private static final int FIRST_CHUNK = 8;
    private static final int MIN_ARENA = 64;
    /** A counter's confirmed units ({@link #confirm}); a counter has no members, so it takes their first word. */
    private static final int CONFIRMED = MEMBERS;
    private static final int INLINE = W - MEMBERS;
    /**
     * What the entry holds (COUNTER, LOCK, SET or NONE) sits in the top two bits of its META word, above the
     * key's own bits ({@link CounterKey#meta()} stays below 2^56), so that a set has three member words, not two.
     */
    private static final int TYPE_SHIFT = 62;
    private static final long KEY_BITS = (1L << TYPE_SHIFT) - 1;
    /**
     * Words before the first entry. A table large enough to matter is a humongous object to G1 and starts
     * at a region boundary, its elements 16 bytes in; six more words put every entry on a 64-byte cache line
     * of its own, so reading an entry (a set's members included) costs one line, not two. {@code b / W} is
     * still the slot number.
     */
    private static final int BASE = 6;

    private static final long COUNTER = 0;
    private static final long LOCK = 1;
    private static final long SET = 2;
    /** A cleared entry: nothing reads it. */
    private static final long NONE = 3;
    /** For {@link #read}: any type. */
    private static final long ANY = -1;

    private final Stripe[] stripes = new Stripe[STRIPES];

    public InMemoryCounterStore() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    private Stripe stripe(CounterKey key) {
        return stripes[(int) (key.subjectHash() >>> STRIPE_SHIFT)];
    }

    // Reads first try without locking (an optimistic read of the stripe's StampedLock, kept only if no write
    // happened meanwhile) and take the read lock otherwise. Writes take the write lock.

    @Override
    public long count(CounterKey key, long nowMillis) {
        return read(key, nowMillis, COUNTER);
    }

    /**
     * A counter's value ({@code type} COUNTER) or the milliseconds a live entry has left (LOCK: only a lock;
     * ANY: whatever it holds); 0 when there is no such live entry.
     */
    private long read(CounterKey key, long nowMillis, long type) {
        Stripe s = stripe(key);
        long v = s.tryOptimisticRead();
        if (v != 0) {
            long r = s.read(key, nowMillis, type);
            if (s.validate(v)) {
                return r;
            }
        }
        long stamp = s.readLock();
        try {
            return s.read(key, nowMillis, type);
        } finally {
            s.unlockRead(stamp);
        }
    }

    private static long read(long[] t, CounterKey key, long now, long type) {
        int b = probe(t, key);
        if (b < 0 || t[b + EXPIRES] <= now || type != ANY && type(t, b) != type) {
            return 0;
        }
        return type == COUNTER ? t[b + VALUE] : t[b + EXPIRES] - now;
    }

    @Override
    public long increment(CounterKey key, long windowMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.findOrAdd(key, nowMillis);
            long[] t = s.t;
            boolean live = type(t, b) == COUNTER && t[b + EXPIRES] > nowMillis;
            long v = live ? t[b + VALUE] + 1 : 1;
            if (!live) {
                t[b + CONFIRMED] = 0;
            }
            s.setType(b, COUNTER);
            t[b + VALUE] = v;
            t[b + EXPIRES] = nowMillis + windowMillis;
            return v;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public void decrement(CounterKey key, long windowMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.find(key);
            if (b < 0) {
                return;
            }
            long[] t = s.t;
            if (type(t, b) != COUNTER || t[b + EXPIRES] <= nowMillis || t[b + VALUE] <= 1) {
                s.expire(b);
                return;
            }
            long v = --t[b + VALUE];
            if (t[b + CONFIRMED] > v) {
                t[b + CONFIRMED] = v;
            }
            t[b + EXPIRES] = nowMillis + windowMillis;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public long confirm(CounterKey key, long windowMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.findCounter(key, nowMillis);
            if (b < 0) {
                return 0;
            }
            long[] t = s.t;
            long c = Math.min(t[b + CONFIRMED] + 1, t[b + VALUE]);
            t[b + CONFIRMED] = c;
            t[b + EXPIRES] = nowMillis + windowMillis;
            return c;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.findCounter(key, nowMillis);
            if (b < 0) {
                return;
            }
            long[] t = s.t;
            long left = t[b + VALUE] - t[b + CONFIRMED] - unconfirmed;
            if (left <= 0) {
                s.expire(b);
                return;
            }
            t[b + VALUE] = left;
            t[b + CONFIRMED] = 0;
            t[b + EXPIRES] = nowMillis + windowMillis;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public DistinctView distinct(CounterKey key, long member, long nowMillis) {
        Stripe s = stripe(key);
        long v = s.tryOptimisticRead();
        if (v != 0) {
            long[] t = s.t;
            long[] arena = s.arena;
            int b = probe(t, key);
            int size = b >= 0 && type(t, b) == SET && t[b + EXPIRES] > nowMillis ? (int) t[b + VALUE] : 0;
            // A writer may be changing what is read here, or have replaced the table or the arena: read the
            // chunk's offset once, search only within bounds, and keep the answer only if the stamp says that
            // nothing was written meanwhile.
            long[] in = t;
            long base = b + MEMBERS;
            if (size > INLINE) {
                in = arena;
                base = t[b + CHUNK];
            }
            if (size == 0 || size > 0 && base >= 0 && base <= in.length - size) {
                boolean contains = size > 0 && search(in, (int) base, size, member) >= 0;
                if (s.validate(v)) {
                    return size == 0 ? DistinctView.EMPTY : DistinctView.of(size, contains);
                }
            }
        }
        long stamp = s.readLock();
        try {
            long[] t = s.t;
            int b = probe(t, key);
            if (b < 0 || type(t, b) != SET || t[b + EXPIRES] <= nowMillis) {
                return DistinctView.EMPTY;
            }
            int size = (int) t[b + VALUE];
            return DistinctView.of(size, s.indexOf(b, size, member) >= 0);
        } finally {
            s.unlockRead(stamp);
        }
    }

    @Override
    public DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.findOrAdd(key, nowMillis);
            long[] t = s.t;
            if (type(t, b) != SET || t[b + EXPIRES] <= nowMillis) {
                s.setType(b, SET);
                t[b + VALUE] = 0;
            }
            int size = (int) t[b + VALUE];
            int at = s.indexOf(b, size, member);
            boolean contains = at >= 0;
            if (!contains && size < cap) {
                s.insert(b, size, -at - 1, member, nowMillis);
                t[b + VALUE] = ++size;
                contains = true;
            }
            t[b + EXPIRES] = nowMillis + windowMillis;
            return DistinctView.of(size, contains);
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public void lock(CounterKey key, long durationMillis, long nowMillis) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.findOrAdd(key, nowMillis);
            long[] t = s.t;
            s.setType(b, LOCK);
            t[b + VALUE] = 0;
            t[b + EXPIRES] = nowMillis + durationMillis;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    @Override
    public long lockRemainingMillis(CounterKey key, long nowMillis) {
        return read(key, nowMillis, LOCK);
    }

    @Override
    public long remainingMillis(CounterKey key, long nowMillis) {
        return read(key, nowMillis, ANY);
    }

    @Override
    public void clear(CounterKey key) {
        Stripe s = stripe(key);
        long stamp = s.writeLock();
        try {
            int b = s.find(key);
            if (b >= 0) {
                s.expire(b);
            }
        } finally {
            s.unlockWrite(stamp);
        }
    }

    /** Drops every entry that has expired by {@code nowMillis}; atomic per key with concurrent writers. */
    public void purgeExpired(long nowMillis) {
        for (Stripe s : stripes) {
            long stamp = s.writeLock();
            try {
                s.rebuild(nowMillis);
            } finally {
                s.unlockWrite(stamp);
            }
        }
    }

    /** Entries held: live, expired, or cleared and not yet dropped by a rebuild. */
    public int size() {
        int n = 0;
        for (Stripe s : stripes) {
            long stamp = s.readLock();
            try {
                n += s.used;
            } finally {
                s.unlockRead(stamp);
            }
        }
        return n;
    }

    /** Per table: the lock entries it counts, and those it holds (live or expired). For tests of the count. */
    int[][] lockCounts() {
        int[][] counts = new int[STRIPES][];
        for (int i = 0; i < STRIPES; i++) {
            Stripe s = stripes[i];
            long stamp = s.readLock();
            try {
                int held = 0;
                for (int b = BASE; b < s.t.length; b += W) {
                    if (s.t[b + META] != 0 && type(s.t, b) == LOCK) {
                        held++;
                    }
                }
                counts[i] = new int[] {s.locks, held};
            } finally {
                s.unlockRead(stamp);
            }
        }
        return counts;
    }

    /** The length, in words, of the longest member arena of any table: for tests of its bounds. */
    int longestArena() {
        int n = 0;
        for (Stripe s : stripes) {
            long stamp = s.readLock();
            try {
                n = Math.max(n, s.arena.length);
            } finally {
                s.unlockRead(stamp);
            }
        }
        return n;
    }

    /**
     * The first word of the key's entry in table {@code t}, or {@code -(first word of the empty slot where it
     * would go) - 1}. Gives up (not found) after a full turn, which only a racing read could ever see.
     */
    private static int probe(long[] t, CounterKey key) {
        long meta = key.meta();
        long hi = key.hi();
        long lo = key.lo();
        int mask = t.length / W - 1; // BASE < W
        int i = (int) key.subjectHash() & mask;
        for (int n = 0; n <= mask; n++, i = (i + 1) & mask) {
            int b = BASE + i * W;
            long m = t[b + META];
            if (m == 0) {
                return -b - 1;
            }
            if ((m & KEY_BITS) == meta && t[b + HI] == hi && t[b + LO] == lo) {
                return b;
            }
        }
        return Integer.MIN_VALUE;
    }

    /** Whether the entry at {@code b} is a live set whose members are in the arena. */
    private static boolean bigAndLive(long[] t, int b, long now) {
        return type(t, b) == SET && t[b + VALUE] > INLINE && t[b + EXPIRES] > now;
    }

    private static long type(long[] t, int b) {
        return t[b + META] >>> TYPE_SHIFT;
    }

    /** Binary search in {@code in[base, base + size)}: the index there, or {@code -(insertion point) - 1}. */
    private static int search(long[] in, int base, int size, long member) {
        int r = Arrays.binarySearch(in, base, base + size, member);
        return r >= 0 ? r - base : r + base;
    }

    /** One open-addressing table and its lock. Every method runs under the write lock. Slot i starts at word BASE + i * W. */
    private static final class Stripe extends StampedLock {
        long[] t;
        /** The members of sets of more than INLINE, in chunks; words from {@code top} on are free. */
        long[] arena;
        int top;
        int mask;
        /** Occupied slots, live or expired. */
        int used;
        /** Entries that hold a lock, live or expired: while there is none, a lock lookup needs no probe. */
        int locks;
        Stripe() {
            allocate(MIN_CAPACITY);
            arena = new long[MIN_ARENA];
        }

        private void allocate(int capacity) {
            t = new long[BASE + capacity * W];
            mask = capacity - 1;
            used = 0;
            locks = 0;
        }

        /** Sets what the entry at {@code b} holds, counting the locks. */
        void setType(int b, long type) {
            if (type(t, b) == LOCK) {
                locks--;
            }
            if (type == LOCK) {
                locks++;
            }
            t[b + META] = t[b + META] & KEY_BITS | type << TYPE_SHIFT;
        }

        /** The store's {@code read} in this table (the caller holds its stamp or read lock). */
        long read(CounterKey key, long now, long type) {
            // a table that holds no lock at all answers a lock lookup without walking a run to its end
            return type == LOCK && locks == 0 ? 0 : InMemoryCounterStore.read(t, key, now, type);
        }

        /** The first word of the key's entry, or -1. */
        int find(CounterKey key) {
            int b = probe(t, key);
            return b >= 0 ? b : -1;
        }

        /** The first word of the key's entry if it holds a live counter, or -1. */
        int findCounter(CounterKey key, long now) {
            int b = probe(t, key);
            return b >= 0 && type(t, b) == COUNTER && t[b + EXPIRES] > now ? b : -1;
        }

        /** The first word of the key's entry; a new, expired one (callers initialize it) when absent. */
        int findOrAdd(CounterKey key, long now) {
            long meta = key.meta();
            long hi = key.hi();
            long lo = key.lo();
            int i = (int) key.subjectHash() & mask;
            int dead = -1;
            for (int n = 0; n <= mask; n++, i = (i + 1) & mask) {
                int b = BASE + i * W;
                long m = t[b + META];
                if (m == 0) {
                    if (dead >= 0) {
                        return claim(dead, key);
                    }
                    if ((used + 1) * 5L > (mask + 1) * 3L) { // load factor 0.6
                        rebuild(now);
                        b = -probe(t, key) - 1;
                    }
                    used++;
                    return claim(b, key);
                }
                if ((m & KEY_BITS) == meta && t[b + HI] == hi && t[b + LO] == lo) {
                    return b;
                }
                if (dead < 0 && t[b + EXPIRES] <= now) {
                    dead = b;
                }
            }
            throw new IllegalStateException("table full"); // cannot happen: rebuilt at 0.6
        }

        /**
         * Writes the key into the slot at {@code b}: an empty one, or one whose entry has expired or been
         * cleared and so reads as absent. Taking over dead entries on the probe path keeps the table from
         * filling up with them, so rebuilds (a full copy of the table) are rarer.
         */
        private int claim(int b, CounterKey key) {
            setType(b, NONE);
            t[b + META] = key.meta() | NONE << TYPE_SHIFT;
            t[b + HI] = key.hi();
            t[b + LO] = key.lo();
            t[b + EXPIRES] = Long.MIN_VALUE;
            t[b + VALUE] = 0;
            return b;
        }

        /** Binary search in the set at {@code b}, its members inline or in the arena. */
        int indexOf(int b, int size, long member) {
            return size > INLINE ? search(arena, (int) t[b + CHUNK], size, member) : search(t, b + MEMBERS, size, member);
        }

        /** Adds {@code member} at index {@code at} of the live set at {@code b}, which has room for it. */
        void insert(int b, int size, int at, long member, long now) {
            if (size < INLINE) {
                System.arraycopy(t, b + MEMBERS + at, t, b + MEMBERS + at + 1, size - at);
                t[b + MEMBERS + at] = member;
                return;
            }
            if (size == INLINE || size == t[b + CHUNK_SIZE]) {
                // into a new chunk: the first one (the members leave the entry), or one twice as long
                int length = size == INLINE ? FIRST_CHUNK : 2 * (int) t[b + CHUNK_SIZE];
                int to = take(length, now); // may compact the arena, moving this set's chunk too
                long[] from = size == INLINE ? t : arena;
                int base = size == INLINE ? b + MEMBERS : (int) t[b + CHUNK];
                System.arraycopy(from, base, arena, to, at);
                arena[to + at] = member;
                System.arraycopy(from, base + at, arena, to + at + 1, size - at);
                t[b + CHUNK] = to;
                t[b + CHUNK_SIZE] = length;
                return;
            }
            int base = (int) t[b + CHUNK];
            System.arraycopy(arena, base + at, arena, base + at + 1, size - at);
            arena[base + at] = member;
        }

        /** The offset of {@code length} free words of the arena; compacts or grows it when full. */
        private int take(int length, long now) {
            if (top + length > arena.length) {
                compact(length, now);
            }
            int at = top;
            top += length;
            return at;
        }

        /**
         * Moves the chunks of the live sets into a fresh arena, at least twice what they and {@code room} need,
         * and points their entries at the new places. Chunks of expired, cleared or grown sets are left behind,
         * and expired sets are cleared.
         */
        private void compact(int room, long now) {
            long need = room;
            for (int b = BASE; b < t.length; b += W) {
                if (bigAndLive(t, b, now)) {
                    need += t[b + CHUNK_SIZE];
                }
            }
            long[] old = arena;
            arena = new long[arenaLength(need)];
            top = 0;
            for (int b = BASE; b < t.length; b += W) {
                if (bigAndLive(t, b, now)) {
                    top = moveChunk(old, b, top);
                } else if (type(t, b) == SET && t[b + VALUE] > INLINE) {
                    // Its chunk stays behind, so nothing may follow its offset again: not even a call whose
                    // clock reads a little earlier than this one's, to which the set would still be live.
                    expire(b);
                }
            }
        }

        /**
         * An arena for chunks of {@code words} in all: twice that, and at least half a word per slot of the
         * table, so that the full scan of the table a compaction makes is paid for by many chunks, not a few.
         */
        private int arenaLength(long words) {
            return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(Math.max(MIN_ARENA, (mask + 1) / 2), 2 * words));
        }

        /** Copies the chunk of the set at {@code b} from the arena {@code from} to {@code arena} at {@code to}. */
        private int moveChunk(long[] from, int b, int to) {
            System.arraycopy(from, (int) t[b + CHUNK], arena, to, (int) t[b + VALUE]);
            t[b + CHUNK] = to;
            return to + (int) t[b + CHUNK_SIZE];
        }

        /**
         * Empties an entry without giving up its slot: it reads as absent, its key finds it again, and the
         * next rebuild drops it. Cheaper than moving a cluster back, and clearing is on the hot path (every
         * successful login clears its identifier's failures). A set's chunk stays behind until the arena
         * is compacted.
         */
        void expire(int b) {
            setType(b, NONE);
            t[b + EXPIRES] = Long.MIN_VALUE;
            t[b + VALUE] = 0;
        }

        /** A fresh table holding only the live entries, at most a third full, and a fresh arena for their sets. */
        void rebuild(long now) {
            long[] oldT = t;
            long[] oldArena = arena;
            int live = 0;
            long chunks = 0;
            for (int b = BASE; b < oldT.length; b += W) {
                if (oldT[b] != 0 && oldT[b + EXPIRES] > now) {
                    live++;
                    if (bigAndLive(oldT, b, now)) {
                        chunks += oldT[b + CHUNK_SIZE];
                    }
                }
            }
            int capacity = MIN_CAPACITY;
            while (capacity < live * 3L) {
                capacity <<= 1;
            }
            allocate(capacity);
            arena = new long[arenaLength(chunks)];
            top = 0;
            for (int b = BASE; b < oldT.length; b += W) {
                if (oldT[b] != 0 && oldT[b + EXPIRES] > now) {
                    int j = (int) CounterKey.hash((oldT[b + META] & KEY_BITS) >>> 8, oldT[b + HI], oldT[b + LO]) & mask;
                    while (t[BASE + j * W] != 0) {
                        j = (j + 1) & mask;
                    }
                    int to = BASE + j * W;
                    System.arraycopy(oldT, b, t, to, W);
                    if (bigAndLive(t, to, now)) {
                        top = moveChunk(oldArena, to, top);
                    }
                    if (type(t, to) == LOCK) {
                        locks++;
                    }
                    used++;
                }
            }
        }
    }
}
