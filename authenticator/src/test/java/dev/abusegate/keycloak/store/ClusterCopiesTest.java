package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore.Change;
import dev.abusegate.engine.store.Entries;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.infinispan.Cache;
import org.infinispan.distribution.DistributionInfo;
import org.infinispan.remoting.rpc.RpcManagerImpl;
import org.infinispan.remoting.transport.Address;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The two copies of an entry in a three-node cluster (loopback only): the store never evicts, so the copies
 * cannot drift apart by a bound; if one copy is lost anyway (a backup dropped on one node only, simulated by
 * removing it from that node's data container), a change still completes in one call and counts on from the
 * primary's copy; and a node leaving keeps every entry on the others.
 */
class ClusterCopiesTest {

    private EmbeddedCluster cluster;
    private final String realm = "realm-" + UUID.randomUUID();

    @BeforeEach
    void start() {
        cluster = new EmbeddedCluster(3);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private static Change admit() {
        return new Change(Entries.ADMIT_COUNTER, System.currentTimeMillis(), 0, 1000, Long.MAX_VALUE, 600_000);
    }

    private int nodeOf(Address a) {
        for (int i = 0; i < 3; i++) {
            if (cluster.managers.get(i).getAddress().equals(a)) {
                return i;
            }
        }
        throw new IllegalStateException("no node " + a);
    }

    @Test
    void a_backup_copy_lost_on_one_node_does_not_stall_or_reset_the_count() {
        CounterKey key = CounterKey.of(realm, CounterKey.Kind.PAIR, 1, 2);
        Long slot = cluster.store(0, Long.MAX_VALUE, Long.MAX_VALUE).slotKey(key);
        DistributionInfo info = cluster.cheap(0).getAdvancedCache().getDistributionManager().getCacheTopology()
                .getDistribution(slot);
        int primary = nodeOf(info.primary());
        int backup = nodeOf(info.writeBackups().iterator().next());
        int other = 3 - primary - backup;
        for (int i = 0; i < 5; i++) {
            cluster.store(i % 3, Long.MAX_VALUE, Long.MAX_VALUE).apply(key, admit(), 600_000).join();
        }
        // the backup drops its copy on its own (what a per-node eviction did to the previous store)
        cluster.cheap(backup).getAdvancedCache().getDataContainer().remove(slot);
        assertThat(cluster.cheap(backup).getAdvancedCache().getDataContainer().peek(slot)).isNull();

        InfinispanCounterStore otherStore = cluster.store(other, Long.MAX_VALUE, Long.MAX_VALUE);
        RpcManagerImpl rpc = (RpcManagerImpl) cluster.cheap(other).getAdvancedCache().getRpcManager();
        rpc.setStatisticsEnabled(true);
        long before = rpc.getReplicationCount();
        long[] v = otherStore.apply(key, admit(), 600_000).join();
        assertThat(rpc.getReplicationCount() - before).as("one remote call, no retry loop").isEqualTo(1);
        assertThat(Entries.count(v, System.currentTimeMillis())).as("counted on from the primary's copy").isEqualTo(6);
        assertThat(Entries.count(cluster.store(primary, Long.MAX_VALUE, Long.MAX_VALUE).read(key), System.currentTimeMillis())).isEqualTo(6);
    }

    @Test
    void a_node_leaving_keeps_every_lock_and_count_on_the_others() throws Exception {
        long now = System.currentTimeMillis();
        List<CounterKey> locks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            CounterKey k = CounterKey.of(realm, CounterKey.Kind.ACCOUNT, 7, i);
            cluster.store(i % 3, Long.MAX_VALUE, Long.MAX_VALUE).apply(k, new Change(Entries.LOCK, now, now + 600_000), 600_000).join();
            locks.add(k);
        }
        cluster.stop(2);
        long deadline = System.currentTimeMillis() + 30_000;
        Cache<Object, Object> survivor = cluster.protective(0);
        while (survivor.getAdvancedCache().getDistributionManager().getCacheTopology().getMembers().size() != 2
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        for (CounterKey k : locks) {
            for (int node = 0; node < 2; node++) {
                long[] v = cluster.store(node, Long.MAX_VALUE, Long.MAX_VALUE).read(k);
                assertThat(Entries.lockRemaining(v, System.currentTimeMillis())).as("%s on node %d", k, node).isPositive();
            }
        }
    }
}
