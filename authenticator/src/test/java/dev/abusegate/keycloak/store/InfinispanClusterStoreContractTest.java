package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.CounterStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.PairEntry;
import dev.abusegate.engine.store.StoreCodec;
import java.util.function.UnaryOperator;
import static org.assertj.core.api.Assertions.assertThat;

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

    @Override
    void rewriteSlot(CounterKey key, UnaryOperator<long[]> rewrite) {
        Long slot = ((InfinispanCounterStore) stores[0]).slotKey(key);
        org.infinispan.Cache<Object, Object> cheap = cluster.cheap(0);
        cheap.put(slot, StoreCodec.toBytes(rewrite.apply(StoreCodec.fromBytes((byte[]) cheap.get(slot)))));
    }

    /** Node 0's copies only: a bounded table is spread over the nodes, so this is at most the table's bound. */
    @Override
    long[] sizesOf(CounterStore s) {
        return StoreCensus.exactEntries((InfinispanCounterStore) s);
    }

    private static final java.util.concurrent.atomic.AtomicInteger NAMESPACES = new java.util.concurrent.atomic.AtomicInteger();

    /** Every node must pick the same slot for a key: a node started with other bounds adopts the first node's. */
    @Test
    void every_node_uses_the_table_key_and_bounds_of_the_node_that_created_the_tables() {
        int ns = NAMESPACES.incrementAndGet();
        InfinispanCounterStore first = cluster.store(0, 1_000, 2_000, ns);
        InfinispanCounterStore other = cluster.store(2, 16, 64, ns);
        assertThat(other.adoptedBounds()).containsExactly(1_000L, 2_000L);
        assertThat(StoreCensus.slotCounts(other)).containsExactly(StoreCensus.slotCounts(first));
        for (int i = 0; i < 20; i++) {
            CounterKey k = key(CounterKey.Kind.PAIR, 500 + i);
            assertThat(other.slotKey(k)).isEqualTo(first.slotKey(k));
            first.apply(k, admit(10, Long.MAX_VALUE, false), WINDOW).join();
            other.apply(k, admit(10, Long.MAX_VALUE, false), WINDOW).join();
            assertThat(PairEntry.of(first.read(k)).attempts(now())).isEqualTo(2);
        }
    }
}
