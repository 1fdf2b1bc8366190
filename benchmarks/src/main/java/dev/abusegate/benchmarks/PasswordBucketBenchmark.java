package dev.abusegate.benchmarks;

import dev.abusegate.engine.spray.PasswordBuckets;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The password-spray layer's cost per attempt: one bucket ({@link PasswordBuckets#bucket}, HMAC-SHA256 of the
 * password under the realm's spray key, cut to 20 bits), as a gated step computes it before the hash. Passwords of
 * 8 to 23 characters drawn from 4,096 built once (a request hands the gate a string it already has), over 4 realms
 * with keys of their own.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class PasswordBucketBenchmark {

    static final String[] REALMS = {"realm-0", "realm-1", "realm-2", "realm-3"};

    private final PasswordBuckets buckets = new PasswordBuckets();
    private final byte[][] keys = new byte[REALMS.length][];
    private final String[] passwords = new String[4096];
    private int next;

    @Setup
    public void setUp() {
        for (int r = 0; r < REALMS.length; r++) {
            keys[r] = ("spray key of " + REALMS[r]).getBytes(StandardCharsets.UTF_8);
        }
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < passwords.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            StringBuilder b = new StringBuilder("Pw-").append(Long.toString(x >>> 1, 36));
            passwords[i] = b.substring(0, Math.min(b.length(), 8 + (int) ((x >>> 60) & 15)));
        }
    }

    @Benchmark
    public long bucket() {
        int i = next++ & (passwords.length - 1);
        int r = i & (REALMS.length - 1);
        return buckets.bucket(REALMS[r], keys[r], passwords[i]);
    }
}
