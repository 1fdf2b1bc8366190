package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.keys.SecretSource;
import dev.abusegate.engine.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.infinispan.Cache;
import org.infinispan.remoting.rpc.RpcManagerImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gate itself on a three-node DIST_SYNC cluster (loopback only), one gate per node as in a clustered
 * Keycloak: exactness of every layer's threshold and captcha band with attempts spread over the nodes, and the
 * remote calls one decision makes, counted by Infinispan's own RPC statistics.
 */
class GateOnClusterTest {

    private static final SecretSource SECRET = realm -> "cluster-test-secret".getBytes(StandardCharsets.UTF_8);
    private static EmbeddedCluster cluster;
    private static AbuseGate[] gates;

    @BeforeAll
    static void start() {
        cluster = new EmbeddedCluster(3);
        gates = new AbuseGate[3];
        for (int i = 0; i < 3; i++) {
            gates[i] = new AbuseGate(cluster.store(i, Long.MAX_VALUE, Long.MAX_VALUE), TimeSource.SYSTEM, SECRET, 0);
        }
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static GateOptions only(Layer layer, int threshold, boolean captcha) {
        TestOptions b = TestOptions.builder().captchaEnabled(captcha);
        for (Layer l : Layer.values()) {
            if (l != layer) {
                b.disable(l);
            }
        }
        return b.layer(layer, threshold, 300).build();
    }

    /** Attempt {@code i} of a burst aimed at one layer: what varies and what stays the same. */
    private static Attempt attempt(String realm, Layer layer, int i) {
        String address = layer == Layer.ACCOUNT_LOCKOUT ? "198.51.100." + (i + 1) : "192.0.2.7";
        String user = layer == Layer.CREDENTIAL_STUFFING ? "user-" + i : "alice";
        return new Attempt(realm, address, user, null);
    }

    @ParameterizedTest
    @EnumSource(value = Layer.class, names = "PASSWORD_SPRAY", mode = EnumSource.Mode.EXCLUDE) // the per-subject layers
    void forty_simultaneous_attempts_over_three_nodes_let_exactly_the_threshold_through(Layer layer) throws Exception {
        String realm = UUID.randomUUID().toString();
        GateOptions o = only(layer, 10, false);
        List<Integer> allowed = CounterStoreContract.race(40, i -> {
            Decision d = GateFixture.evaluate(gates[i % 3], o, attempt(realm, layer, i), null);
            return d.allowed() ? 1 : 0; // allowed attempts keep their layer-3 slot: the passwords are still "being checked"
        });
        assertThat(allowed.stream().mapToInt(Integer::intValue).sum()).as(layer.toString()).isEqualTo(10);
    }

    @ParameterizedTest
    @EnumSource(value = Layer.class, names = "PASSWORD_SPRAY", mode = EnumSource.Mode.EXCLUDE) // the per-subject layers
    void twenty_simultaneous_attempts_over_three_nodes_stop_exactly_at_the_captcha_band(Layer layer) throws Exception {
        String realm = UUID.randomUUID().toString();
        GateOptions o = only(layer, 10, true);
        List<Integer> outcomes = CounterStoreContract.race(20, i -> GateFixture.evaluate(gates[i % 3], o, attempt(realm, layer, i), null).outcome().ordinal());
        assertThat(outcomes).as(layer.toString()).filteredOn(x -> x == Outcome.ALLOW.ordinal()).hasSize(5);
        assertThat(outcomes).as(layer.toString()).filteredOn(x -> x == Outcome.CAPTCHA_REQUIRED.ordinal()).hasSize(15);
    }

    @Test
    void an_allowed_login_from_a_node_owning_none_of_its_entries_makes_four_remote_calls_in_three_waits() {
        String realm = UUID.randomUUID().toString();
        GateOptions defaults = GateOptions.defaults();
        // a node that owns none of this attempt's entries: every change it makes is remote
        int node = -1;
        String user = null;
        for (int u = 0; u < 1000 && node < 0; u++) {
            String candidate = "owner-probe-" + u;
            for (int n = 0; n < 3 && node < 0; n++) {
                if (ownsNone(n, realm, "192.0.2.77", candidate, defaults)) {
                    node = n;
                    user = candidate;
                }
            }
        }
        assertThat(node).as("a node owning none of the entries").isNotNegative();
        long before = remoteCalls(node);
        Decision d = GateFixture.evaluate(gates[node], defaults, new Attempt(realm, "192.0.2.77", user, null), null);
        assertThat(d.allowed()).isTrue();
        gates[node].passwordSucceeded(d, java.util.List.of());
        long allowedLogin = remoteCalls(node) - before;
        // address and pair together, then the reservation, then the settlement: four changes in three waits
        assertThat(allowedLogin).as("remote calls of one allowed login").isEqualTo(4);
    }

    @Test
    void with_a_hold_a_flood_from_a_blocked_address_makes_no_remote_call_once_each_node_has_seen_it_blocked() {
        String realm = UUID.randomUUID().toString();
        GateOptions o = only(Layer.PER_IP, 3, false);
        AbuseGate[] held = new AbuseGate[3];
        for (int i = 0; i < 3; i++) {
            held[i] = new AbuseGate(cluster.store(i, Long.MAX_VALUE, Long.MAX_VALUE), TimeSource.SYSTEM, SECRET, 10_000);
        }
        Attempt a = new Attempt(realm, "203.0.113.10", "alice", null);
        for (int i = 0; i < 3; i++) {
            assertThat(GateFixture.evaluate(held[i], o, a, null).allowed()).isTrue();
        }
        for (int i = 0; i < 3; i++) {
            assertThat(GateFixture.evaluate(held[i], o, a, null).outcome()).as("node %d's first blocked answer", i).isEqualTo(Outcome.BLOCKED);
        }
        long before = remoteCalls(0) + remoteCalls(1) + remoteCalls(2);
        for (int i = 0; i < 90; i++) {
            Decision d = GateFixture.evaluate(held[i % 3], o, new Attempt(realm, "203.0.113.10", "user-" + i, null), null);
            assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(d.layer()).isEqualTo(Layer.PER_IP);
        }
        assertThat(remoteCalls(0) + remoteCalls(1) + remoteCalls(2) - before).as("remote calls of 90 blocked attempts").isZero();
        // the count lives in the cluster: a gate that holds nothing (another node's view) is told by the store
        assertThat(GateFixture.evaluate(gates[1], o, a, null).outcome()).isEqualTo(Outcome.BLOCKED);
    }

    private static boolean ownsNone(int node, String realm, String address, String user, GateOptions o) {
        AttemptKeys keys = new GateKeys(SECRET).forAttempt(realm, address, user, o.ipv6PrefixLength());
        for (CounterKey k : List.of(keys.address(), keys.pair(), keys.lockout())) {
            Cache<Object, Object> c = k.kind().protective() ? cluster.protective(node) : cluster.cheap(node);
            if (c.getAdvancedCache().getDistributionManager().getCacheTopology().isWriteOwner(cluster.store(node, Long.MAX_VALUE,
                    Long.MAX_VALUE).slotKey(k))) {
                return false;
            }
        }
        return true;
    }

    private static long remoteCalls(int node) {
        long n = 0;
        for (Cache<Object, Object> c : List.of(cluster.cheap(node), cluster.protective(node))) {
            RpcManagerImpl rpc = (RpcManagerImpl) c.getAdvancedCache().getRpcManager();
            rpc.setStatisticsEnabled(true);
            n += rpc.getReplicationCount();
        }
        return n;
    }
}
