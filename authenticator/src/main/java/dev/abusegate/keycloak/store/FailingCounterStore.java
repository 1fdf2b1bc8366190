package dev.abusegate.keycloak.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreException;
import java.util.concurrent.CompletableFuture;

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
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        return CompletableFuture.failedFuture(down());
    }

    @Override
    public long[] read(CounterKey key) {
        throw down();
    }

    @Override
    public void remove(CounterKey key) {
        throw down();
    }
}
