package dev.abusegate.benchmarks;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.keycloak.store.EmbeddedCluster;
import dev.abusegate.keycloak.store.StoreCensus;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Retained heap per tracked entry of the production store: used heap after full GCs (MemoryMXBean) with the
 * caches started and empty, then holding what N login attempts through {@link AbuseGate} left behind. Each
 * attempt comes from its own address with its own identifier, so it creates one entry per layer it uses.
 * Every fill runs in a fresh JVM ({@code -Xms2g -Xmx2g -XX:+UseSerialGC}); the keys are built inside the fill,
 * so only the caches retain them. Realm ids are UUIDs, as Keycloak's are (the prefix of every key).
 *
 * <p>Scenarios (LOCAL caches from {@code CounterCacheConfiguration.build(false)}, as on one Keycloak node):
 * <ul>
 *   <li>{@code spray}: all four layers at their defaults, every password wrong: per attempt an address entry
 *       (layers 1 and 4, one identifier), a pair entry (layer 2), an account entry (layer 3, one failure);</li>
 *   <li>{@code spray-twice}: the same, each attempt made twice, so every entry has been updated;</li>
 *   <li>{@code address}, {@code pair}, {@code account}: one kind of entry alone (the other layers off).</li>
 * </ul>
 * {@code cluster}: the {@code spray} on three nodes in this JVM (DIST_SYNC, two owners, JGroups over loopback
 * only), attempts spread over the nodes and made from 16 threads (each change waits for a round trip); the heap of all three nodes over the entry copies they hold, and
 * over the subjects (each held twice). {@code cluster-twice}: the same with each attempt made twice (every entry
 * copy updated).
 *
 * {@code at-bound}: LOCAL caches at the default bounds ({@code -Dheap.bound}, default 100000), filled far past them
 * (N attempts and N / 4 used captchas): the memory of a full store, shared counters included.
 * {@code cluster-at-bound}: the same on three nodes in this JVM (as {@code cluster}): the heap of the three
 * nodes, and per node, of a cluster whose tables are at their bounds.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar dev.abusegate.benchmarks.HeapPerEntry [N [rounds [scenario...]]]}
 */
public final class HeapPerEntry {

    static final String REALM = "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab";
    static final long BOUND = 50_000_000;
    static final long SETTLE_MILLIS = 12_000;
    static final int FILL_THREADS = 16;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--one")) {
            one(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            System.exit(0);
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<String> scenarios = args.length > 2 ? Arrays.asList(args).subList(2, args.length)
                : List.of("spray", "spray-twice", "address", "pair", "account");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = List.of("-Xms2g", "-Xmx2g", "-XX:+UseSerialGC");
        System.out.printf("heap bytes per tracked entry: N=%d attempts per fill, %d rounds, each fill in a fresh JVM %s (%s %s)%n",
                n, rounds, jvm, System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"));
        System.out.println("| scenario | bytes/entry median | min | max | entries (copies) | subjects | bytes/subject median |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String sc : scenarios) {
            double[] perEntry = new double[rounds];
            double[] perSubject = new double[rounds];
            String entries = "";
            String subjects = "";
            for (int r = 0; r < rounds; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(java);
                cmd.addAll(jvm);
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapPerEntry.class.getName(), "--one", sc,
                        String.valueOf(n), String.valueOf(r)));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor();
                String line = out.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no result from the child JVM:\n" + out));
                out.lines().filter(l -> l.startsWith("NOTE ")).forEach(l -> System.out.println("  " + l.substring(5)));
                String[] f = line.split(" ");
                perEntry[r] = Double.parseDouble(f[1]);
                entries = f[2];
                subjects = f[3];
                perSubject[r] = Double.parseDouble(f[4]);
            }
            double[] s = perEntry.clone();
            Arrays.sort(s);
            double[] t = perSubject.clone();
            Arrays.sort(t);
            System.out.printf("| %s | %.1f | %.1f | %.1f | %s | %s | %.1f |%n", sc, s[s.length / 2], s[0],
                    s[s.length - 1], entries, subjects, t[t.length / 2]);
        }
    }

    /** One fill in this JVM: prints RESULT bytesPerEntry entries subjects bytesPerSubject. */
    static void one(String sc, int n, int round) throws Exception {
        quietLogs();
        GateOptions options = options(sc);
        byte[] secret = "heap-bench-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        int off = 1_000_000 * (round + 1);
        if (sc.equals("cluster-at-bound")) {
            clusterAtBound(options, secret, n, off);
            return;
        }
        if (sc.startsWith("cluster")) {
            boolean twice = sc.equals("cluster-twice");
            try (EmbeddedCluster cluster = new EmbeddedCluster(3)) {
                System.out.println("NOTE cluster members (physical addresses): " + cluster.addresses());
                List<AbuseGate> gates = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    gates.add(new AbuseGate(cluster.store(i, BOUND, BOUND), TimeSource.SYSTEM, r -> secret, 0));
                }
                long t0 = System.nanoTime();
                fill(gates, options, 0, 500, false); // warm every path, then start from empty caches
                cluster.cheap(0).clear();
                cluster.protective(0).clear();
                Thread.sleep(SETTLE_MILLIS); // JGroups' retransmission tables are trimmed by STABLE (every 5 s)
                long before = used();
                long t1 = System.nanoTime();
                // Each change waits for a round trip to the entry's owners: fill from several threads at once.
                ExecutorService pool = Executors.newFixedThreadPool(FILL_THREADS);
                List<Future<?>> parts = new ArrayList<>();
                for (int t = 0; t < FILL_THREADS; t++) {
                    int from = off + t * (n / FILL_THREADS);
                    int count = t == FILL_THREADS - 1 ? n - t * (n / FILL_THREADS) : n / FILL_THREADS;
                    parts.add(pool.submit(() -> fill(gates, options, from, count, twice)));
                }
                for (Future<?> f : parts) {
                    f.get();
                }
                pool.shutdown();
                long t2 = System.nanoTime();
                Thread.sleep(SETTLE_MILLIS);
                long after = used();
                System.out.printf("NOTE cluster: warm-up %.0f s, %d attempts in %.0f s (%.0f/s)%n", (t1 - t0) / 1e9, n,
                        (t2 - t1) / 1e9, n / ((t2 - t1) / 1e9));
                long copies = 0;
                for (int i = 0; i < 3; i++) {
                    copies += cluster.cheap(i).getAdvancedCache().getDataContainer().sizeIncludingExpired()
                            + cluster.protective(i).getAdvancedCache().getDataContainer().sizeIncludingExpired();
                }
                long subjects = cluster.cheap(0).size() + cluster.protective(0).size();
                System.out.printf("RESULT %.1f %d %d %.1f%n", (after - before) / (double) copies, copies, subjects,
                        (after - before) / (double) subjects);
            }
            return;
        }
        if (sc.equals("at-bound")) {
            atBound(options, secret, n, off);
            return;
        }
        try (LocalStore local = new LocalStore(BOUND, BOUND, null)) {
            AbuseGate gate = new AbuseGate(local.store, TimeSource.SYSTEM, r -> secret, 0);
            fill(List.of(gate), options, 0, 300, false);
            local.cheap.clear();
            local.protective.clear();
            long before = used();
            fill(List.of(gate), options, off, n, sc.equals("spray-twice"));
            long after = used();
            long[] sizes = local.sizes();
            long entries = sizes[0] + sizes[1];
            System.out.printf("RESULT %.1f %d %d %.1f%n", (after - before) / (double) entries, entries, entries,
                    (after - before) / (double) entries);
        }
    }

    /**
     * The memory of a full store at the default bounds (LOCAL): {@code n} attempts (each an address, a pair and an
     * account with one failure) and {@code n / 4} used captchas, far more than the tables hold, so every table
     * is at its bound with shared counters in use. Prints the heap of the whole store and per exact entry held.
     */
    static void atBound(GateOptions options, byte[] secret, int n, int off) throws Exception {
        long bound = Long.getLong("heap.bound", 100_000);
        try (LocalStore local = new LocalStore(bound, bound, null)) {
            AbuseGate gate = new AbuseGate(local.store, TimeSource.SYSTEM, r -> secret, 0);
            fill(List.of(gate), options, 0, 300, false);
            // clears the slots only: the table key stays with the store that read it
            local.cheap.clear();
            local.protective.clear();
            long before = used();
            int refused = floodPastTheBound(List.of(gate), options, n, off, 1);
            long after = used();
            long[] sizes = local.sizes();
            long[] shared = StoreCensus.sharedCounters(local.store);
            long[] slots = StoreCensus.slotCounts(local.store);
            long entries = sizes[0] + sizes[1];
            System.out.printf("NOTE at the bound %d + %d (+ %d used captchas): %d attempts and %d captcha solutions sent; exact "
                            + "entries held %d cheap + %d protective (used captchas included), shared counters %d + %d, slots %d + %d + %d, "
                            + "captcha solutions refused (used table full) %d; heap of the full store %.1f MB%n",
                    bound, bound, Math.max(8, bound / 4), n, n / 4, sizes[0], sizes[1], shared[0], shared[1], slots[0], slots[1],
                    slots[2], refused, (after - before) / 1e6);
            System.out.printf("RESULT %.1f %d %d %.1f%n", (after - before) / (double) entries, entries, n + n / 4,
                    (after - before) / (double) entries);
        }
    }

    /**
     * {@link #atBound} on three nodes (DIST_SYNC, two owners, loopback only): the stores' bounds are cluster-wide,
     * each slot held by two of the three nodes. Prints the heap of the three nodes and per node.
     */
    static void clusterAtBound(GateOptions options, byte[] secret, int n, int off) throws Exception {
        long bound = Long.getLong("heap.bound", 100_000);
        try (EmbeddedCluster cluster = new EmbeddedCluster(3)) {
            System.out.println("NOTE cluster members (physical addresses): " + cluster.addresses());
            List<AbuseGate> gates = new ArrayList<>();
            List<dev.abusegate.keycloak.store.InfinispanCounterStore> stores = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                stores.add(cluster.store(i, bound, bound));
                gates.add(new AbuseGate(stores.get(i), TimeSource.SYSTEM, r -> secret, 0));
            }
            fill(gates, options, 0, 500, false); // warm every path, then start from empty slots
            cluster.cheap(0).clear();
            cluster.protective(0).clear();
            Thread.sleep(SETTLE_MILLIS);
            long before = used();
            long t1 = System.nanoTime();
            int refused = floodPastTheBound(gates, options, n, off, FILL_THREADS);
            long t2 = System.nanoTime();
            Thread.sleep(SETTLE_MILLIS);
            long after = used();
            long[] copies = new long[2];
            long[] shared = new long[2];
            for (dev.abusegate.keycloak.store.InfinispanCounterStore store : stores) {
                long[] sz = StoreCensus.exactEntries(store);
                long[] sh = StoreCensus.sharedCounters(store);
                for (int k = 0; k < 2; k++) {
                    copies[k] += sz[k];
                    shared[k] += sh[k];
                }
            }
            long[] slots = StoreCensus.slotCounts(stores.get(0));
            System.out.printf("NOTE cluster at the bound %d + %d (+ %d used captchas): %d attempts and %d captcha solutions sent in %.0f s;"
                            + " exact entry copies held %d cheap + %d protective (used captchas included; two copies each), shared"
                            + " counter copies %d + %d, slots %d + %d + %d, captcha solutions refused (used table full) %d; heap of the"
                            + " three nodes %.1f MB, %.1f MB per node%n",
                    bound, bound, Math.max(8, bound / 4), n, n / 4, (t2 - t1) / 1e9, copies[0], copies[1], shared[0], shared[1],
                    slots[0], slots[1], slots[2], refused, (after - before) / 1e6, (after - before) / 3e6);
            long entries = copies[0] + copies[1];
            System.out.printf("RESULT %.1f %d %d %.1f%n", (after - before) / (double) entries, entries, n + n / 4,
                    (after - before) / (double) (entries / 2));
        }
    }

    /**
     * {@code n} wrong passwords, each from its own address for its own identifier, then {@code n / 4} used
     * captchas, round robin over the gates from {@code threads} threads; returns the captchas refused (table full).
     */
    static int floodPastTheBound(List<AbuseGate> gates, GateOptions options, int n, int off, int threads) throws Exception {
        long expires = System.currentTimeMillis() + 3_600_000;
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int part = t;
                parts.add(pool.submit(() -> {
                    for (int i = part; i < n; i += threads) {
                        AbuseGate gate = gates.get(i % gates.size());
                        Decision d = gate.evaluate(options, new Attempt(REALM, address(off + i), "user" + (off + i) + "@example.com", null), null, true);
                        if (d.allowed()) {
                            gate.passwordFailed(d, 0L, java.util.List.of());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
            parts.clear();
            for (int t = 0; t < threads; t++) {
                int part = t;
                parts.add(pool.submit(() -> {
                    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
                    for (int i = part; i < n / 4; i += threads) {
                        byte[] digest = sha.digest(("captcha-" + (off + i)).getBytes(StandardCharsets.UTF_8));
                        try {
                            gates.get(i % gates.size()).firstUse(REALM, digest, expires);
                        } catch (RuntimeException full) {
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        return refused.get();
    }

    static GateOptions options(String sc) {
        TestOptions b = TestOptions.builder();
        switch (sc) {
            case "address" -> b.disable(Layer.PER_IP_ACCOUNT).disable(Layer.ACCOUNT_LOCKOUT);
            case "pair" -> b.disable(Layer.PER_IP).disable(Layer.CREDENTIAL_STUFFING).disable(Layer.ACCOUNT_LOCKOUT);
            case "account" -> b.disable(Layer.PER_IP).disable(Layer.CREDENTIAL_STUFFING).disable(Layer.PER_IP_ACCOUNT);
            default -> {
            }
        }
        return b.build();
    }

    /** n attempts, each from its own address with its own identifier, every password wrong; round robin over the gates. */
    static void fill(List<AbuseGate> gates, GateOptions options, int off, int n, boolean twice) {
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < (twice ? 2 : 1); k++) {
                AbuseGate gate = gates.get((i + k) % gates.size());
                Decision d = gate.evaluate(options, new Attempt(REALM, address(off + i), "user" + (off + i) + "@example.com", null), null, true);
                if (!d.allowed()) {
                    throw new IllegalStateException("attempt " + i + " not allowed: " + d.outcome());
                }
                gate.passwordFailed(d, 0L, java.util.List.of());
            }
        }
    }

    /** The i-th address: 10.x.y.z (a private range, as a proxy would report it). */
    static String address(int i) {
        return "10." + ((i >>> 16) & 0xff) + "." + ((i >>> 8) & 0xff) + "." + (i & 0xff);
    }

    static long used() throws InterruptedException {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 8; i++) {
            System.gc();
            Thread.sleep(200);
            long u = m.getHeapMemoryUsage().getUsed();
            if (Math.abs(u - last) < 4096) {
                return u;
            }
            last = u;
        }
        return last;
    }

    static void quietLogs() {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.setLevel(java.util.logging.Level.WARNING);
        for (java.util.logging.Handler h : root.getHandlers()) {
            h.setLevel(java.util.logging.Level.WARNING);
        }
    }
}
