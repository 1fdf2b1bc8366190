package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;
import dev.abusegate.engine.Entries;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.commons.time.TimeService;
import org.infinispan.container.DataContainer;
import org.infinispan.container.entries.InternalCacheEntry;
import org.infinispan.container.impl.InternalEntryFactory;
import org.infinispan.context.Flag;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.metadata.Metadata;

/**
 * The gate's entries in two Infinispan caches: one for what anyone can create at will (addresses and pairs)
 * and one for what protects accounts (failures and locks, device budgets, used captchas), each with a bound of
 * its own. Neither cache evicts: at its bound a cache stops taking new entries (the layer concerned follows its
 * failure mode) and keeps every entry it has until the entry expires. So a flood can neither push out a lock
 * nor leave one owner of an entry with a copy the other has dropped.
 *
 * <p>Each change is one atomic compute: on a LOCAL cache straight on its data container (see
 * {@link Bounded#changeLocally}); on a clustered cache one {@code computeAsync}, which runs on the entry's primary owner (one
 * round trip) and the backup applies the same pure function ({@link Entries}) to its equal copy. Expiry is
 * Infinispan's lifespan, refreshed by every write.
 *
 * <p>What is stored depends on whether it crosses the network. A clustered cache files an entry under
 * {@link CounterKey#storeKey()} (a string) with its value as {@code byte[]} (the longs of {@link Entries}' value),
 * and the function captures numbers and a boolean: types Keycloak's marshaller handles without a schema. A LOCAL
 * cache never marshals, so it files an entry under a {@link LocalKey} (numbers, compared in place) and keeps
 * {@link Entries}' {@code long[]} as it is: {@link Entries} never changes a value it is given, so a stored
 * array is never written again.
 */
public final class InfinispanCounterStore implements CounterStore {

    private final Bounded cheap;
    private final Bounded protective;

    /** The caches are the gate's own ({@link CounterCacheConfiguration}); what they hold depends on their mode (see above). */
    public InfinispanCounterStore(Cache<?, ?> cheap, long maxCheap, Cache<?, ?> protective, long maxProtective) {
        this.cheap = new Bounded(cheap, maxCheap);
        this.protective = new Bounded(protective, maxProtective);
    }

    private Bounded of(CounterKey key) {
        return key.kind().protective() ? protective : cheap;
    }

    @Override
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        Bounded b = of(key);
        int code = change.code();
        long[] a = change.args();
        if (a.length > MAX_ARGS) {
            throw new IllegalArgumentException("a change takes at most " + MAX_ARGS + " arguments");
        }
        boolean create = !b.full();
        long ttl = Math.max(1, ttlMillis);
        try {
            if (b.local) {
                return CompletableFuture.completedFuture(b.changeLocally(LocalKey.of(key), code, a, create, ttl));
            }
            // The arguments are captured one by one: Infinispan marshals a lambda's captured boxed numbers, but
            // not a captured long[] (it fails on the remote node).
            int n = a.length;
            long a0 = arg(a, 0), a1 = arg(a, 1), a2 = arg(a, 2), a3 = arg(a, 3), a4 = arg(a, 4), a5 = arg(a, 5),
                    a6 = arg(a, 6), a7 = arg(a, 7), a8 = arg(a, 8), a9 = arg(a, 9);
            return b.cache.computeAsync(key.storeKey(),
                    (k, old) -> bytes(Entries.apply(code, args(n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9), create, longs((byte[]) old))),
                    ttl, TimeUnit.MILLISECONDS).thenApply(v -> longs((byte[]) v));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new CounterStoreException("change failed", e));
        }
    }

    private static final int MAX_ARGS = 10;

    private static final ThreadLocal<LocalChange> LOCAL_CHANGE = ThreadLocal.withInitial(LocalChange::new);

    /**
     * One change as a LOCAL data container applies it, reused by its thread (the container calls it once,
     * synchronously, under the entry's lock; {@link Entries} never calls back into a store).
     */
    private static final class LocalChange implements DataContainer.ComputeAction<Object, Object> {
        private int code;
        private long[] args;
        private boolean create;
        private long now;
        private long ttl;
        long[] result;

        void set(int code, long[] args, boolean create, long now, long ttl) {
            this.code = code;
            this.args = args;
            this.create = create;
            this.now = now;
            this.ttl = ttl;
            this.result = null;
        }

        void clear() {
            args = null;
            result = null;
        }

        @Override
        public InternalCacheEntry<Object, Object> compute(Object key, InternalCacheEntry<Object, Object> old,
                                                          InternalEntryFactory factory) {
            long[] next = Entries.apply(code, args, create, old == null || old.isExpired(now) ? null : (long[]) old.getValue());
            result = next;
            // The entry keeps the key object the container's map already holds (one key object per entry, not
            // one per write); no metadata object: a lifespan alone makes a plain mortal entry.
            return next == null ? null : factory.create(old == null ? key : old.getKey(), next, (Metadata) null, now, ttl, now, -1);
        }
    }

    private static long arg(long[] a, int i) {
        return i < a.length ? a[i] : 0;
    }

    private static long[] args(int n, long... all) {
        return n == all.length ? all : Arrays.copyOf(all, n);
    }

    /** A value as stored: its longs big-endian. Infinispan marshals a byte[] natively; a long[] result it does not. */
    static byte[] bytes(long[] v) {
        if (v == null) {
            return null;
        }
        byte[] out = new byte[v.length * 8];
        for (int i = 0; i < v.length; i++) {
            long x = v[i];
            for (int j = 7; j >= 0; j--) {
                out[i * 8 + j] = (byte) x;
                x >>>= 8;
            }
        }
        return out;
    }

    static long[] longs(byte[] b) {
        if (b == null) {
            return null;
        }
        long[] out = new long[b.length / 8];
        for (int i = 0; i < out.length; i++) {
            long x = 0;
            for (int j = 0; j < 8; j++) {
                x = x << 8 | (b[i * 8 + j] & 0xff);
            }
            out[i] = x;
        }
        return out;
    }

    @Override
    public long[] read(CounterKey key) {
        try {
            Bounded b = of(key);
            return b.value(b.cache.get(b.key(key)));
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    @Override
    public void remove(CounterKey key) {
        try {
            Bounded b = of(key);
            b.cache.remove(b.key(key));
        } catch (RuntimeException e) {
            throw new CounterStoreException("remove failed", e);
        }
    }

    /** Entries this node holds in the cheap and the protective cache (expired ones not yet purged included). */
    public long[] sizes() {
        return new long[] {cheap.size(), protective.size()};
    }

    /**
     * A cache and its bound. The size is this node's share (primary and backup copies), read every
     * {@value #SIZE_REFRESH_CHANGES} changes, or sooner once {@value #SIZE_REFRESH_MILLIS} ms have passed (looked at
     * every {@value #SIZE_CLOCK_CHANGES} changes), while far from the bound (counting is not free), and on every
     * change within a tenth of it (at least {@value #SIZE_REFRESH_CHANGES} entries).
     * Changes that race at the bound may pass it by a few entries.
     */
    static final class Bounded {
        static final long SIZE_REFRESH_MILLIS = 50;
        static final int SIZE_REFRESH_CHANGES = 256;
        /** How many changes apart the clock is read for {@link #SIZE_REFRESH_MILLIS} (a power of two). */
        static final int SIZE_CLOCK_CHANGES = 16;

        /** The cache with the flags every call of the gate takes: no listeners, statistics, stores or indexing. */
        final AdvancedCache<Object, Object> cache;
        final boolean local;
        private final DataContainer<Object, Object> container;
        private final TimeService time;
        final long max;
        /** From here on the size is read on every change: a tenth of the bound, at least {@link #SIZE_REFRESH_CHANGES}. */
        private final long nearBound;
        private volatile long lastSize;
        private volatile long lastRead;
        /** Changes since the size was read; racy on purpose (a lost update only delays a read a little). */
        private int sinceRead;

        @SuppressWarnings("unchecked")
        Bounded(Cache<?, ?> cache, long max) {
            this.cache = ((Cache<Object, Object>) cache).getAdvancedCache().withFlags(Flag.SKIP_LISTENER_NOTIFICATION, Flag.SKIP_STATISTICS,
                    Flag.SKIP_CACHE_LOAD, Flag.SKIP_CACHE_STORE, Flag.SKIP_INDEXING, Flag.SKIP_XSITE_BACKUP);
            this.local = !cache.getCacheConfiguration().clustering().cacheMode().isClustered();
            this.container = this.cache.getDataContainer();
            this.time = ComponentRegistry.componentOf(cache, TimeService.class);
            this.max = max;
            this.nearBound = max - Math.max(max / 10, SIZE_REFRESH_CHANGES);
        }

        /** Entries this node holds (primary and backup copies; expired ones not yet purged included). */
        long size() {
            return container.sizeIncludingExpired();
        }

        /** The key an entry is filed under in this cache. */
        Object key(CounterKey key) {
            return local ? LocalKey.of(key) : key.storeKey();
        }

        /** An entry's value as {@link Entries} reads it. */
        long[] value(Object stored) {
            return local ? (long[]) stored : longs((byte[]) stored);
        }

        /**
         * One change on a LOCAL cache, straight on its data container: an atomic compute of the key's entry (the
         * container is a concurrent map), without the command path a cache call takes (invocation context,
         * locking, notifications, statistics), which nothing here uses: the gate's caches have no listeners, no
         * persistence and no transactions. The entry keeps Infinispan's form (a mortal entry, lifespan from now,
         * read as absent once expired and purged by the cache's reaper), so reads, clears and expiry work as for
         * any entry. The function is this thread's {@link LocalChange}, refilled per change.
         */
        long[] changeLocally(LocalKey key, int code, long[] args, boolean create, long ttl) {
            LocalChange c = LOCAL_CHANGE.get();
            c.set(code, args, create, time.wallClockTime(), ttl);
            try {
                container.compute(key, c);
                return c.result;
            } finally {
                c.clear();
            }
        }

        boolean full() {
            // Read again after SIZE_REFRESH_CHANGES changes, on every change near the bound, and otherwise every
            // SIZE_CLOCK_CHANGES changes once SIZE_REFRESH_MILLIS have passed (the clock is read that seldom):
            // between two reads far from the bound, fewer changes are made than the margin.
            int n = ++sinceRead;
            if (n >= SIZE_REFRESH_CHANGES || lastSize >= nearBound
                    || (n & (SIZE_CLOCK_CHANGES - 1)) == 0 && System.nanoTime() - lastRead > SIZE_REFRESH_MILLIS * 1_000_000L) {
                lastSize = size();
                lastRead = System.nanoTime();
                sinceRead = 0;
            }
            return lastSize >= max;
        }
    }
}
