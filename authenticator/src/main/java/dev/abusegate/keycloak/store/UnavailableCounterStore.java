package dev.abusegate.keycloak.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreException;
import java.util.concurrent.CompletableFuture;

/**
 * A store that is always down, so that every layer follows its failure mode. It stands in when the counter cache
 * cannot be created, and, as test support, when the option
 * {@code --spi-abuse-gate-store--infinispan--test-support-fault-injection=true} is set, so that each layer's failure
 * mode can be proven end to end in a running Keycloak.
 */
final class UnavailableCounterStore implements CounterStore {

    private final String why;

    /** {@code why}: the reason the store's errors give. */
    UnavailableCounterStore(String why) {
        this.why = why;
    }

    private CounterStoreException down() {
        return new CounterStoreException("counter store unavailable (" + why + ")");
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
