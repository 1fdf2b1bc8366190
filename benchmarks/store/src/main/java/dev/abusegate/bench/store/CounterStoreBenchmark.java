package dev.abusegate.bench.store;

import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.GateKeys;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * InfinispanCounterStore operations per second on a LOCAL embedded Infinispan 16.0.14 cache configured
 * like the provider's (max 100,000 entries, eviction REMOVE, lifespan on every write). Keys come from the
 * real GateKeys (realm UUID prefix, HMAC'd usernames). Each invocation is ONE store call; the key cycles
 * over 4,096 addresses/usernames per thread so it is neither a single hot key nor past maxCount.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CounterStoreBenchmark {

    static final int KEYS = 4096;
    static final long WINDOW = 300_000;

    @State(Scope.Benchmark)
    public static class Store {
        StoreFixture fx;
        CounterStore store;

        @Setup(Level.Trial)
        public void setUp() {
            fx = new StoreFixture(100_000);
            store = fx.store;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            fx.close();
        }
    }

    @State(Scope.Thread)
    public static class Keys {
        GateKeys.Keys[] keys = new GateKeys.Keys[KEYS];
        int i;

        @Setup(Level.Trial)
        public void setUp(Store s) {
            int base = (int) (Thread.currentThread().getId() * KEYS);
            for (int k = 0; k < KEYS; k++) {
                keys[k] = s.fx.keysFor(base + k, base + k);
                s.store.increment(keys[k].perIp(), WINDOW, 0);
                s.store.addDistinct(keys[k].identifiers(), keys[k].member(), 21, WINDOW, 0);
            }
        }

        GateKeys.Keys next() {
            GateKeys.Keys k = keys[i];
            i = (i + 1) & (KEYS - 1);
            return k;
        }
    }

    @Benchmark
    public long count(Store s, Keys k) {
        return s.store.count(k.next().perIp(), 0);
    }

    @Benchmark
    public long increment(Store s, Keys k) {
        return s.store.increment(k.next().perIp(), WINDOW, 0);
    }

    @Benchmark
    public CounterStore.DistinctView distinct(Store s, Keys k) {
        GateKeys.Keys x = k.next();
        return s.store.distinct(x.identifiers(), x.member(), 0);
    }

    @Benchmark
    public CounterStore.DistinctView addDistinct(Store s, Keys k) {
        GateKeys.Keys x = k.next();
        return s.store.addDistinct(x.identifiers(), x.member(), 21, WINDOW, 0);
    }

    @Benchmark
    public long lockRemaining(Store s, Keys k) {
        return s.store.lockRemainingMillis(k.next().lock(), 0);
    }
}
