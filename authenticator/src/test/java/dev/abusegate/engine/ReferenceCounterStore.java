package dev.abusegate.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The smallest store that keeps the {@link CounterStore} contract: a map of values with their expiry on the
 * test's clock, one atomic compute per change, and the bounds of the production store (a bound for cheap
 * entries and one for protective ones; at a bound no new entry, none dropped). Engine tests run on it.
 */
public final class ReferenceCounterStore implements CounterStore {

    private record Entry(long[] value, long expiresAt) {
    }

    private final ConcurrentHashMap<String, Entry> cheap = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Entry> protective = new ConcurrentHashMap<>();
    private final TimeSource clock;
    private final long maxCheap;
    private final long maxProtective;

    public ReferenceCounterStore(TimeSource clock) {
        this(clock, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public ReferenceCounterStore(TimeSource clock, long maxCheap, long maxProtective) {
        this.clock = clock;
        this.maxCheap = maxCheap;
        this.maxProtective = maxProtective;
    }

    private ConcurrentHashMap<String, Entry> map(CounterKey key) {
        return key.kind().protective() ? protective : cheap;
    }

    @Override
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        ConcurrentHashMap<String, Entry> map = map(key);
        boolean create = map.size() < (key.kind().protective() ? maxProtective : maxCheap);
        long now = clock.millis();
        Entry e = map.compute(key.storeKey(), (k, old) -> {
            long[] next = change.applyTo(old == null || old.expiresAt <= now ? null : old.value, create);
            return next == null ? null : new Entry(next, now + ttlMillis);
        });
        return CompletableFuture.completedFuture(e == null ? null : e.value);
    }

    @Override
    public long[] read(CounterKey key) {
        Entry e = map(key).get(key.storeKey());
        return e == null || e.expiresAt <= clock.millis() ? null : e.value;
    }

    @Override
    public void remove(CounterKey key) {
        map(key).remove(key.storeKey());
    }

    /** Drops expired entries, as a cache's expiry reaper does (the benchmark's map baseline calls it between batches). */
    public void purgeExpired() {
        long now = clock.millis();
        cheap.values().removeIf(e -> e.expiresAt <= now);
        protective.values().removeIf(e -> e.expiresAt <= now);
    }

    /** Entries held (expired ones not yet dropped included): cheap, protective. */
    public long[] sizes() {
        return new long[] {cheap.size(), protective.size()};
    }
}
