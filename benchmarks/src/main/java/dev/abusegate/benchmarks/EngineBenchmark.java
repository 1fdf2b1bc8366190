package dev.abusegate.benchmarks;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateOptions;
import dev.abusegate.engine.InMemoryCounterStore;
import dev.abusegate.engine.TimeSource;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
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
 * Gate decisions per second on the in-memory store, one thread, production default options.
 *
 * <p>Traffic: every operation draws a fresh attempt at random from 2^18 client addresses (4 in 5 IPv4,
 * 1 in 5 IPv6 from 20,000 /64 networks with random host bits, so the /64 aggregation does real work),
 * 50,000 identifiers with mixed case and 4 realms; 1 in 10 attempts carries a solved captcha. The
 * simulated clock moves 1 ms per attempt (a busy realm at 1,000 logins/s), so windows slide and counters
 * expire and are re-created as in production. Before measuring, 1.2 million attempts (1,200
 * simulated seconds, longer than any window) fill the store to its steady state; expired entries are
 * purged between iterations (as a cache's expiry reaper would), so the store holds about the live set:
 * some 1.5 million entries. With the default thresholds nearly every attempt is allowed (the full path: reads,
 * increments, the lockout reservation).
 *
 * <p>Inputs ({@code inputs} parameter): {@code built} (the default and the headline) builds each attempt's
 * address and identifier strings from its random draw, as a server's request parser hands the gate fresh
 * strings; the cost of building them is measured with the decision. {@code pooled} picks them from
 * pre-built arrays (about 30 MB of strings), so every attempt also pays the cache misses of reading its
 * own input, which a real server does not: kept for comparison with earlier runs.
 *
 * <ul>
 *   <li>{@link #decideAndSettle}: one whole login as the gate sees it: evaluate, then for an allowed
 *       attempt settle the lockout reservation (1 in 4 passwords wrong, the rest right). The headline.</li>
 *   <li>{@link #decide}: evaluate, then give the reservation back (notVerified).</li>
 *   <li>{@link #keysOnly}: just the key derivation (normalize, parse, hash), for the profile.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EngineBenchmark {

    static final int ADDRESSES = 1 << 18;
    static final int IDENTIFIERS = 50_000;
    static final int PREFILL = 1_200_000;
    static final int V6_NETWORKS = 20_000;
    static final String[] REALMS = {"realm-0", "realm-1", "realm-2", "realm-3"};

    private AbuseGate gate;
    private InMemoryCounterStore memory;
    private long paceMillis;
    private GateOptions options;
    private String[] addresses;
    private String[] identifiers;
    private final long[] now = {1_800_000_000_000L};
    private long rng = 0x9E3779B97F4A7C15L;

    @Param({"built", "pooled"})
    public String inputs;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom r = new SplittableRandom(42);
        String[] v6nets = new String[V6_NETWORKS];
        for (int i = 0; i < v6nets.length; i++) {
            v6nets[i] = String.format("2001:db8:%x:%x", r.nextInt(0x10000), r.nextInt(0x10000));
        }
        addresses = new String[ADDRESSES];
        for (int i = 0; i < ADDRESSES; i++) {
            addresses[i] = r.nextInt(5) == 0
                    ? v6nets[r.nextInt(v6nets.length)] + String.format(":%x:%x:%x:%x", r.nextInt(0x10000),
                            r.nextInt(0x10000), r.nextInt(0x10000), r.nextInt(0x10000))
                    : (1 + r.nextInt(223)) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
        }
        identifiers = new String[IDENTIFIERS];
        for (int i = 0; i < IDENTIFIERS; i++) {
            identifiers[i] = (i % 3 == 0 ? "User" : "user") + i + (i % 2 == 0 ? "@Example.com" : "");
        }
        TimeSource clock = () -> now[0];
        memory = new InMemoryCounterStore();
        // an adapter holds each realm's secret; it does not rebuild it per attempt
        Map<String, byte[]> secrets = new HashMap<>();
        for (String realm : REALMS) {
            secrets.put(realm, ("benchmark-secret-" + realm).getBytes(StandardCharsets.UTF_8));
        }
        gate = new AbuseGate(counterStore(memory), clock, secrets::get);
        paceMillis = paceMillis();
        options = options();
        // Warm the store up to its steady state before measuring: 1,200 simulated seconds of traffic, longer
        // than the longest window (900 s), so the measured iterations see a full store, not a growing one.
        for (int i = 0; i < PREFILL; i++) {
            decideAndSettle();
        }
        memory.purgeExpired(now[0]);
    }

    /** The store the gate counts in: the in-memory one (a subclass may put something else in front). */
    CounterStore counterStore(InMemoryCounterStore memory) {
        return memory;
    }

    /** The options every attempt is decided with: the production defaults. */
    GateOptions options() {
        return GateOptions.defaults();
    }

    /** How far the simulated clock moves per attempt: 1 ms, a busy realm at 1,000 logins/s. */
    long paceMillis() {
        return 1;
    }

    /** What a cache's expiry reaper does; between iterations, so it is not measured. */
    @Setup(Level.Iteration)
    public void purge() {
        memory.purgeExpired(now[0]);
    }

    /** xorshift64*: cheap, allocation-free randomness for picking the next attempt. */
    private long nextRandom() {
        long x = rng;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        rng = x;
        return x * 0x2545F4914F6CDD1DL;
    }

    private Attempt nextAttempt(long bits) {
        int a = (int) (bits & (ADDRESSES - 1));
        int i = (int) ((bits >>> 20) & 0xFFFFFFFL) % IDENTIFIERS;
        boolean pooled = "pooled".equals(inputs);
        return new Attempt(REALMS[(int) (bits >>> 62)], pooled ? addresses[a] : address(a), pooled ? identifiers[i] : identifier(i),
                ((bits >>> 50) & 0xF) < 2);
    }

    /** The i-th client address, built afresh: the same text for the same i; 4 in 5 IPv4, IPv6 from 20,000 /64 networks, as in the pool. */
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

    @Benchmark
    public Decision decideAndSettle() {
        long bits = nextRandom();
        now[0] += paceMillis;
        Decision d = gate.evaluate(options, nextAttempt(bits));
        if (d.allowed()) {
            if (((bits >>> 56) & 3) == 0) {
                gate.passwordFailed(d);
            } else {
                gate.passwordSucceeded(d);
            }
        }
        return d;
    }

    @Benchmark
    public Decision decide() {
        long bits = nextRandom();
        now[0] += paceMillis;
        Decision d = gate.evaluate(options, nextAttempt(bits));
        gate.notVerified(d);
        return d;
    }

    @Benchmark
    public long keysOnly() {
        long bits = nextRandom();
        Attempt a = nextAttempt(bits);
        return gate.keys().forAttempt(a, 64).member();
    }
}
