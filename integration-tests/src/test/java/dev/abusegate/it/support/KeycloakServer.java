package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Keycloak with our provider JAR deployed, as the integration tests see it. Two backends implement it;
 * {@code -Dkeycloak.it.backend=…} picks one for the whole run:
 * <ul>
 *   <li>{@code process} (default): the distribution {@code org.keycloak:keycloak-quarkus-dist:zip} started
 *       with {@code bin/kc.sh start-dev} ({@link KeycloakProcess}); needs nothing but a JDK.</li>
 *   <li>{@code container}: the official image {@code quay.io/keycloak/keycloak:<version>} through
 *       testcontainers-keycloak ({@link KeycloakContainerServer}); needs a Docker engine, and every test
 *       is skipped with a message when there is none.</li>
 * </ul>
 * {@code -Dkeycloak.it.version=…} picks the Keycloak release under test for either backend (default: the
 * one the JAR is compiled against). Tests that need what only a process offers (the server's files,
 * a second node sharing a local database, the peer address 127.0.0.1, a local stub the server calls)
 * say so with {@link ProcessBackendOnly}.
 *
 * <h2>Shared server</h2>
 * {@link #shared()} starts ONE Keycloak per test JVM on first use and keeps it for every IT in that JVM
 * (failsafe runs all ITs in one JVM). Tests isolate themselves with their own realm (unique name, see
 * {@link RealmBuilder#uniqueName(String)}). Extra options for the shared server can be given with the
 * system property {@code keycloak.it.extraOptions} (space separated).
 *
 * <h2>Dedicated servers</h2>
 * A test class that needs other server options (e.g. the store's fault injection) says so with
 * {@link DedicatedServer} on a {@link ServerTest}; {@link #builder(String)} starts one by hand (e.g. two
 * cluster nodes). Implementations are thread-safe.
 */
public interface KeycloakServer extends AutoCloseable {

    /** Bootstrap admin of the master realm. */
    String ADMIN_USERNAME = "admin";
    /** Bootstrap admin password. */
    String ADMIN_PASSWORD = "admin";
    /** Only ever bind to and talk to the loopback address. */
    String HOST = "127.0.0.1";
    /** Keycloak's default console format: {@code 2026-01-01 12:00:00,000 ERROR [category] (thread) message}. */
    Pattern LOG_LINE = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}\\s+(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\s+\\[([^\\]]*)\\]");

    // ------------------------------------------------------------------------------------------
    // Choosing and starting

    /** Where the servers of this run come from ({@code -Dkeycloak.it.backend}). */
    enum Backend {
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

    /**
     * The Keycloak release under test ({@code -Dkeycloak.it.version}, set by the pom; defaults to the one
     * the JAR is compiled against). The process backend unpacks that distribution, the container backend
     * runs that image tag.
     */
    static String version() {
        String v = System.getProperty("keycloak.it.version", "");
        if (v.isBlank()) {
            throw new IllegalStateException("System property keycloak.it.version is not set (run the ITs with `mvn verify`)");
        }
        return v.trim();
    }

    /**
     * The one shared server of this test JVM, started on first call (blocks until ready). Later calls
     * return the same instance. Do not {@link #close()} it: the shutdown hook does.
     */
    static KeycloakServer shared() {
        return SharedServer.get();
    }

    /** A builder for a separate server; {@code name} names it (home directory, log file, container). */
    static Builder builder(String name) {
        return new Builder(name);
    }

    /** Options and environment of a server to start. */
    final class Builder {
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

        /** Adds several kc.sh options. */
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
         * The kc.sh command (default {@code start-dev}); e.g. {@code start} for production mode, which also
         * needs {@code --http-enabled=true --hostname-strict=false} and usually {@code --db=...} options.
         * Only the process backend runs a command other than {@code start-dev}.
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

        /** Starts the server on the selected backend and blocks until it is ready; fails with the log tail otherwise. */
        public KeycloakServer start() {
            refuseInDefaultTier(name);
            return startShared();
        }

        /** {@link #start()} for {@link SharedServer}: the one server every tier has. */
        KeycloakServer startShared() {
            return Backend.selected() == Backend.CONTAINER ? KeycloakContainerServer.start(this) : KeycloakProcess.start(this);
        }

        /**
         * The default tier ({@code -Dkeycloak.it.groups=!extended}, README's test command) runs on the shared server
         * alone, so that it stays within its time; a class starting a server of its own there is missing
         * {@link Extended}, and fails here rather than making the default run slower unnoticed.
         */
        private static void refuseInDefaultTier(String name) {
            String groups = System.getProperty("keycloak.it.groups", "").replace(" ", "");
            if (groups.contains("!" + Extended.TAG)) {
                throw new IllegalStateException("Server '" + name + "' would be a server of its own in the default tier "
                        + "(keycloak.it.groups=" + groups + "): annotate the test class @Extended or @DedicatedServer "
                        + "(CONTRIBUTING.md, \"Test tiers\")");
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Lifecycle

    /** True while the server runs. */
    boolean isAlive();

    /** Stops the server; idempotent. Do not call it on {@link #shared()}. */
    @Override
    void close();

    /** Server name (home directory / log file / container name part). */
    String name();

    /** Time from start to ready. */
    Duration startupTime();

    // ------------------------------------------------------------------------------------------
    // Addresses and clients

    /** {@code http://<host>:<port>} (no trailing slash). */
    String baseUrl();

    /** {@code http://<host>:<management port>}: /health, /health/ready, /metrics. */
    String managementUrl();

    /** Admin REST client logged in as the bootstrap admin of master (one per server, thread-safe). */
    AdminClient admin();

    /** A new simulated browser (own cookie jar) for this server. */
    default BrowserLogin newBrowser() {
        return new BrowserLogin(baseUrl());
    }

    /** The Prometheus text of the management port's {@code /metrics}. */
    String metrics();

    /**
     * Sum of all samples of a metric whose labels include all the given ones (0 if none), e.g.
     * {@code metricValue("abuse_gate_decisions_total", Map.of("realm", r, "outcome", "blocked"))}.
     */
    default double metricValue(String metricName, Map<String, String> labels) {
        return Metrics.sum(metrics(), metricName, labels);
    }

    // ------------------------------------------------------------------------------------------
    // Log (both backends: the process's log file, the container's stdout/stderr)

    /** The whole log so far. */
    String logText();

    /** A position in the log; pass it to {@link #logTextSince(long)} to see what a test produced. */
    long logMark();

    /** The log written after {@code mark} (from {@link #logMark()}). */
    String logTextSince(long mark);

    /** The last {@code n} log lines as one string. */
    String tail(int n);

    /** Log records of {@code level} (e.g. "ERROR") whose category starts with {@code categoryPrefix} ("" = any). */
    default List<String> logLines(String level, String categoryPrefix) {
        return filterLog(logText(), level, categoryPrefix);
    }

    /** ERROR records from our own code ({@code dev.abusegate*}). */
    default List<String> abuseGateErrorLines() {
        return logLines("ERROR", "dev.abusegate");
    }

    /** Distinct free TCP ports on 127.0.0.1 (all probed at once so they differ). */
    static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST));
                s.setReuseAddress(true);
                sockets.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
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

    /** Lines of {@code text} that are log records of {@code level} whose category starts with the prefix. */
    static List<String> filterLog(String text, String level, String categoryPrefix) {
        List<String> out = new ArrayList<>();
        text.lines().forEach(line -> {
            Matcher m = LOG_LINE.matcher(line);
            if (m.find() && m.group(1).equals(level) && m.group(2).startsWith(categoryPrefix)) {
                out.add(line);
            }
        });
        return out;
    }

}
