package dev.abusegate.benchmarks;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.store.ReferenceCounterStore;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.keycloak.store.CounterCacheConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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
 * Gate decisions per second on the production store: {@link dev.abusegate.keycloak.store.InfinispanCounterStore}
 * over the two LOCAL caches a single Keycloak node builds ({@code CounterCacheConfiguration.build(false)}),
 * bounds large enough that nothing is refused; production default options (all four layers, captcha on).
 *
 * <p>Traffic: every operation draws a fresh attempt at random from 2^18 client addresses (4 in 5 IPv4,
 * 1 in 5 IPv6 from 20,000 /64 networks with random host bits, so the /64 aggregation does real work),
 * 50,000 identifiers with mixed case and 4 realms; 1 in 8 attempts carries a solved captcha. Each attempt's
 * address and identifier strings are built afresh from its draw, as a request parser hands the gate fresh
 * strings. The simulated clock moves 1 ms per attempt (a busy realm at 1,000 logins/s); Infinispan reads the
 * same clock, so windows slide and entries expire as in production at that rate, and expired entries are
 * purged every 5 simulated seconds, as the caches' reaper does every 5 s in production (each benchmark
 * invocation is those 5 seconds: {@value #BATCH} logins; the purge runs between invocations, outside the
 * measured time, and its cost is printed apart: it depends on the live set and the wall clock, not on the
 * request rate). The reaper's own schedule (5 s of wall time) also runs. Before measuring, 1.2 million attempts (1,200 simulated seconds, longer than any window) fill
 * the caches to their steady state.
 * With the default thresholds nearly every attempt is allowed: three store changes to decide, one to settle.
 *
 * <ul>
 *   <li>{@link #decideAndSettle}: one whole login as the gate sees it: evaluate, then for an allowed attempt
 *       settle the lockout reservation (1 in 4 passwords wrong, the rest right). The headline.</li>
 *   <li>{@link #decide}: evaluate, then give the reservation back (notVerified).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class EngineBenchmark {

    static final int ADDRESSES = 1 << 18;
    static final int IDENTIFIERS = 50_000;
    static final int PREFILL = 1_200_000;
    static final int V6_NETWORKS = 20_000;
    static final String[] REALMS = {"realm-0", "realm-1", "realm-2", "realm-3"};
    /** Far above the live set (about 1.6 million entries in all): nothing is refused. */
    static final long BOUND = 20_000_000;
    /** How far the simulated clock moves per attempt: 1 ms, a busy realm at 1,000 logins/s. */
    static final long PACE_MILLIS = 1;
    /** Logins per benchmark invocation: the expiry reaper's period (5 s) at the simulated rate. */
    static final int BATCH = (int) (CounterCacheConfiguration.EXPIRATION_WAKE_UP_MILLIS / PACE_MILLIS);

    private AbuseGate gate;
    private LocalStore local;
    private GateOptions options;
    private final long[] now = {1_800_000_000_000L};
    private long rng = 0x9E3779B97F4A7C15L;
    private long reaperThreadNanos;
    private long reaperWallNanos;
    private int reaperRuns;
    private final CpuRate cpu = new CpuRate("decisions");

    /**
     * {@code infinispan}: the production store (the headline). {@code map}: a diagnostic baseline, the engine's
     * reference store on a ConcurrentHashMap ({@link ReferenceCounterStore}, from the authenticator's test jar): the
     * engine without Infinispan.
     */
    @Param({"infinispan"})
    public String store;

    private ReferenceCounterStore map;

    /**
     * {@code off}: attempts carry no password bucket, so the password-spray layer does nothing (the headline).
     * {@code on}: each attempt hands the gate its password's bucket ({@link AbuseGate#passwordBucket}: one HMAC), so
     * the layer reads the bucket with the admission's first changes and a wrong password counts it with layer 3's
     * failure. Passwords are drawn from 65,536, built afresh per attempt.
     */
    @Param({"off"})
    public String spray;

    private final Map<String, byte[]> sprayKeys = new HashMap<>();

    @Setup(Level.Trial)
    public void setUp() {
        TimeSource clock = () -> now[0];
        CounterStore counters;
        if ("map".equals(store)) {
            map = new ReferenceCounterStore(clock);
            counters = map;
        } else {
            local = new LocalStore(BOUND, BOUND, now);
            counters = local.store;
        }
        // an adapter holds each realm's secret; it does not rebuild it per attempt
        Map<String, byte[]> secrets = new HashMap<>();
        for (String realm : REALMS) {
            secrets.put(realm, ("benchmark-secret-" + realm).getBytes(StandardCharsets.UTF_8));
        }
        for (String realm : REALMS) {
            sprayKeys.put(realm, ("benchmark-spray-key-" + realm).getBytes(StandardCharsets.UTF_8));
        }
        gate = new AbuseGate(counters, clock, secrets::get, 0);
        options = GateOptions.defaults();
        // Warm the caches up to their steady state before measuring: 1,200 simulated seconds of traffic, longer
        // than the longest window (900 s), so the measured iterations see full caches, not growing ones.
        for (int i = 0; i < PREFILL / BATCH; i++) {
            reap();
            for (int j = 0; j < BATCH; j++) {
                settleOne();
            }
        }
        long[] sizes = sizes();
        System.out.printf("%nafter prefill: %,d cheap + %,d protective entries%n", sizes[0], sizes[1]);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        reaperThreadNanos = 0;
        reaperWallNanos = 0;
        reaperRuns = 0;
        cpu.reset();
    }

    /**
     * The caches' expiry reaper, once per batch: every {@value CounterCacheConfiguration#EXPIRATION_WAKE_UP_MILLIS}
     * ms of the simulated clock, as in production. Outside the measured time; its cost is printed per iteration.
     */
    @Setup(Level.Invocation)
    public void reap() {
        long t = CpuRate.threadNanos();
        long w = System.nanoTime();
        if (map != null) {
            map.purgeExpired();
        } else {
            local.purgeExpired();
        }
        reaperThreadNanos += CpuRate.threadNanos() - t;
        reaperWallNanos += System.nanoTime() - w;
        reaperRuns++;
        cpu.begin();
    }

    @TearDown(Level.Invocation)
    public void endInvocation() {
        cpu.end(BATCH);
    }

    /** Decisions per CPU-second of this thread and of the JVM (GC and Infinispan's threads included), over the invocations. */
    @TearDown(Level.Iteration)
    public void cpuRate() {
        cpu.report();
        long[] sizes = sizes();
        System.out.printf("[reaper] %d passes over about %,d entries: %.1f ms thread CPU per pass (%.1f ms wall)%n", reaperRuns,
                sizes[0] + sizes[1], reaperThreadNanos / 1e6 / Math.max(1, reaperRuns), reaperWallNanos / 1e6 / Math.max(1, reaperRuns));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long[] sizes = sizes();
        System.out.printf("%nat the end: %,d cheap + %,d protective entries%n", sizes[0], sizes[1]);
        if (local != null) {
            local.close();
        }
    }

    private long[] sizes() {
        return map != null ? map.sizes() : local.sizes();
    }

    /** xorshift64*: cheap, allocation-free randomness for picking the next attempt. */
    private long nextRandom() {
        rng = xorshift(rng);
        return rng * 0x2545F4914F6CDD1DL;
    }

    private static final java.util.function.BooleanSupplier SOLVED = () -> true;

    /** 1 in 8 attempts carries a captcha solution that verifies. */
    static java.util.function.BooleanSupplier solved(long bits) {
        return ((bits >>> 50) & 0xF) < 2 ? SOLVED : null;
    }

    /** The next state of the xorshift64 generator. */
    static long xorshift(long x) {
        x ^= x >>> 12;
        x ^= x << 25;
        return x ^ (x >>> 27);
    }

    /** The attempt a draw stands for (realm, address, identifier, with no device cookie; see solved(bits) for the captcha). */
    static Attempt nextAttempt(long bits) {
        int a = (int) (bits & (ADDRESSES - 1));
        int i = (int) ((bits >>> 20) & 0xFFFFFFFL) % IDENTIFIERS;
        return new Attempt(REALMS[(int) (bits >>> 62)], address(a), identifier(i), null);
    }

    /** The i-th client address, built afresh: the same text for the same i; 4 in 5 IPv4, IPv6 from 20,000 /64 networks. */
    private static String address(int i) {
        long x = mix(i);
        if ((x & 0xff) % 5 == 0) {
            long net = mix((x >>> 8) % V6_NETWORKS + 1);
            return "2001:db8:" + Integer.toHexString((int) net & 0xffff) + ':' + Integer.toHexString((int) (net >>> 16) & 0xffff) + ':'
                    + Integer.toHexString((int) (x >>> 16) & 0xffff) + ':'
                    + Integer.toHexString((int) (x >>> 32) & 0xffff) + ':' + Integer.toHexString((int) (x >>> 48) & 0xffff) + ':'
                    + Integer.toHexString((int) mix(x) & 0xffff);
        }
        return (1 + (int) ((x >>> 8) & 0xffff) % 223) + "." + ((x >>> 24) & 0xff) + "." + ((x >>> 32) & 0xff) + "."
                + (1 + (int) ((x >>> 40) & 0xffff) % 254);
    }

    /** The i-th identifier, built afresh (mixed case, half of them e-mail addresses). */
    private static String identifier(int i) {
        return (i % 3 == 0 ? "User" : "user") + i + (i % 2 == 0 ? "@Example.com" : "");
    }

    private static long mix(long x) {
        x = (x + 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }

    /**
     * One batch of {@value #BATCH} logins (5 simulated seconds, what passes between two reaper runs), each:
     * evaluate, then for an allowed attempt settle the lockout reservation. Scored per login.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decideAndSettle(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            bh.consume(settleOne());
        }
    }

    /** As {@link #decideAndSettle}, but each attempt gives its reservation back (notVerified). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decide(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            long bits = nextRandom();
            now[0] += PACE_MILLIS;
            Decision d = evaluate(bits);
            gate.notVerified(d);
            bh.consume(d);
        }
    }

    private Decision settleOne() {
        long bits = nextRandom();
        now[0] += PACE_MILLIS;
        Decision d = evaluate(bits);
        if (d.allowed()) {
            if (((bits >>> 56) & 3) == 0) {
                gate.passwordFailed(d, 0L, java.util.List.of());
            } else {
                gate.passwordSucceeded(d, java.util.List.of());
            }
        }
        return d;
    }

    /** The attempt a draw stands for, decided; with {@code spray=on} with its password's bucket. */
    private Decision evaluate(long bits) {
        Attempt a = nextAttempt(bits);
        long bucket = "on".equals(spray)
                ? gate.passwordBucket(options, a.realm(), () -> sprayKeys.get(a.realm()), "Winter" + (mix(bits) & 0xFFFF) + "!")
                : AbuseGate.NO_PASSWORD_BUCKET;
        return gate.evaluate(options, a, solved(bits), true, bucket);
    }
}
