package dev.abusegate.bench.store;

import dev.abusegate.engine.GateKeys;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Retained heap per tracked key (= per cache entry) of the counter cache, measured as the difference
 * in used heap after full GCs (MemoryMXBean) between an empty cache and the same cache holding N
 * entries written through InfinispanCounterStore. The keys are created inside the fill loop, so only the
 * cache retains them. Run with a fixed heap and the serial collector for stable readings.
 *
 * <p>Scenarios, each N entries (N = 100,000 = the default max-entries, unless given as args[0]):
 * <ul>
 * <li>mixed: N/4 wrong-password attempts, each from a distinct address with a distinct username: per
 * attempt one per-IP counter, one pair counter, one failure counter (reserved, then confirmed as the gate
 * does for a wrong password) and one distinct set (one member) - what a spray of distinct sources leaves
 * behind;</li>
 * <li>perIp / pair / failures / identifiers: one kind of entry only, each written once;</li>
 * <li>updated: per-IP counters written twice (a second attempt from the same address), as most counters
 * of a cache in steady state are: Infinispan keeps an updated entry in a larger form than a new one.</li>
 * </ul>
 */
public final class HeapPerKey {

    static final long WINDOW = 900_000;

    public static void main(String[] args) throws Exception {
        quietLogs();
        if (args.length > 0 && args[0].equals("--one")) {
            one(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            return;
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String[] scenarios = {"mixed", "perIp", "pair", "failures", "identifiers", "updated"};
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = List.of("-Xms1g", "-Xmx1g", "-XX:+UseSerialGC");
        System.out.printf("heap bytes per tracked key: N=%d entries per fill, %d rounds, each fill in a fresh JVM %s (%s %s)%n", n, rounds,
                jvm, System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"));
        System.out.println("| scenario    | bytes/key median | min | max | entries | example key |");
        System.out.println("|-------------|------------------|-----|-----|---------|-------------|");
        for (String sc : scenarios) {
            double[] per = new double[rounds];
            String entries = "";
            String example = "";
            for (int r = 0; r < rounds; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(java);
                cmd.addAll(jvm);
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapPerKey.class.getName(), "--one", sc,
                        String.valueOf(n), String.valueOf(r)));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                p.waitFor();
                String line = out.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no result from child JVM:\n" + out));
                String[] f = line.split(" ");
                per[r] = Double.parseDouble(f[1]);
                entries = f[2];
                example = f[3];
                if (Boolean.getBoolean("verbose")) {
                    System.out.println("  " + line);
                }
            }
            double[] s = per.clone();
            Arrays.sort(s);
            System.out.printf("| %-11s | %16.1f | %.1f | %.1f | %7s | %s (%d chars) |%n", sc, median(s), s[0], s[s.length - 1],
                    entries, example, example.length());
        }
    }

    /** One fill in this JVM: prints RESULT bytesPerKey entries exampleKey usedBefore usedAfter. */
    static void one(String sc, int n, int r) throws Exception {
        // maxCount above N so nothing is evicted during the fill (eviction would undercount).
        try (StoreFixture fx = new StoreFixture(Math.max(100_000, n + 1))) {
            warm(fx);
            long before = used();
            String example = fill(fx, sc, n, r);
            long after = used();
            long entries = fx.cache.size();
            if (entries != n) {
                System.out.println("warning: " + sc + " holds " + entries + " entries, expected " + n);
            }
            System.out.printf("RESULT %.1f %d %s %d %d%n", (after - before) / (double) entries, entries, example, before, after);
        }
    }

    /** Exercises every code path once with throw-away keys, then empties the cache, so lazily created internals are in the baseline. */
    static void warm(StoreFixture fx) {
        GateKeys.Keys k = fx.keysFor(-1, -1);
        fx.store.increment(k.perIp(), WINDOW, 0);
        fx.store.addDistinct(k.identifiers(), k.member(), 21, WINDOW, 0);
        fx.cache.clear();
    }

    static String fill(StoreFixture fx, String scenario, int n, int round) {
        int off = round * 10_000_000;
        String example = null;
        if (scenario.equals("mixed")) {
            for (int i = 0; i < n / 4; i++) {
                GateKeys.Keys k = fx.keysFor(off + i, off + i);
                fx.store.increment(k.perIp(), WINDOW, 0);
                fx.store.increment(k.perIpAccount(), WINDOW, 0);
                fx.store.increment(k.failures(), WINDOW, 0);
                fx.store.confirm(k.failures(), WINDOW, 0);
                fx.store.addDistinct(k.identifiers(), k.member(), 21, WINDOW, 0);
                if (example == null) {
                    example = k.perIpAccount().toString();
                }
            }
            return example;
        }
        for (int i = 0; i < n; i++) {
            GateKeys.Keys k = fx.keysFor(off + i, off + i);
            dev.abusegate.engine.CounterKey key;
            switch (scenario) {
                case "perIp" -> fx.store.increment(key = k.perIp(), WINDOW, 0);
                case "pair" -> fx.store.increment(key = k.perIpAccount(), WINDOW, 0);
                case "failures" -> fx.store.increment(key = k.failures(), WINDOW, 0);
                case "updated" -> {
                    fx.store.increment(key = k.perIp(), WINDOW, 0);
                    fx.store.increment(key, WINDOW, 0);
                }
                default -> fx.store.addDistinct(key = k.identifiers(), k.member(), 21, WINDOW, 0);
            }
            if (example == null) {
                example = key.toString();
            }
        }
        return example;
    }

    static long used() throws InterruptedException {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
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

    static double median(double[] s) {
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

}
