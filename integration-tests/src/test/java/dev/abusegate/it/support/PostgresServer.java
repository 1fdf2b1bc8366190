package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL server for tests that need a database shared by several Keycloak nodes
 * (clustered Keycloak discovers its peers through the database: the {@code jdbc-ping} stack).
 *
 * <p>Uses the operating system's PostgreSQL binaries (Debian: {@code apt-get install -y postgresql};
 * the system service is never started or touched). {@link #start()} runs {@code initdb} into a fresh
 * directory under {@code /tmp}, starts {@code postgres} with {@code pg_ctl} on a free port of 127.0.0.1
 * with its unix socket in that directory, and creates the role and database {@value #DATABASE} with a
 * random password. PostgreSQL refuses to run as root: when the tests run as root, every PostgreSQL
 * command runs as the {@code postgres} OS user ({@code runuser -u postgres --}). {@link #close()} stops
 * the server and deletes the directory; a JVM shutdown hook and a watchdog process (which stops the server
 * when the test JVM is gone) make sure nothing is left running.
 *
 * <pre>{@code
 * try (PostgresServer db = PostgresServer.start()) {
 *     KeycloakServer.builder("node-a").command("start").options(db.keycloakOptions())...
 * }
 * }</pre>
 */
public final class PostgresServer implements AutoCloseable {

    public static final String DATABASE = "keycloak";
    public static final String USERNAME = "keycloak";
    private static final String OS_USER = "postgres";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Path binDir;
    private final int port;
    private final String password;
    private final boolean asRoot;
    private final Process watchdog;
    private volatile boolean stopped;

    private PostgresServer(Path dir, Path binDir, int port, String password, boolean asRoot, Process watchdog) {
        this.dir = dir;
        this.binDir = binDir;
        this.port = port;
        this.password = password;
        this.asRoot = asRoot;
        this.watchdog = watchdog;
    }

    /** Initialises and starts a new server; blocks until it accepts connections and the database exists. */
    public static PostgresServer start() {
        Path binDir = findBinDir();
        boolean asRoot = "root".equals(System.getProperty("user.name"));
        String password = UUID.randomUUID().toString().replace("-", "");
        int port = KeycloakServer.freePorts(1)[0];
        Path dir;
        try {
            dir = Files.createTempDirectory(Paths.get("/tmp"), "abuse-gate-pg-");
            if (asRoot) {
                run(List.of("chown", "-R", OS_USER + ":" + OS_USER, dir.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the PostgreSQL directory", e);
        }
        Path data = dir.resolve("data");
        try {
            Path pwFile = dir.resolve("superuser-password");
            Files.writeString(pwFile, password + "\n", StandardCharsets.UTF_8);
            if (asRoot) {
                run(List.of("chown", OS_USER + ":" + OS_USER, pwFile.toString()));
            }
            run(pg(asRoot, binDir.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres",
                    "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=" + pwFile,
                    "-E", "UTF8", "--locale=C", "--no-sync"));
            run(pg(asRoot, binDir.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(),
                    "-w", "-t", "60",
                    "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off",
                    "start"));
        } catch (IOException | RuntimeException e) {
            String log = readQuietly(dir.resolve("postgres.log"));
            stopAndDelete(binDir, dir, asRoot);
            throw new IllegalStateException("PostgreSQL did not start: " + e.getMessage() + "\npostgres.log:\n" + log, e);
        }
        Process watchdog = startWatchdog(binDir, dir, data, asRoot);
        PostgresServer server = new PostgresServer(dir, binDir, port, password, asRoot, watchdog);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-it-shutdown"));
        try {
            server.psql("CREATE ROLE " + USERNAME + " LOGIN PASSWORD '" + password + "'");
            server.psql("CREATE DATABASE " + DATABASE + " OWNER " + USERNAME);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        System.out.println("[postgres-it] PostgreSQL on 127.0.0.1:" + port + " in " + dir);
        return server;
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/keycloak}. */
    private String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /** The kc.sh options that point Keycloak at this database. */
    public List<String> keycloakOptions() {
        return List.of("--db=postgres", "--db-url=" + jdbcUrl(), "--db-username=" + USERNAME, "--db-password=" + password);
    }

    /** Runs one SQL statement as the superuser over the unix socket; returns psql's unaligned output. */
    private String psql(String sql) {
        try {
            return run(pg(asRoot, binDir.resolve("psql").toString(), "-h", dir.toString(), "-p", Integer.toString(port),
                    "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-At", "-c", sql));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the server (fast shutdown) and deletes its directory. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        stopAndDelete(binDir, dir, asRoot);
        watchdog.destroy();
        System.out.println("[postgres-it] PostgreSQL on port " + port + " stopped, " + dir + " deleted");
    }

    // ------------------------------------------------------------------------------------------

    private static void stopAndDelete(Path binDir, Path dir, boolean asRoot) {
        Path data = dir.resolve("data");
        if (Files.exists(data.resolve("postmaster.pid"))) {
            try {
                run(pg(asRoot, binDir.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "60", "stop"));
            } catch (IOException | RuntimeException e) {
                System.out.println("[postgres-it] pg_ctl stop failed: " + e.getMessage());
            }
        }
        try {
            KeycloakProcess.deleteTree(dir);
        } catch (IOException e) {
            System.out.println("[postgres-it] cannot delete " + dir + ": " + e);
        }
    }

    /** Stops the server and deletes its directory when this JVM disappears without running shutdown hooks. */
    private static Process startWatchdog(Path binDir, Path dir, Path data, boolean asRoot) {
        String stop = (asRoot ? "runuser -u " + OS_USER + " -- " : "") + binDir.resolve("pg_ctl") + " -D " + data + " -m fast -w stop";
        String script = "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null && [ -f " + data + "/postmaster.pid ]; do sleep 2; done; "
                + "if [ -f " + data + "/postmaster.pid ]; then " + stop + "; rm -rf " + dir + "; fi";
        try {
            return new ProcessBuilder("/bin/bash", "-c", script)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the PostgreSQL watchdog", e);
        }
    }

    private static List<String> pg(boolean asRoot, String... command) {
        List<String> c = new ArrayList<>();
        if (asRoot) {
            c.addAll(List.of("runuser", "-u", OS_USER, "--"));
        }
        c.addAll(List.of(command));
        return c;
    }

    private static String run(List<String> command) throws IOException {
        Path out = Files.createTempFile("pg-cmd-", ".out");
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("Timed out: " + String.join(" ", command));
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("Exit code " + p.exitValue() + " from " + String.join(" ", command) + ":\n" + text);
            }
            return text.trim();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The newest {@code /usr/lib/postgresql/<version>/bin}, or the directory of {@code initdb} on the PATH. */
    private static Path findBinDir() {
        Path base = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(base)) {
            try (Stream<Path> versions = Files.list(base)) {
                Path best = versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                        .max(Comparator.comparingInt(v -> parseIntOr(v.getFileName().toString())))
                        .orElse(null);
                if (best != null) {
                    return best.resolve("bin");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path initdb = Paths.get(d, "initdb");
            if (!d.isEmpty() && Files.isExecutable(initdb)) {
                try {
                    return initdb.toRealPath().getParent();
                } catch (IOException e) {
                    return initdb.getParent();
                }
            }
        }
        throw new IllegalStateException("PostgreSQL is not installed (no initdb): apt-get install -y postgresql");
    }

    private static int parseIntOr(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "<none>";
        } catch (IOException e) {
            return "<" + e + ">";
        }
    }
}
