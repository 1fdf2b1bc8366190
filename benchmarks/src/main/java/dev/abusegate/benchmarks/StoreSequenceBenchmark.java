package dev.abusegate.benchmarks;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.InMemoryCounterStore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The in-memory store's share of one decision, without the engine: the eleven store calls an allowed
 * attempt makes (five reads, then the increments, the layer-4 add, the lockout reservation and its
 * settlement), on keys drawn at random, the clock moving 1 ms per sequence as in {@link EngineBenchmark}.
 * A diagnostic for docs/performance.md, not a target.
 *
 * <ul>
 *   <li>{@code subjects=full}: 2^20 addresses, 200,000 identifiers, every pair new: about 1.6 million live
 *       entries, like the engine benchmark's steady state. {@code cached}: 1,000 addresses, 2 identifiers and
 *       5,000 pairs, so everything stays in the CPU caches.</li>
 *   <li>{@code ops=all}: the eleven calls. {@code noSets}: without layer 4's two set calls, to show what
 *       the distinct sets cost.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreSequenceBenchmark {

    @Param({"full", "cached"})
    public String subjects;

    @Param({"all", "noSets"})
    public String ops;

    private InMemoryCounterStore store;
    private int addresses;
    private int identifiers;
    private int pairs;
    private boolean sets;
    private long now = 1_800_000_000_000L;
    private long rng = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void setUp() {
        boolean full = "full".equals(subjects);
        addresses = full ? 1 << 20 : 1_000;
        identifiers = full ? 200_000 : 2;
        pairs = full ? 0 : 5_000;
        sets = "all".equals(ops);
        store = new InMemoryCounterStore();
        for (int i = 0; i < 2_000_000; i++) { // 2,000 simulated seconds: past every window
            sequence();
        }
        store.purgeExpired(now);
    }

    @Setup(Level.Iteration)
    public void purge() {
        store.purgeExpired(now);
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }

    @Benchmark
    public long sequence() {
        long x = rng;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        rng = x;
        long bits = x * 0x2545F4914F6CDD1DL;
        long t = ++now;
        long address = (bits & 0x7fffffffL) % addresses;
        long id = ((bits >>> 31) & 0x7fffffffL) % identifiers;
        long pair = pairs == 0 ? mix(address * 1_000_003 + id) : mix((address * 1_000_003 + id) % pairs);
        long idHi = mix(id + 7);
        CounterKey ip = CounterKey.of("r", CounterKey.Kind.IP, 0, address);
        CounterKey ids = ip.as(CounterKey.Kind.IDS);
        CounterKey pairKey = CounterKey.of("r", CounterKey.Kind.PAIR, pair, mix(pair));
        CounterKey fail = CounterKey.of("r", CounterKey.Kind.FAIL, idHi, mix(id + 9));
        CounterKey lock = fail.as(CounterKey.Kind.LOCK);
        long sink = store.count(ip, t) + store.count(pairKey, t) + store.lockRemainingMillis(lock, t) + store.count(fail, t);
        if (sets) {
            sink += store.distinct(ids, idHi, t).size();
        }
        sink += store.increment(ip, 300_000, t) + store.increment(pairKey, 900_000, t);
        if (sets) {
            sink += store.addDistinct(ids, idHi, 21, 600_000, t).size();
        }
        sink += store.increment(fail, 900_000, t) + store.lockRemainingMillis(lock, t);
        if ((bits >>> 62) == 0) {
            sink += store.count(fail, t);
        } else {
            store.clear(fail);
        }
        return sink;
    }
}
