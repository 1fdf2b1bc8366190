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
    CounterStore bounded(long moreCheap, long moreProtective) {
        long[] s = sizes();
        initialCheap = s[0];
        stores[0] = cluster.store(0, s[0] + moreCheap, s[1] + moreProtective);
        return stores[0];
    }

    @Override
    long[] sizes() {
        return ((InfinispanCounterStore) cluster.store(0, 1, 1)).sizes();
    }
}
