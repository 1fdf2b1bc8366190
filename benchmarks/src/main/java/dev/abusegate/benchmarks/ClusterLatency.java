package dev.abusegate.benchmarks;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.keycloak.store.EmbeddedCluster;
import dev.abusegate.keycloak.store.InfinispanGateStoreProviderFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * The time the gate adds to a login on a three-node DIST_SYNC cluster (two owners) in one JVM over loopback-only
 * JGroups TCP: p50 / p90 / p99 of an allowed login (decision and settlement after a wrong password) and of a
 * blocked attempt (with the clustered default hold, and with every attempt written: see {@code RecentBlocks}), each
 * made on the nodes in turn, one after another from one thread. Loopback hides network
 * latency and adds thread hand-offs on a shared machine: read it as the gate's round trips on this machine, not
 * as a figure for real hosts.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar dev.abusegate.benchmarks.ClusterLatency [attempts]}
 */
public final class ClusterLatency {

    private ClusterLatency() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        try (EmbeddedCluster cluster = new EmbeddedCluster(3)) {
            System.out.println("members (all loopback): " + cluster.addresses());
            byte[] secret = "cluster-latency-secret".getBytes(StandardCharsets.UTF_8);
            // as clustered Keycloak runs them (blocked-hold-millis at its default), and with every attempt written
            AbuseGate[] gates = new AbuseGate[3];
            AbuseGate[] writeAll = new AbuseGate[3];
            for (int i = 0; i < 3; i++) {
                gates[i] = new AbuseGate(cluster.store(i, Long.MAX_VALUE, Long.MAX_VALUE), TimeSource.SYSTEM, r -> secret,
                        InfinispanGateStoreProviderFactory.DEFAULT_BLOCKED_HOLD_MILLIS);
                writeAll[i] = new AbuseGate(cluster.store(i, Long.MAX_VALUE, Long.MAX_VALUE), TimeSource.SYSTEM, r -> secret, 0);
            }
            GateOptions options = GateOptions.defaults();
            String realm = UUID.randomUUID().toString();
            // warm up the paths (class loading, JIT, connections)
            measure(gates, options, realm, "warm", Math.min(n, 1000), false);
            measure(gates, options, realm, "warm-blocked", Math.min(n, 1000), true);
            measure(writeAll, options, realm, "warm-blocked-all", Math.min(n, 1000), true);
            long[] allowed = measure(gates, options, realm, "allowed", n, false);
            long[] blocked = measure(gates, options, realm, "blocked", n, true);
            long[] blockedAll = measure(writeAll, options, realm, "blocked-all", n, true);
            System.out.printf("%n%d attempts each, 3 nodes, two owners, all four layers at their defaults%n", n);
            System.out.println("| attempt | p50 ms | p90 ms | p99 ms | max ms |");
            System.out.println("|---|---|---|---|---|");
            row("allowed login (decision + settlement)", allowed);
            row("blocked attempt (blocked-hold-millis 1000, the default)", blocked);
            row("blocked attempt, every attempt written (blocked-hold-millis 0)", blockedAll);
        }
    }

    /**
     * Allowed: each attempt from its own address with its own identifier, settled as a wrong password. Blocked:
     * one address past its per-address threshold, fresh identifiers.
     */
    private static long[] measure(AbuseGate[] gates, GateOptions o, String realm, String tag, int n, boolean blocked) {
        int threshold = o.policy(Layer.PER_IP).threshold();
        if (blocked) {
            for (int i = 0; i <= threshold; i++) {
                gates[i % 3].evaluate(o, new Attempt(realm, "198.51.100.77", tag + "-fill-" + i, null), () -> true, true);
            }
        }
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            String address = blocked ? "198.51.100.77" : "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff);
            Attempt a = new Attempt(realm, address, tag + "-user-" + i, null);
            AbuseGate g = gates[i % 3];
            long t0 = System.nanoTime();
            Decision d = g.evaluate(o, a, null, true);
            if (d.allowed()) {
                g.passwordFailed(d, 0L, java.util.List.of());
            }
            nanos[i] = System.nanoTime() - t0;
            if (blocked != (d.outcome() == Outcome.BLOCKED)) {
                throw new IllegalStateException(tag + " attempt " + i + " was " + d);
            }
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static void row(String what, long[] sorted) {
        System.out.printf("| %s | %.2f | %.2f | %.2f | %.2f |%n", what, pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99),
                sorted[sorted.length - 1] / 1e6);
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
