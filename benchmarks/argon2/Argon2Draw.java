import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * One JVM's cost of Keycloak's default password hash: Argon2id 1.3, 7168 KB, 5 iterations, parallelism 1, a 32-byte
 * hash of a 16-byte salt (Keycloak's Argon2Parameters), with the Bouncy Castle jar Keycloak ships. Hashes
 * {@code warm} passwords, then prints the thread's CPU per hash over {@code n} more. Run by run.sh, one JVM at a time.
 */
public final class Argon2Draw {

    private static void hash(int i) {
        Argon2Parameters p = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withSalt(new byte[16])
                .withMemoryAsKB(7168).withIterations(5).withParallelism(1).build();
        Argon2BytesGenerator g = new Argon2BytesGenerator();
        g.init(p);
        byte[] out = new byte[32];
        g.generateBytes(("password-" + i).toCharArray(), out);
    }

    public static void main(String[] args) {
        int warm = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warm; i++) {
            hash(i);
        }
        long cpu = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            hash(warm + i);
        }
        double ms = (threads.getCurrentThreadCpuTime() - cpu) / 1e6 / n;
        System.out.printf("%.1f ms CPU per hash (%d hashes after %d)%n", ms, n, warm);
    }
}
