package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract on the production store over a three-node DIST_SYNC cluster (two owners) in this JVM, on
 * loopback only, with every test's changes spread over the nodes.
 */
class InfinispanClusterStoreContractTest extends CounterStoreContract {

    static EmbeddedCluster cluster;
    private final CounterStore[] stores = new CounterStore[3];

    @BeforeAll
    static void start() {
        cluster = new EmbeddedCluster(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    InfinispanClusterStoreContractTest() {
        for (int i = 0; i < 3; i++) {
            stores[i] = cluster.store(i, Long.MAX_VALUE, Long.MAX_VALUE);
        }
    }

    @Override
    int nodes() {
        return 3;
    }

    @Override
    CounterStore node(int i) {
        return stores[i];
    }

    @Override
    CounterStore bounded(long maxCheap, long maxProtective) {
        return cluster.store(0, maxCheap, maxProtective, NAMESPACES.incrementAndGet());
    }

    /** Node 0's copies only: a bounded table is spread over the nodes, so this is at most the table's bound. */
    @Override
    long[] sizesOf(CounterStore s) {
        return ((InfinispanCounterStore) s).sizes();
    }

    private static final java.util.concurrent.atomic.AtomicInteger NAMESPACES = new java.util.concurrent.atomic.AtomicInteger();
}
