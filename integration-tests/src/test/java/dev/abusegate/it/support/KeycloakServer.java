package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.TestAbortedException;

/**
 * A real Keycloak with the provider JAR deployed: the harness's one API to start, reach and stop a server
 * (docs/integration-tests.md, "One interface, two backends"). {@link #shared()} is the one server of the test JVM
 * (failsafe runs every IT in one JVM; tests isolate themselves with their own realm); {@link #builder(String)} starts
 * another (other options, cluster nodes). {@code -Dkeycloak.it.backend=…} picks the backend for the whole run:
 * {@link KeycloakProcess} (default, the distribution as a process) or {@link KeycloakContainerServer} (the official
 * image). What both share lives here: the lifecycle (one name per running server, a JVM shutdown hook that stops what
 * {@link #close()} did not, an idempotent close), the admin client, metrics and the log views. Thread-safe.
 */
public abstract class KeycloakServer implements AutoCloseable {

    /** Bootstrap admin of the master realm. */
    public static final String ADMIN_USERNAME = "admin";
    public static final String ADMIN_PASSWORD = "admin";
    /** Only ever bind to and talk to the loopback address. */
    public static final String HOST = "127.0.0.1";
    /** Keycloak's default console format: {@code 2026-01-01 12:00:00,000 ERROR [category] (thread) message}. */
    public static final Pattern LOG_LINE = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}\\s+(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\s+\\[([^\\]]*)\\]");

    /** Started and not yet closed: the shutdown hook closes these (Ryuk, testcontainers' reaper, may be disabled). */
    private static final List<KeycloakServer> RUNNING = new CopyOnWriteArrayList<>();
    private static volatile KeycloakServer shared;
    private static Throwable sharedFailure;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(KeycloakServer::close), "keycloak-it-shutdown"));
    }

    /** For the server's own endpoints (readiness, metrics); never follows a redirect. */
    protected final HttpClient http = Http.client();
    private final String name;
    /** Its own lock (close() holds this server's monitor while it stops): the admin client is created on first use. */
    private final Object adminLock = new Object();
    private AdminClient admin;
    private volatile Duration startupTime;
    private volatile boolean stopped;

    KeycloakServer(String name) {
        this.name = name;
    }

    // ------------------------------------------------------------------------------------------
    // Choosing and starting

    /** Where the servers of this run come from ({@code -Dkeycloak.it.backend}). */
    public enum Backend {
        /** The distribution as an operating-system process (default). */
        PROCESS,
        /** The official image through testcontainers-keycloak (needs Docker). */
        CONTAINER;

        /** The backend chosen for this run; a value other than process/container fails every test at once. */
        public static Backend selected() {
            String v = System.getProperty("keycloak.it.backend", "");
            if (v.isBlank()) {
                return PROCESS;
            }
            try {
                return valueOf(v.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-Dkeycloak.it.backend=" + v + " is neither 'process' nor 'container'");
            }
        }
    }

    /** The Keycloak release under test ({@code -Dkeycloak.it.version}, set by the pom): a distribution or an image tag. */
    public static String version() {
        String v = System.getProperty("keycloak.it.version", "");
        if (v.isBlank()) {
            throw new IllegalStateException("System property keycloak.it.version is not set (run the ITs with `mvn verify`)");
        }
        return v.trim();
    }

    /**
     * The one shared server of this test JVM, started on first call (with {@code -Dkeycloak.it.extraOptions}, space
     * separated). If that start failed, every later call fails (or is skipped) at once. Never close it: the shutdown
     * hook does.
     */
    public static KeycloakServer shared() {
        KeycloakServer s = shared;
        if (s != null) {
            return s;
        }
        synchronized (KeycloakServer.class) {
            if (sharedFailure instanceof TestAbortedException skipped) {
                throw new TestAbortedException(skipped.getMessage()); // e.g. no Docker engine for the container backend
            }
            if (sharedFailure != null) {
                throw new IllegalStateException("The shared Keycloak failed to start earlier in this JVM", sharedFailure);
            }
            if (shared == null) {
                String extra = System.getProperty("keycloak.it.extraOptions", "").trim();
                try {
                    shared = builder("shared").options(extra.isEmpty() ? List.of() : Arrays.asList(extra.split("\\s+"))).startShared();
                } catch (RuntimeException | Error e) {
                    sharedFailure = e;
                    throw e;
                }
            }
            return shared;
        }
    }

    /** A builder for a separate server; {@code name} names it (home directory, log file, container). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Options and environment of a server to start. */
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

        /** Sets an environment variable for the server (e.g. {@code JAVA_OPTS_KC_HEAP}). */
        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /**
         * The kc.sh command (default {@code start-dev}); {@code start} (production mode) also needs
         * {@code --http-enabled=true --hostname-strict=false} and {@code --db=...}. Only the process backend runs it.
         */
        public Builder command(String command) {
            if (!command.matches("[a-z-]+")) {
                throw new IllegalArgumentException("Not a kc.sh command: " + command);
            }
            this.command = command;
            return this;
        }

        /** How long to wait for the server to be ready (default {@code keycloak.it.startTimeoutSeconds}, else 180 s). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Starts the server on the selected backend and blocks until it is ready; fails with the log tail otherwise.
         * The default tier ({@code keycloak.it.groups=!extended}) runs on the shared server alone, so a class starting
         * a server of its own there is missing {@link Extended} and fails here, rather than slowing the tier unnoticed.
         */
        public KeycloakServer start() {
            String groups = System.getProperty("keycloak.it.groups", "").replace(" ", "");
            if (groups.contains("!" + Extended.TAG)) {
                throw new IllegalStateException("Server '" + name + "' would be a server of its own in the default tier "
                        + "(keycloak.it.groups=" + groups + "): annotate the test class @Extended or @DedicatedServer "
                        + "(CONTRIBUTING.md, \"Test tiers\")");
            }
            return startShared();
        }

        private KeycloakServer startShared() {
            return Backend.selected() == Backend.CONTAINER ? KeycloakContainerServer.start(this) : KeycloakProcess.start(this);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Lifecycle, for the backends

    /** Fails when a server of this name runs already: homes, log files and container names are per name. */
    static void requireUnusedName(String name) {
        if (RUNNING.stream().anyMatch(s -> s.name.equals(name))) {
            throw new IllegalStateException("A server named '" + name + "' is already running");
        }
    }

    /** From now on this server is stopped by {@link #close()} or, failing that, by the shutdown hook. */
    void register() {
        RUNNING.add(this);
    }

    /** The server answered ready, {@code startupTime} after its start. */
    void ready(Duration startupTime) {
        this.startupTime = startupTime;
        log("Keycloak '" + name + "' ready at " + baseUrl() + " after " + startupTime.toMillis() / 1000.0 + " s");
    }

    /** True while the backend's process or container runs. */
    protected abstract boolean running();

    /** Stops the process or container (called once, by {@link #close()}). */
    protected abstract void stop();

    public final boolean isAlive() {
        return !stopped && running();
    }

    /**
     * Stops the server and closes its admin client. Idempotent: a second caller (the shutdown hook while a test closes
     * it) waits until the first has stopped it. Do not call it on {@link #shared()}.
     */
    @Override
    public final synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        RUNNING.remove(this);
        try {
            synchronized (adminLock) {
                if (admin != null) {
                    admin.close();
                }
            }
        } catch (RuntimeException e) {
            log("closing the admin client of '" + name + "': " + e);
        } finally {
            stop();
            log("Keycloak '" + name + "' stopped");
        }
    }

    /** Server name (home directory / log file / container name part). */
    public final String name() {
        return name;
    }

    /** Time from start to ready. */
    public final Duration startupTime() {
        return startupTime;
    }

    // ------------------------------------------------------------------------------------------
    // Addresses and clients

    /** {@code http://<host>:<port>} (no trailing slash). */
    public abstract String baseUrl();

    /** {@code http://<host>:<management port>}: /health, /health/ready, /metrics. */
    public abstract String managementUrl();

    /** Admin REST client logged in as the bootstrap admin of master (one per server, thread-safe). */
    public AdminClient admin() {
        synchronized (adminLock) {
            if (admin == null) {
                admin = new AdminClient(baseUrl(), ADMIN_USERNAME, ADMIN_PASSWORD);
            }
            return admin;
        }
    }

    /** A new simulated browser (own cookie jar) for this server. */
    public BrowserLogin newBrowser() {
        return new BrowserLogin(baseUrl());
    }

    /** The Prometheus text of the management port's {@code /metrics}. */
    public String metrics() {
        return Metrics.fetch(http, managementUrl() + "/metrics");
    }

    /** Sum of the samples of a metric whose labels include all the given ones (0 if none). */
    public double metricValue(String metricName, Map<String, String> labels) {
        return Metrics.sum(metrics(), metricName, labels);
    }

    // ------------------------------------------------------------------------------------------
    // Log (the process's log file, the container's stdout/stderr)

    /** The whole log so far. */
    public abstract String logText();

    /** A position in the log (its length so far); pass it to {@link #logTextSince(long)}. */
    public long logMark() {
        return logText().length();
    }

    /** The log written after {@code mark}. */
    public String logTextSince(long mark) {
        String log = logText();
        return mark >= log.length() ? "" : log.substring((int) mark);
    }

    /** The last {@code n} log lines; for failure messages, so a log that cannot be read says so instead of throwing. */
    public String tail(int n) {
        try {
            List<String> lines = logText().lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (RuntimeException e) {
            return "<cannot read log: " + e + ">";
        }
    }

    /** Log records of {@code level} (e.g. "ERROR") whose category starts with {@code categoryPrefix} ("" = any). */
    public List<String> logLines(String level, String categoryPrefix) {
        return filterLog(logText(), level, categoryPrefix);
    }

    /** ERROR records from our own code ({@code dev.abusegate*}). */
    public List<String> abuseGateErrorLines() {
        return logLines("ERROR", "dev.abusegate");
    }

    /** Lines of {@code text} that are log records of {@code level} whose category starts with the prefix. */
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
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST));
                s.setReuseAddress(true);
                sockets.add(s);
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
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
