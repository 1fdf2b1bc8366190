package dev.abusegate.benchmarks;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A diagnostic baseline, not a store anyone runs: the engine's tests' reference store (one
 * {@code ConcurrentHashMap.compute} per change, the same string keys and {@code Entries} values, expiry on
 * the gate's clock), so that the difference to {@code store=infinispan} is what Infinispan's call path costs.
 */
final class MapCounterStore implements CounterStore {

    private record Entry(long[] value, long expiresAt) {
    }

    private final ConcurrentHashMap<String, Entry> cheap = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Entry> protective = new ConcurrentHashMap<>();
    private final TimeSource clock;

    MapCounterStore(TimeSource clock) {
        this.clock = clock;
    }

    private ConcurrentHashMap<String, Entry> map(CounterKey key) {
        return key.kind().protective() ? protective : cheap;
    }

    @Override
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        long now = clock.millis();
        Entry e = map(key).compute(key.toString(), (k, old) -> {
            long[] next = change.applyTo(old == null || old.expiresAt <= now ? null : old.value, true);
            return next == null ? null : new Entry(next, now + ttlMillis);
        });
        return CompletableFuture.completedFuture(e == null ? null : e.value);
    }

    @Override
    public long[] read(CounterKey key) {
        Entry e = map(key).get(key.toString());
        return e == null || e.expiresAt <= clock.millis() ? null : e.value;
    }

    @Override
    public void remove(CounterKey key) {
        map(key).remove(key.toString());
    }

    void purgeExpired() {
        long now = clock.millis();
        cheap.values().removeIf(e -> e.expiresAt <= now);
        protective.values().removeIf(e -> e.expiresAt <= now);
    }

    long[] sizes() {
        return new long[] {cheap.size(), protective.size()};
    }
}
