package dev.abusegate.benchmarks;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.keycloak.store.StoreCensus;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a flood costs everyone else in CPU: the same decisions by subjects outside a flood, on the production
 * store (LOCAL caches from {@code CounterCacheConfiguration.build(false)}) at the default bounds (100,000 exact
 * entries in each cache), once on a store that a flood has filled far past its bound ({@code fill=at-bound})
 * and once on an unfilled one ({@code fill=below}).
 *
 * <p>The flood ({@code at-bound} only, before measuring): {@value #FLOOD_FACTOR} times the bound of fresh
 * subjects in a realm of its own with the default options, each a wrong password from a fresh address for a
 * fresh username: an address, a pair and an account failure each, three times what either cache holds. Its
 * windows (300 s and more) outlast the measurement, so the tables stay full: new subjects either replace an
 * entry worth one attempt (the flood's addresses and pairs) or are counted on their slot's shared counter (the
 * flood's failures may not be replaced).
 *
 * <p>The measured subjects: {@link EngineBenchmark}'s traffic (fresh draws from 2^18 addresses, 50,000
 * identifiers, 4 realms, 1 in 8 with a solved captcha, 1 in 4 passwords wrong), with the default thresholds but
 * 1 s windows and lockouts, and the simulated clock moving {@value #PACE_MICROS} µs per login (10,000 logins/s):
 * their own live set is then about 25,000 entries, well below the bound, so on the unfilled store every one of
 * them is exact, and the measured run lasts a few hundred simulated seconds at most, less than the flood's
 * windows. Expired entries are purged between invocations (every 5,000 logins), outside the measured time, as
 * in {@link EngineBenchmark}. The outcomes are printed per iteration: at the bound, subjects counted on a shared
 * counter meet the captcha band early (never {@code blocked}), which changes what a decision does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class AtBoundBenchmark {

    /**
     * The provider's default {@code max-entries} and {@code max-protected-entries} (InfinispanGateStoreProviderFactory;
     * not referenced, it needs Keycloak).
     */
    static final long BOUND = 100_000;
    static final long PROTECTED_BOUND = 100_000;
    static final int FLOOD_FACTOR = 3;
    static final String FLOOD_REALM = "flood-realm";
    static final long PACE_MICROS = 100;
    static final int BATCH = 5_000;

    /** {@code below}: an unfilled store; {@code at-bound}: the same store after the flood. */
    @Param({"below", "at-bound"})
    public String fill;

    private LocalStore local;
    private AbuseGate gate;
    private GateOptions options;
    private final long[] now = {1_800_000_000_000L};
    private long micros = now[0] * 1000;
    private long rng = 0x9E3779B97F4A7C15L;
    private final Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    private final CpuRate cpu = new CpuRate("decisions");

    @Setup(Level.Trial)
    public void setUp() {
        local = new LocalStore(BOUND, PROTECTED_BOUND, now);
        TimeSource clock = () -> now[0];
        gate = new AbuseGate(local.store, clock, realm -> ("benchmark-secret-" + realm).getBytes(StandardCharsets.UTF_8), 0);
        TestOptions b = TestOptions.builder();
        for (Layer layer : Layer.values()) {
            b.layer(layer, GateOptions.defaults().policy(layer).threshold(), 1);
        }
        options = b.lockoutSeconds(1).build();
        if ("at-bound".equals(fill)) {
            flood();
        }
        warm();
        report("before measuring");
    }

    /** Fresh subjects, each a wrong password: an address, a pair and an account failure each. */
    private void flood() {
        GateOptions defaults = GateOptions.defaults();
        long n = FLOOD_FACTOR * Math.max(BOUND, PROTECTED_BOUND);
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String address = "10." + (i >>> 16 & 0xff) + "." + (i >>> 8 & 0xff) + "." + (i & 0xff);
            Decision d = gate.evaluate(defaults, new Attempt(FLOOD_REALM, address, "flood-" + i, null), null, true);
            if (d.allowed()) {
                gate.passwordFailed(d, 0L, java.util.List.of());
            }
        }
        System.out.printf("%nflood: %,d fresh subjects in %.1f s%n", n, (System.nanoTime() - t) / 1e9);
    }

    /** A few simulated seconds of the measured traffic, so that its own live set is in place. */
    private void warm() {
        for (int i = 0; i < 20; i++) {
            local.purgeExpired();
            for (int j = 0; j < BATCH; j++) {
                settleOne();
            }
        }
        outcomes.clear();
    }

    private void report(String when) {
        long[] sizes = local.sizes();
        long[] shared = StoreCensus.sharedCounters(local.store);
        System.out.printf("%n%s: %,d cheap + %,d protective entries (bounds %,d + %,d), shared counters in use %,d + %,d%n", when,
                sizes[0], sizes[1], BOUND, PROTECTED_BOUND, shared[0], shared[1]);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        outcomes.clear();
        cpu.reset();
    }

    @Setup(Level.Invocation)
    public void reap() {
        local.purgeExpired();
        cpu.begin();
    }

    @TearDown(Level.Invocation)
    public void endInvocation() {
        cpu.end(BATCH);
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        cpu.report();
        System.out.printf("[outcomes] %s%n", outcomes);
        report("after the iteration");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        local.close();
    }

    /** One batch of {@value #BATCH} logins by subjects outside the flood: evaluate, then settle an allowed one. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decideAndSettle(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            bh.consume(settleOne());
        }
    }

    private Decision settleOne() {
        long bits = nextRandom();
        micros += PACE_MICROS;
        now[0] = micros / 1000;
        Decision d = gate.evaluate(options, EngineBenchmark.nextAttempt(bits), EngineBenchmark.solved(bits), true);
        if (d.allowed()) {
            if (((bits >>> 56) & 3) == 0) {
                gate.passwordFailed(d, 0L, java.util.List.of());
            } else {
                gate.passwordSucceeded(d, java.util.List.of());
            }
        }
        outcomes.merge(d.outcome(), 1L, Long::sum);
        return d;
    }

    /** xorshift64*, as in {@link EngineBenchmark}. */
    private long nextRandom() {
        rng = EngineBenchmark.xorshift(rng);
        return rng * 0x2545F4914F6CDD1DL;
    }
}
