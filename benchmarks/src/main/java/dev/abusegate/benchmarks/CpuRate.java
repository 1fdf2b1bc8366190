package dev.abusegate.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Operations per CPU-second of the measuring thread and of the whole JVM, summed over the measured invocations
 * only (what runs between invocations, such as the expiry reaper, is left out), printed per JMH iteration.
 * On a machine shared with other work, wall-clock throughput understates what a core does; these do not.
 */
final class CpuRate {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final String what;
    private long ops;
    private long thread;
    private long process;
    private long wall;
    private long threadAt;
    private long processAt;
    private long wallAt;

    CpuRate(String what) {
        this.what = what;
    }

    static long threadNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** A new iteration. */
    void reset() {
        ops = 0;
        thread = 0;
        process = 0;
        wall = 0;
    }

    /** Just before a measured invocation. */
    void begin() {
        threadAt = THREADS.getCurrentThreadCpuTime();
        processAt = OS.getProcessCpuTime();
        wallAt = System.nanoTime();
    }

    /** Just after it, which did {@code n} operations. */
    void end(long n) {
        wall += System.nanoTime() - wallAt;
        process += OS.getProcessCpuTime() - processAt;
        thread += THREADS.getCurrentThreadCpuTime() - threadAt;
        ops += n;
    }

    void report() {
        System.out.printf("%n[cpu] %,d %s in %.2f s of invocations: %,.0f per thread CPU-second, %,.0f per JVM CPU-second"
                + " (thread on CPU %.0f %% of that time; load average %.1f)%n", ops, what, wall / 1e9, ops / (thread / 1e9),
                ops / (process / 1e9), 100.0 * thread / wall, OS.getSystemLoadAverage());
    }
}
