package dev.abusegate.bench.store;

import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.GateKeys;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.ToLongFunction;

/**
 * The same operations as CounterStoreBenchmark, single thread, but counted per CPU-second of the
 * measuring thread (ThreadMXBean) as well as per wall-clock second. On a shared machine where the
 * thread waits for a core, ops/s (wall) falls with the machine's load; ops per CPU-second does not.
 * Not JMH: a plain loop with a blackhole sum; warm-up 10 s per operation, then 5 rounds of 2 s.
 */
public final class StoreCpuRate {

    static final int KEYS = 4096;
    static final long WINDOW = 300_000;
    static long sink;

    public static void main(String[] args) throws Exception {
        HeapPerKey.quietLogs();
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        try (StoreFixture fx = new StoreFixture(100_000)) {
            CounterStore s = fx.store;
            GateKeys.Keys[] keys = new GateKeys.Keys[KEYS];
            for (int k = 0; k < KEYS; k++) {
                keys[k] = fx.keysFor(k, k);
                s.increment(keys[k].perIp(), WINDOW, 0);
                s.addDistinct(keys[k].identifiers(), keys[k].member(), 21, WINDOW, 0);
            }
            String[] names = {"count", "increment", "distinct", "addDistinct", "lockRemaining"};
            @SuppressWarnings("unchecked")
            ToLongFunction<GateKeys.Keys>[] ops = new ToLongFunction[] {
                (ToLongFunction<GateKeys.Keys>) k -> s.count(k.perIp(), 0),
                (ToLongFunction<GateKeys.Keys>) k -> s.increment(k.perIp(), WINDOW, 0),
                (ToLongFunction<GateKeys.Keys>) k -> s.distinct(k.identifiers(), k.member(), 0).size(),
                (ToLongFunction<GateKeys.Keys>) k -> s.addDistinct(k.identifiers(), k.member(), 21, WINDOW, 0).size(),
                (ToLongFunction<GateKeys.Keys>) k -> s.lockRemainingMillis(k.lock(), 0),
            };
            System.out.println("| operation     | ops/s (wall) median [min .. max] | ops per CPU-second median [min .. max] | CPU share of wall |");
            System.out.println("|---------------|----------------------------------|----------------------------------------|-------------------|");
            for (int o = 0; o < ops.length; o++) {
                run(ops[o], keys, 10_000, tm);
                double[] wall = new double[5];
                double[] cpu = new double[5];
                double[] share = new double[5];
                for (int r = 0; r < 5; r++) {
                    double[] x = run(ops[o], keys, 2_000, tm);
                    wall[r] = x[0];
                    cpu[r] = x[1];
                    share[r] = x[2];
                }
                System.out.printf("| %-13s | %s | %s | %.2f |%n", names[o], fmt(wall), fmt(cpu), med(share));
            }
        }
        System.out.println("(sink " + (sink & 1) + ")");
    }

    static double[] run(ToLongFunction<GateKeys.Keys> op, GateKeys.Keys[] keys, long millis, ThreadMXBean tm) {
        long n = 0;
        int i = 0;
        long cpu0 = tm.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long end = t0 + millis * 1_000_000L;
        long acc = 0;
        while (true) {
            for (int b = 0; b < 256; b++) {
                acc += op.applyAsLong(keys[i]);
                i = (i + 1) & (KEYS - 1);
            }
            n += 256;
            if (System.nanoTime() >= end) {
                break;
            }
        }
        long wall = System.nanoTime() - t0;
        long cpu = tm.getCurrentThreadCpuTime() - cpu0;
        sink += acc;
        return new double[] {n * 1e9 / wall, n * 1e9 / cpu, cpu / (double) wall};
    }

    static String fmt(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format("%,.0f [%,.0f .. %,.0f]", med(s), s[0], s[s.length - 1]);
    }

    static double med(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
