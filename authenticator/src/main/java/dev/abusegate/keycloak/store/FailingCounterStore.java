package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;

/**
 * A store that is always down. Selected only by the test option
 * {@code --spi-abuse-gate-store--infinispan--fault-injection=true}, so that each layer's failure mode
 * can be proven end to end in a running Keycloak.
 */
final class FailingCounterStore implements CounterStore {

    private static CounterStoreException down() {
        return new CounterStoreException("counter store unavailable (fault injection is on)");
    }

    @Override
    public long count(CounterKey key, long nowMillis) {
        throw down();
    }

    @Override
    public long increment(CounterKey key, long windowMillis, long nowMillis) {
        throw down();
    }

    @Override
    public void decrement(CounterKey key, long windowMillis, long nowMillis) {
        throw down();
    }

    @Override
    public long confirm(CounterKey key, long windowMillis, long nowMillis) {
        throw down();
    }

    @Override
    public void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis) {
        throw down();
    }

    @Override
    public DistinctView distinct(CounterKey key, long member, long nowMillis) {
        throw down();
    }

    @Override
    public DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis) {
        throw down();
    }

    @Override
    public void lock(CounterKey key, long durationMillis, long nowMillis) {
        throw down();
    }

    @Override
    public long lockRemainingMillis(CounterKey key, long nowMillis) {
        throw down();
    }

    @Override
    public void clear(CounterKey key) {
        throw down();
    }
}
