package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.opentest4j.TestAbortedException;

/**
 * A real Keycloak with the provider JAR: the harness's one API to start, reach and stop a server, on the backend that
 * {@code -Dkeycloak.it.backend} picks (docs/integration-tests.md). Thread-safe.
 */
public abstract class KeycloakServer implements AutoCloseable {

    /** Bootstrap admin of the master realm; the servers bind to and are reached on 127.0.0.1 only. */
    public static final String ADMIN_USERNAME = "admin";
    public static final String ADMIN_PASSWORD = "admin";
    public static final String HOST = "127.0.0.1";
    static final int TAIL_LINES = 100;
    /** Keycloak's default console format: {@code 2026-01-01 12:00:00,000 ERROR [category] (thread) message}. */
    public static final Pattern LOG_LINE = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}\\s+(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\s+\\[([^\\]]*)\\]");

    /** Started and not yet closed: the shutdown hook closes these (Ryuk, testcontainers' reaper, may be disabled). */
    private static final List<KeycloakServer> RUNNING = new CopyOnWriteArrayList<>();
    private static KeycloakServer shared;
    private static Throwable sharedFailure;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(KeycloakServer::close), "keycloak-it-shutdown"));
    }

    protected final HttpClient http = Http.client();
    private final String name;
    /** {@code <keycloak.it.workDir>/keycloak-<name>.log}: the process's output, or a copy of the container's. */
    final Path logFile;
    /** Its own lock (close() holds this server's monitor while it stops): the admin client is created on first use. */
    private final Object adminLock = new Object();
    private AdminClient admin;
    private volatile Duration startupTime;
    private volatile boolean stopped;

    KeycloakServer(String name) {
        this.name = name;
        this.logFile = workDir().resolve("keycloak-" + name + ".log");
        try {
            Files.deleteIfExists(logFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True for {@code -Dkeycloak.it.backend=container}, false for process (the default); anything else fails. */
    public static boolean onContainers() {
        String v = System.getProperty("keycloak.it.backend", "").trim().toLowerCase(Locale.ROOT);
        if (!List.of("", "process", "container").contains(v)) {
            throw new IllegalArgumentException("-Dkeycloak.it.backend=" + v + " is neither 'process' nor 'container'");
        }
        return v.equals("container");
    }

    /** The Keycloak release under test ({@code -Dkeycloak.it.version}, set by the pom): a distribution or an image tag. */
    public static String version() {
        return requiredProperty("keycloak.it.version", "run the ITs with `mvn verify`");
    }

    /** A system property the pom sets; fails with {@code hint} when it is not set. */
    static String requiredProperty(String name, String hint) {
        String v = System.getProperty(name, "").trim();
        if (v.isEmpty()) {
            throw new IllegalStateException("System property " + name + " is not set (" + hint + ")");
        }
        return v;
    }

    /** The test JVM's one shared server, started once (with {@code -Dkeycloak.it.extraOptions}); the shutdown hook stops it. */
    public static synchronized KeycloakServer shared() {
        if (sharedFailure instanceof TestAbortedException skipped) {
            throw new TestAbortedException(skipped.getMessage()); // e.g. no Docker engine for the container backend
        }
        if (sharedFailure != null) {
            throw new IllegalStateException("The shared Keycloak failed to start earlier in this JVM", sharedFailure);
        }
        if (shared == null) {
            String extra = System.getProperty("keycloak.it.extraOptions", "").trim();
            try {
                shared = builder("shared").options(extra.isEmpty() ? List.of() : Arrays.asList(extra.split("\\s+"))).launch();
            } catch (RuntimeException | Error e) {
                sharedFailure = e;
                throw e;
            }
        }
        return shared;
    }

    /** A builder for another server; {@code name} names its home directory, log file and container. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        final String name;
        final List<String> extraOptions = new ArrayList<>();
        final Map<String, String> env = new LinkedHashMap<>();
        String command = "start-dev";
        Duration startTimeout = Duration.ofSeconds(Long.getLong("keycloak.it.startTimeoutSeconds", 180));

        private Builder(String name) {
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("Server name must be a plain file name: " + name);
            }
            this.name = name;
        }

        /** Adds a kc.sh option, e.g. {@code --spi-abuse-gate-store--infinispan--max-entries=10}. */
        public Builder option(String option) {
            extraOptions.add(option);
            return this;
        }

        public Builder options(Collection<String> options) {
            extraOptions.addAll(options);
            return this;
        }

        /** An environment variable for the server (e.g. {@code JAVA_OPTS_KC_HEAP}). */
        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** The kc.sh command (default {@code start-dev}); {@code start} also needs http, hostname and db options. */
        public Builder command(String command) {
            if (!command.matches("[a-z-]+")) {
                throw new IllegalArgumentException("Not a kc.sh command: " + command);
            }
            this.command = command;
            return this;
        }

        /** How long to wait for ready (default {@code keycloak.it.startTimeoutSeconds}, else 180 s). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Starts the server and blocks until it is ready; refused in the default tier, which runs on the shared server alone. */
        public KeycloakServer start() {
            String groups = System.getProperty("keycloak.it.groups", "").replace(" ", "");
            if (groups.contains("!" + Extended.TAG)) {
                throw new IllegalStateException("Server '" + name + "' would be a server of its own in the default tier "
                        + "(keycloak.it.groups=" + groups + "): annotate the test class @Extended or @DedicatedServer "
                        + "(CONTRIBUTING.md, \"Test tiers\")");
            }
            return launch();
        }

        /** One server per name, stopped by the shutdown hook once started, and on failure stopped and reported with its log. */
        private KeycloakServer launch() {
            if (RUNNING.stream().anyMatch(s -> s.name.equals(name))) {
                throw new IllegalStateException("A server named '" + name + "' is already running");
            }
            KeycloakServer server = onContainers() ? KeycloakContainerServer.prepare(this) : KeycloakProcess.prepare(this);
            long t0 = System.nanoTime();
            RUNNING.add(server);
            try {
                server.startAndAwaitReady(this);
            } catch (RuntimeException | Error e) {
                server.close();
                throw new IllegalStateException("Keycloak '" + name + "' did not start (" + e.getMessage() + "). Last "
                        + TAIL_LINES + " log lines (" + server.logFile + "):\n" + server.tail(TAIL_LINES), e);
            }
            server.startupTime = Duration.ofNanos(System.nanoTime() - t0);
            log("Keycloak '" + name + "' ready at " + server.baseUrl() + " after " + server.startupTime.toMillis() / 1000.0 + " s");
            return server;
        }
    }

    // What a backend says: how to start (and wait for ready), tell it runs, stop (once, from close()) and reach it

    abstract void startAndAwaitReady(Builder b);

    abstract boolean running();

    abstract void stop();

    /** {@code http://<host>:<port>}, no trailing slash. */
    public abstract String baseUrl();

    /** {@code http://<host>:<management port>}: /health, /health/ready, /metrics. */
    public abstract String managementUrl();

    public final boolean isAlive() {
        return !stopped && running();
    }

    /** Stops the server and its admin client; a second caller waits until the first has stopped it. Not for {@link #shared()}. */
    @Override
    public final synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        RUNNING.remove(this);
        try {
            synchronized (adminLock) {
                Optional.ofNullable(admin).ifPresent(AdminClient::close);
            }
        } catch (RuntimeException e) {
            log("closing the admin client of '" + name + "': " + e);
        } finally {
            stop();
            log("Keycloak '" + name + "' stopped");
        }
    }

    public final String name() {
        return name;
    }

    public final Duration startupTime() {
        return startupTime;
    }

    /** The admin client, logged in as the bootstrap admin of master (one per server). */
    public AdminClient admin() {
        synchronized (adminLock) {
            if (admin == null) {
                admin = new AdminClient(baseUrl(), ADMIN_USERNAME, ADMIN_PASSWORD);
            }
            return admin;
        }
    }

    public BrowserLogin newBrowser() {
        return new BrowserLogin(baseUrl());
    }

    /** The Prometheus text of the management port's {@code /metrics}. */
    public String metrics() {
        HttpResponse<String> r = Http.send(http, Http.request(managementUrl() + "/metrics", null).GET().build());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /metrics -> " + r.statusCode() + ": " + Json.abbreviate(r.body()));
        }
        return r.body();
    }

    /** Sum of the samples of a metric whose labels include all the given ones (0 if none). */
    public double metricValue(String metricName, Map<String, String> labels) {
        return Metrics.sum(metrics(), metricName, labels);
    }

    // The log (the process's output, the container's stdout and stderr)

    public String logText() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A position in the log (its length so far); pass it to {@link #logTextSince(long)}. */
    public long logMark() {
        return logText().length();
    }

    public String logTextSince(long mark) {
        String log = logText();
        return mark >= log.length() ? "" : log.substring((int) mark);
    }

    /** The last {@code n} log lines, for failure messages (a log that cannot be read says so, never throws). */
    public String tail(int n) {
        try {
            List<String> lines = logText().lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (RuntimeException e) {
            return "<cannot read log: " + e + ">";
        }
    }

    /** Log records (of the server, or of {@code text}) of {@code level} whose category starts with a prefix ("" = any). */
    public List<String> logLines(String level, String categoryPrefix) {
        return filterLog(logText(), level, categoryPrefix);
    }

    public List<String> abuseGateErrorLines() {
        return logLines("ERROR", "dev.abusegate");
    }

    public static List<String> filterLog(String text, String level, String categoryPrefix) {
        return text.lines().filter(line -> {
            Matcher m = LOG_LINE.matcher(line);
            return m.find() && m.group(1).equals(level) && m.group(2).startsWith(categoryPrefix);
        }).toList();
    }

    /** Distinct free TCP ports on 127.0.0.1 (all probed at once so they differ). */
    public static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getByName(HOST)));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        } finally {
            sockets.forEach(s -> run(s::close, "closing port " + s.getLocalPort()));
        }
    }

    // One record per running server in <keycloak.it.workDir>/running/: .ci/stop-recorded-servers stops that and nothing else

    /** {@code <keycloak.it.workDir>}: integration-tests/target. */
    static Path workDir() {
        return Paths.get(System.getProperty("keycloak.it.workDir", "target")).toAbsolutePath();
    }

    /** Records {@code process-<name>.pid}: a marker on every process's command line, then one PID a line. */
    static void recordProcess(String name, String marker, List<Long> pids) {
        record("process-" + name + ".pid", marker + "\n" + pids.stream().map(p -> p + "\n").collect(Collectors.joining()));
    }

    /** Writes (or replaces) a record, e.g. {@code container-<name>.id} with the container id. */
    static void record(String file, String content) {
        Path dir = workDir().resolve("running");
        run(() -> {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(file + ".tmp"), content, StandardCharsets.UTF_8);
            Files.move(dir.resolve(file + ".tmp"), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }, "recording " + file + " in " + dir);
    }

    static void forget(String file) {
        run(() -> Files.deleteIfExists(workDir().resolve("running").resolve(file)), "forgetting " + file);
    }

    interface IoAction {
        void run() throws IOException;
    }

    /** Runs an action whose failure is only said on the console (diagnostics, clean-up). */
    static void run(IoAction action, String what) {
        try {
            action.run();
        } catch (IOException e) {
            log(what + ": " + e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", " + baseUrl() + ", management " + managementUrl() + "]";
    }

    static void log(String message) {
        System.out.println("[keycloak-it] " + message);
    }
}
