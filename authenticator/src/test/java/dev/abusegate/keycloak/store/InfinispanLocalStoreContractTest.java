package dev.abusegate.keycloak.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore;
import java.util.function.UnaryOperator;
import org.infinispan.manager.EmbeddedCacheManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract on the production store over LOCAL caches, as Keycloak runs it under start-dev. */
class InfinispanLocalStoreContractTest extends CounterStoreContract {

    private static EmbeddedCacheManager manager;
    private final InfinispanCounterStore store;
    private static final java.util.concurrent.atomic.AtomicInteger NAMESPACES = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeAll
    static void start() {
        manager = LocalCaches.start();
    }

    @AfterAll
    static void stop() {
        manager.stop();
    }

    InfinispanLocalStoreContractTest() {
        store = store(Long.MAX_VALUE, Long.MAX_VALUE);
    }

    private static InfinispanCounterStore store(long maxCheap, long maxProtective) {
        return store(maxCheap, maxProtective, 0);
    }

    private static InfinispanCounterStore store(long maxCheap, long maxProtective, int namespace) {
        return new InfinispanCounterStore(manager.getCache(InfinispanGateStoreProviderFactory.CACHE_NAME), maxCheap,
                manager.getCache(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME), maxProtective, namespace);
    }

    @Override
    CounterStore node(int i) {
        return store;
    }

    @Override
    CounterStore bounded(long maxCheap, long maxProtective) {
        return store(maxCheap, maxProtective, NAMESPACES.incrementAndGet());
    }

    @Override
    void rewriteSlot(CounterKey key, UnaryOperator<long[]> rewrite) {
        org.infinispan.Cache<Object, Object> cheap = manager.getCache(InfinispanGateStoreProviderFactory.CACHE_NAME);
        Long slot = store.slotKey(key);
        cheap.put(slot, rewrite.apply((long[]) cheap.get(slot)));
    }

    @Override
    long[] sizesOf(CounterStore s) {
        return StoreCensus.exactEntries((InfinispanCounterStore) s);
    }
}
