package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.ReferenceCounterStore;
import dev.abusegate.engine.TimeSource;

/** The contract on the reference store the engine tests use. */
class ReferenceStoreContractTest extends CounterStoreContract {

    private ReferenceCounterStore store = new ReferenceCounterStore(TimeSource.SYSTEM);

    @Override
    CounterStore node(int i) {
        return store;
    }

    @Override
    CounterStore bounded(long moreCheap, long moreProtective) {
        long[] s = store.sizes();
        initialCheap = s[0];
        store = new ReferenceCounterStore(TimeSource.SYSTEM, s[0] + moreCheap, s[1] + moreProtective);
        return store;
    }

    @Override
    long[] sizes() {
        return store.sizes();
    }
}
