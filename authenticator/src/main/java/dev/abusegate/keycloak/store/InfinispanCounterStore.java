package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;
import dev.abusegate.engine.Entries;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.infinispan.Cache;

/**
 * The gate's entries in two Infinispan caches: one for what anyone can create at will (addresses and pairs)
 * and one for what protects accounts (failures and locks, device budgets, used captchas), each with a bound of
 * its own. Neither cache evicts: at its bound a cache stops taking new entries (the layer concerned follows its
 * failure mode) and keeps every entry it has until the entry expires. So a flood can neither push out a lock
 * nor leave one owner of an entry with a copy the other has dropped.
 *
 * <p>Each change is one {@code computeAsync}: on a clustered cache it runs on the entry's primary owner (one
 * round trip) and the backup applies the same pure function ({@link Entries}) to its equal copy. The function's
 * captured values ({@code int}, {@code long[]}, {@code boolean}) and the value ({@code long[]}) are types
 * Keycloak's marshaller handles without a schema. Expiry is Infinispan's lifespan, refreshed by every write.
 */
public final class InfinispanCounterStore implements CounterStore {

    private final Bounded cheap;
    private final Bounded protective;

    public InfinispanCounterStore(Cache<String, long[]> cheap, long maxCheap, Cache<String, long[]> protective, long maxProtective) {
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
        long[] args = change.args();
        boolean create = !b.full();
        try {
            return b.cache.computeAsync(key.toString(), (k, old) -> Entries.apply(code, args, create, old),
                    Math.max(1, ttlMillis), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new CounterStoreException("change failed", e));
        }
    }

    @Override
    public long[] read(CounterKey key) {
        try {
            return of(key).cache.get(key.toString());
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    @Override
    public void remove(CounterKey key) {
        try {
            of(key).cache.remove(key.toString());
        } catch (RuntimeException e) {
            throw new CounterStoreException("remove failed", e);
        }
    }

    /** Entries this node holds in the cheap and the protective cache (expired ones not yet purged included). */
    public long[] sizes() {
        return new long[] {cheap.size.getAsLong(), protective.size.getAsLong()};
    }

    /**
     * A cache and its bound. The size is this node's share (primary and backup copies), read at most every
     * {@value #SIZE_REFRESH_MILLIS} ms: counting is not free, and the bound may be passed by what the node
     * creates meanwhile, a few entries at most.
     */
    static final class Bounded {
        static final long SIZE_REFRESH_MILLIS = 50;

        final Cache<String, long[]> cache;
        final long max;
        final LongSupplier size;
        private volatile long lastSize;
        private volatile long lastRead;

        Bounded(Cache<String, long[]> cache, long max) {
            this.cache = cache;
            this.max = max;
            this.size = () -> cache.getAdvancedCache().getDataContainer().sizeIncludingExpired();
        }

        boolean full() {
            long now = System.nanoTime();
            if (now - lastRead > SIZE_REFRESH_MILLIS * 1_000_000L) {
                lastSize = size.getAsLong();
                lastRead = now;
            }
            return lastSize >= max;
        }
    }
}
