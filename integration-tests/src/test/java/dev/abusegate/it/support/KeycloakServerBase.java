package dev.abusegate.it.support;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What both backends share: the name, the start-up time, the lifecycle (one name per running server, a JVM shutdown
 * hook that stops what {@link #close()} did not, an idempotent close that also closes the admin client), the admin
 * client, the metrics fetch, and the log views built on the backend's {@link #logText()}. A backend says how to start
 * (its own {@code start}), whether it still runs, how to stop, where it listens and what it logged.
 */
abstract class KeycloakServerBase implements KeycloakServer {

    /** Started and not yet closed: the shutdown hook closes these (Ryuk, testcontainers' reaper, may be disabled). */
    private static final List<KeycloakServerBase> RUNNING = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(KeycloakServerBase::close), "keycloak-it-shutdown"));
    }

    /** For the server's own endpoints (readiness, metrics); never follows a redirect. */
    protected final HttpClient http = Http.client();
    private final String name;
    /** Its own lock (close() holds this server's monitor while it stops): the admin client is created on first use, from any thread. */
    private final Object adminLock = new Object();
    private AdminClient admin;
    private volatile Duration startupTime;
    private volatile boolean stopped;

    KeycloakServerBase(String name) {
        this.name = name;
    }

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

    @Override
    public final boolean isAlive() {
        return !stopped && running();
    }

    /**
     * Stops the server and closes its admin client. Idempotent: a second caller (the shutdown hook while a test closes
     * it) waits until the first has stopped it, so the JVM never halts halfway through a stop. Do not call it on
     * {@link #shared()}.
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

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Duration startupTime() {
        return startupTime;
    }

    /** Admin REST client logged in as the bootstrap admin of master (one per server, thread-safe). */
    @Override
    public AdminClient admin() {
        synchronized (adminLock) {
            if (admin == null) {
                admin = new AdminClient(baseUrl(), ADMIN_USERNAME, ADMIN_PASSWORD);
            }
            return admin;
        }
    }

    /** The Prometheus text of the management port's {@code /metrics}. */
    @Override
    public String metrics() {
        return Metrics.fetch(http, managementUrl() + "/metrics");
    }

    /** A position in the log: its length in characters so far. */
    @Override
    public long logMark() {
        return logText().length();
    }

    @Override
    public String logTextSince(long mark) {
        String log = logText();
        return mark >= log.length() ? "" : log.substring((int) mark);
    }

    /** The last {@code n} log lines; for failure messages, so a log that cannot be read says so instead of throwing. */
    @Override
    public String tail(int n) {
        try {
            List<String> lines = logText().lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (RuntimeException e) {
            return "<cannot read log: " + e + ">";
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
