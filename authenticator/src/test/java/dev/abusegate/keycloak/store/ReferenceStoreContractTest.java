package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.ReferenceCounterStore;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.CounterKey;
import java.util.function.UnaryOperator;

/** The contract on the reference store the engine tests use. */
class ReferenceStoreContractTest extends CounterStoreContract {

    private final ReferenceCounterStore store = new ReferenceCounterStore(TimeSource.SYSTEM);

    @Override
    CounterStore node(int i) {
        return store;
    }

    @Override
    CounterStore bounded(long maxCheap, long maxProtective) {
        return new ReferenceCounterStore(TimeSource.SYSTEM, maxCheap, maxProtective);
    }

    @Override
    void rewriteSlot(CounterKey key, UnaryOperator<long[]> rewrite) {
        store.rewriteSlot(key, rewrite);
    }

    @Override
    long[] sizesOf(CounterStore s) {
        return ((ReferenceCounterStore) s).sizes();
    }
}
