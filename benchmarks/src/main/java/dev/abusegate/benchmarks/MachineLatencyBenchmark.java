package dev.abusegate.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A fact about the machine, not about the gate: how long one random read of memory takes, and whether
 * several independent reads overlap. A diagnostic for docs/performance.md, not a target.
 *
 * <p>Each operation is one step of a chain: it reads {@code loads} random words of a table of
 * {@code megabytes}, and the next step's positions depend on what this step read, so steps cannot overlap
 * but the reads within one step can. With a table far larger than the CPU caches, {@code loads=1} is the
 * latency of one random read of main memory, page walk included; if {@code loads=3} costs about the same,
 * the machine overlaps three independent misses, which is what a decision's three subjects (the address,
 * the pair and the identifier) can at best get.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MachineLatencyBenchmark {

    @Param({"1", "256"})
    public int megabytes;

    @Param({"1", "3"})
    public int loads;

    private long[] table;
    private int shift;
    private long chain = 1;

    @Setup
    public void setUp() {
        table = new long[megabytes << 17]; // 8 bytes a word
        shift = 64 - Integer.numberOfTrailingZeros(table.length);
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < table.length; i++) {
            table[i] = r.nextLong();
        }
    }

    @Benchmark
    public long step() {
        long h = (chain + 1) * 0x9E3779B97F4A7C15L;
        long v = table[(int) (h >>> shift)];
        if (loads == 3) {
            v += table[(int) (Long.rotateLeft(h, 21) >>> shift)] + table[(int) (Long.rotateLeft(h, 42) >>> shift)];
        }
        chain = v ^ h;
        return v;
    }
}
