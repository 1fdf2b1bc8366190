package dev.abusegate.keycloak.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.abusegate.engine.MutableClock;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.realm.RealmWatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.infinispan.Cache;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The realms' tallies on Infinispan: a LOCAL cache as under start-dev (a node alone reads no other tally), and two
 * nodes of an embedded loopback cluster, where each node's {@link RealmWatch} sums both nodes' failures (values go
 * through ProtoStream there, which a LOCAL cache never tries).
 */
class InfinispanRealmTalliesTest {

    private static EmbeddedCluster cluster;
    private static EmbeddedCacheManager local;

    private static final GateOptions ON = TestOptions.builder().set(RealmSettings.ENABLED, true).set(RealmSettings.THRESHOLD, 30)
            .set(RealmSettings.BASELINE_MULTIPLE, 0.0).build();

    @BeforeAll
    static void start() {
        GlobalConfigurationBuilder g = new GlobalConfigurationBuilder().nonClusteredDefault();
        g.jmx().disable();
        local = new DefaultCacheManager(g.build());
        local.defineConfiguration(InfinispanRealmTallies.CACHE_NAME, CounterCacheConfiguration.build(false));
        cluster = new EmbeddedCluster(2);
    }

    @AfterAll
    static void stop() {
        local.stop();
        cluster.close();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Cache<String, byte[]> localCache() {
        return (Cache) local.getCache(InfinispanRealmTallies.CACHE_NAME);
    }

    @Test
    void alone_a_node_publishes_and_reads_no_other_tally() {
        InfinispanRealmTallies t = InfinispanRealmTallies.of(local, localCache());
        t.publish("r1", new long[] {7, 3});
        assertEquals(1, localCache().size());
        assertTrue(t.others("r1").isEmpty());
        // a second node on the same cache sees the first one's tally, and not its own
        InfinispanRealmTallies other = new InfinispanRealmTallies(localCache(), "other", () -> List.of("local", "other"));
        other.publish("r1", new long[] {7, 5});
        Collection<long[]> seen = other.others("r1");
        assertEquals(1, seen.size());
        assertArrayEquals(new long[] {7, 3}, seen.iterator().next());
        assertTrue(other.others("r2").isEmpty(), "another realm's tallies are its own");
    }

    @Test
    void on_two_nodes_each_reads_the_others_tally_and_both_enter_on_the_sum() {
        InfinispanRealmTallies a = InfinispanRealmTallies.of(cluster.manager(0), cluster.realmTallies(0));
        InfinispanRealmTallies b = InfinispanRealmTallies.of(cluster.manager(1), cluster.realmTallies(1));
        a.publish("r-pub", new long[] {11, 2, 12, 4});
        List<long[]> fromB = new ArrayList<>(b.others("r-pub"));
        assertEquals(1, fromB.size());
        assertArrayEquals(new long[] {11, 2, 12, 4}, fromB.get(0));
        assertTrue(a.others("r-pub").isEmpty(), "a node never reads its own tally back");

        MutableClock clock = new MutableClock();
        RealmWatch wa = new RealmWatch(a, clock, null);
        RealmWatch wb = new RealmWatch(b, clock, null);
        assertFalse(wa.underAttack("r-sum", ON));
        assertFalse(wb.underAttack("r-sum", ON));
        // 20 failures from 5 networks on node a, 10 from 5 other networks on node b: only together are they a crowd of 10
        for (int i = 0; i < 20; i++) {
            wa.failed("r-sum", i % 5, 10);
        }
        for (int i = 0; i < 10; i++) {
            wb.failed("r-sum", 100 + i % 5, 10);
        }
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        wa.tick(); // publishes 20; b's 10 not published yet
        assertFalse(wa.underAttack("r-sum"), "20 of 30 on node a alone");
        wb.tick(); // publishes 10, reads a's 20
        assertTrue(wb.underAttack("r-sum"));
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        wa.tick(); // reads b's 10: within one tick of node b's publish
        assertTrue(wa.underAttack("r-sum"));
        assertEquals(30, wa.state("r-sum").count());
        assertEquals(10, wa.state("r-sum").networks(), "the networks of both nodes, through the cache");
    }
}
