package dev.abusegate.benchmarks;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.GateOptions;
import dev.abusegate.engine.InMemoryCounterStore;
import dev.abusegate.engine.Layer;
import org.openjdk.jmh.annotations.Param;

/**
 * Where a decision's time goes: {@link EngineBenchmark}'s traffic with one knob turned. A diagnostic for
 * docs/performance.md, not a target; run it with a benchmark name, e.g.
 * {@code 'EngineBreakdownBenchmark.decideAndSettle' -p inputs=built}.
 *
 * <ul>
 *   <li>{@code store=none}: a store that keeps nothing (every counter reads 0 and every increment answers
 *       1), so what is left is the engine's own work: key derivation, the decision logic, and the benchmark
 *       building its input strings.</li>
 *   <li>{@code paceMillis=10}: the clock moves 10 ms per attempt instead of 1 ms (a realm at 100 logins/s
 *       instead of 1,000), so windows hold a tenth of the attempts and the in-memory store about 195,000 live
 *       entries instead of 1.6 million: tables of roughly the size of this machine's 32 MB L3 cache.</li>
 *   <li>{@code without=PER_IP_ACCOUNT} (any {@link Layer} name; {@code -}, the default, keeps all four):
 *       that layer disabled, so its store calls are not made. The difference to the full run is what the
 *       layer's calls cost inside a decision.</li>
 * </ul>
 */
public class EngineBreakdownBenchmark extends EngineBenchmark {

    @Param({"memory", "none"})
    public String store;

    @Param({"1", "10"})
    public long pace;

    @Param({"-"})
    public String without;

    @Override
    GateOptions options() {
        GateOptions defaults = GateOptions.defaults();
        if ("-".equals(without)) {
            return defaults;
        }
        return defaults.toBuilder().policy(defaults.policy(Layer.valueOf(without)).withEnabled(false)).build();
    }

    @Override
    CounterStore counterStore(InMemoryCounterStore memory) {
        return "none".equals(store) ? new Nothing() : memory;
    }

    @Override
    long paceMillis() {
        return pace;
    }

    /** Keeps nothing: every attempt looks like the first one. */
    static final class Nothing implements CounterStore {
        @Override
        public long count(CounterKey key, long nowMillis) {
            return 0;
        }

        @Override
        public long increment(CounterKey key, long windowMillis, long nowMillis) {
            return 1;
        }

        @Override
        public void decrement(CounterKey key, long windowMillis, long nowMillis) {
        }

        @Override
        public long confirm(CounterKey key, long windowMillis, long nowMillis) {
            return 1;
        }

        @Override
        public void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis) {
        }

        @Override
        public DistinctView distinct(CounterKey key, long member, long nowMillis) {
            return DistinctView.EMPTY;
        }

        @Override
        public DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis) {
            return DistinctView.of(1, true);
        }

        @Override
        public void lock(CounterKey key, long durationMillis, long nowMillis) {
        }

        @Override
        public long lockRemainingMillis(CounterKey key, long nowMillis) {
            return 0;
        }

        @Override
        public void clear(CounterKey key) {
        }
    }
}
