package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;
import dev.abusegate.engine.Entries;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.commons.time.TimeService;
import org.infinispan.container.DataContainer;
import org.infinispan.context.Flag;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.metadata.EmbeddedMetadata;
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
 * round trip) and the backup applies the same pure function ({@link Entries}) to its equal copy. The function's
 * captured values (numbers and a boolean) and the value ({@code byte[]}, the longs of {@link Entries}'
 * value) are types Keycloak's marshaller handles without a schema. Expiry is Infinispan's lifespan, refreshed by every write.
 */
public final class InfinispanCounterStore implements CounterStore {

    private final Bounded cheap;
    private final Bounded protective;

    public InfinispanCounterStore(Cache<String, byte[]> cheap, long maxCheap, Cache<String, byte[]> protective, long maxProtective) {
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
                return CompletableFuture.completedFuture(b.changeLocally(key.storeKey(), code, a, create, ttl));
            }
            // The arguments are captured one by one: Infinispan marshals a lambda's captured boxed numbers, but
            // not a captured long[] (it fails on the remote node).
            int n = a.length;
            long a0 = arg(a, 0), a1 = arg(a, 1), a2 = arg(a, 2), a3 = arg(a, 3), a4 = arg(a, 4), a5 = arg(a, 5),
                    a6 = arg(a, 6), a7 = arg(a, 7), a8 = arg(a, 8), a9 = arg(a, 9);
            return b.cache.computeAsync(key.storeKey(),
                    (k, old) -> bytes(Entries.apply(code, args(n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9), create, longs(old))),
                    ttl, TimeUnit.MILLISECONDS).thenApply(InfinispanCounterStore::longs);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new CounterStoreException("change failed", e));
        }
    }


    private static final int MAX_ARGS = 10;

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
            return longs(of(key).cache.get(key.storeKey()));
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    @Override
    public void remove(CounterKey key) {
        try {
            of(key).cache.remove(key.storeKey());
        } catch (RuntimeException e) {
            throw new CounterStoreException("remove failed", e);
        }
    }

    /** Entries this node holds in the cheap and the protective cache (expired ones not yet purged included). */
    public long[] sizes() {
        return new long[] {cheap.size.getAsLong(), protective.size.getAsLong()};
    }

    /**
     * A cache and its bound. The size is this node's share (primary and backup copies), read every
     * {@value #SIZE_REFRESH_CHANGES} changes or {@value #SIZE_REFRESH_MILLIS} ms while far from the bound (counting
     * is not free), and on every change within a tenth of it (at least {@value #SIZE_REFRESH_CHANGES} entries).
     * Changes that race at the bound may pass it by a few entries.
     */
    static final class Bounded {
        static final long SIZE_REFRESH_MILLIS = 50;
        static final int SIZE_REFRESH_CHANGES = 256;

        /** The cache with the flags every call of the gate takes: no listeners, statistics, stores or indexing. */
        final AdvancedCache<String, byte[]> cache;
        final boolean local;
        private final DataContainer<String, byte[]> container;
        private final TimeService time;
        final long max;
        final LongSupplier size;
        private volatile long lastSize;
        private volatile long lastRead;
        /** Changes since the size was read; racy on purpose (a lost update only delays a read a little). */
        private int sinceRead;

        Bounded(Cache<String, byte[]> cache, long max) {
            this.cache = cache.getAdvancedCache().withFlags(Flag.SKIP_LISTENER_NOTIFICATION, Flag.SKIP_STATISTICS,
                    Flag.SKIP_CACHE_LOAD, Flag.SKIP_CACHE_STORE, Flag.SKIP_INDEXING, Flag.SKIP_XSITE_BACKUP);
            this.local = !cache.getCacheConfiguration().clustering().cacheMode().isClustered();
            this.container = this.cache.getDataContainer();
            this.time = ComponentRegistry.componentOf(cache, TimeService.class);
            this.max = max;
            this.size = () -> this.cache.getDataContainer().sizeIncludingExpired();
        }

        /**
         * One change on a LOCAL cache, straight on its data container: an atomic compute of the key's entry (the
         * container is a concurrent map), without the command path a cache call takes (invocation context,
         * locking, notifications, statistics), which nothing here uses: the gate's caches have no listeners, no
         * persistence and no transactions. The entry keeps Infinispan's form (lifespan from now, expired entries
         * read as absent and purged by the cache's reaper), so reads, clears and expiry work as for any entry.
         */
        long[] changeLocally(String key, int code, long[] args, boolean create, long ttl) {
            long now = time.wallClockTime();
            Metadata metadata = new EmbeddedMetadata.Builder().lifespan(ttl, TimeUnit.MILLISECONDS).build();
            long[][] result = new long[1][];
            container.compute(key, (k, old, factory) -> {
                long[] next = Entries.apply(code, args, create, old == null || old.isExpired(now) ? null : longs(old.getValue()));
                result[0] = next;
                return next == null ? null : factory.create(k, bytes(next), metadata, now, ttl, now, -1);
            });
            return result[0];
        }

        boolean full() {
            long now = System.nanoTime();
            // Read again after SIZE_REFRESH_CHANGES changes or SIZE_REFRESH_MILLIS, whichever comes first, and on
            // every change near the bound: between two reads far from it, fewer changes are made than the margin.
            if (++sinceRead >= SIZE_REFRESH_CHANGES || now - lastRead > SIZE_REFRESH_MILLIS * 1_000_000L
                    || lastSize >= max - Math.max(max / 10, SIZE_REFRESH_CHANGES)) {
                lastSize = size.getAsLong();
                lastRead = now;
                sinceRead = 0;
            }
            return lastSize >= max;
        }
    }
}
