package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The process backend of {@link KeycloakServer} (the default): the distribution ({@code -Dkeycloak.dist}) started with
 * {@code bin/kc.sh}, in a home of its own ({@code <keycloak.it.workDir>/keycloak-servers/<name>}, a copy with the
 * read-only {@code lib/lib} linked), on free ports of 127.0.0.1, logging to {@code keycloak-<name>.log}. Stopped as a
 * whole process tree; a watchdog in the launcher stops it too if the test JVM vanishes without its shutdown hooks.
 */
public final class KeycloakProcess extends KeycloakServer {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final int TAIL_LINES = 100;

    /**
     * Runs kc.sh in the background and stops it (SIGTERM, which kc.sh forwards to its java child) when
     * either this wrapper receives SIGTERM/SIGINT or the watched test JVM (argument 1) is gone.
     */
    private static final String LAUNCHER = String.join("\n",
            "watched=\"$1\"; shift",
            "\"$@\" &",
            "kc=$!",
            "trap 'kill -TERM \"$kc\" 2>/dev/null; wait \"$kc\"; exit $?' TERM INT",
            "( while kill -0 \"$watched\" 2>/dev/null && kill -0 \"$kc\" 2>/dev/null; do sleep 2; done;",
            "  kill -TERM \"$kc\" 2>/dev/null ) </dev/null >/dev/null 2>&1 &",
            "wait \"$kc\"",
            "exit $?");

    /** Home of the first server that became ready: its Quarkus build output can seed later homes. */
    private static Path augmentedHome;

    private final Path home;
    private final Path logFile;
    private final int httpPort;
    private final int managementPort;
    private final Process process;

    private KeycloakProcess(String name, Path home, Path logFile, int httpPort, int managementPort,
                           Process process) {
        super(name);
        this.home = home;
        this.logFile = logFile;
        this.httpPort = httpPort;
        this.managementPort = managementPort;
        this.process = process;
    }

    // ------------------------------------------------------------------------------------------
    // Starting

    /** Starts a server as a process (see {@link KeycloakServer.Builder#start()}) and blocks until it is ready. */
    static KeycloakProcess start(KeycloakServer.Builder b) {
        Path dist = distribution();
        Path workDir = Paths.get(System.getProperty("keycloak.it.workDir", dist.getParent().toString())).toAbsolutePath();
        Path home = workDir.resolve("keycloak-servers").resolve(b.name);
        Path logFile = workDir.resolve("keycloak-" + b.name + ".log");
        requireUnusedName(b.name);
        try {
            prepareHome(dist, home);
            try {
                reuseAugmentation(home);
            } catch (IOException e) {
                log("not reusing the Quarkus build output (" + e + "); Keycloak will rebuild");
            }
            Files.deleteIfExists(logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare Keycloak home " + home, e);
        }

        int[] ports = KeycloakServer.freePorts(2);
        List<String> options = new ArrayList<>(List.of(
                b.command,
                "--http-host=" + HOST,
                "--http-port=" + ports[0],
                "--http-management-port=" + ports[1],
                "--proxy-headers=xforwarded",
                "--metrics-enabled=true",
                "--health-enabled=true",
                "--log-level=INFO,dev.abusegate:debug",
                "--log-console-color=false"));
        options.addAll(b.extraOptions);

        List<String> command = new ArrayList<>(List.of("/bin/bash", "-c", LAUNCHER, "keycloak-" + b.name,
                Long.toString(ProcessHandle.current().pid()), home.resolve("bin/kc.sh").toString()));
        command.addAll(options);

        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("KC_") || k.startsWith("KEYCLOAK_") || k.startsWith("QUARKUS_")
                || k.equals("JAVA_OPTS") || k.equals("JAVA_OPTS_APPEND"));
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN_USERNAME);
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        env.putAll(b.env);

        long t0 = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
        KeycloakProcess server = new KeycloakProcess(b.name, home, logFile, ports[0], ports[1], process);
        server.register();
        server.recordPids();
        log("starting Keycloak '" + b.name + "' (http " + ports[0] + ", management " + ports[1] + "), log " + logFile);
        try {
            server.awaitReady(b.startTimeout);
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        server.recordPids(); // now with kc.sh's java child
        synchronized (KeycloakProcess.class) {
            if (augmentedHome == null) {
                augmentedHome = home;
            }
        }
        server.ready(Duration.ofNanos(System.nanoTime() - t0));
        return server;
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI ready = URI.create(managementUrl() + "/health/ready");
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak '" + name() + "' exited with code " + process.exitValue()
                        + " before it was ready. Last " + TAIL_LINES + " log lines (" + logFile + "):\n" + tail(TAIL_LINES));
            }
            try {
                HttpResponse<String> r = Http.send(http, HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(5)).build());
                if (r.statusCode() == 200) {
                    return;
                }
                last = "HTTP " + r.statusCode() + " " + r.body();
            } catch (IllegalStateException e) {
                last = e.getMessage();
            }
            GateIt.sleep(1000);
        }
        throw new IllegalStateException("Keycloak '" + name() + "' not ready within " + timeout.toSeconds() + " s (" + last
                + "). Last " + TAIL_LINES + " log lines (" + logFile + "):\n" + tail(TAIL_LINES));
    }

    static Path distribution() {
        String prop = System.getProperty("keycloak.dist");
        if (prop == null || prop.isBlank()) {
            throw new IllegalStateException("System property keycloak.dist is not set (run the ITs with `mvn verify`, "
                    + "which unpacks the distribution into integration-tests/target)");
        }
        Path dist = Paths.get(prop).toAbsolutePath();
        if (!Files.isRegularFile(dist.resolve("bin/kc.sh"))) {
            throw new IllegalStateException("No Keycloak distribution at " + dist + " (bin/kc.sh missing)");
        }
        return dist;
    }

    /**
     * Fresh home per start: a copy of the distribution except {@code lib/lib} (170 MB of read-only jars),
     * which is a symbolic link. {@code bin/} must be a real copy: kc.sh finds the home from its own path.
     */
    private static void prepareHome(Path dist, Path home) throws IOException {
        deleteTree(home);
        Files.createDirectories(home);
        Path sharedLibs = dist.resolve("lib/lib");
        Files.walkFileTree(dist, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path rel = dist.relativize(dir);
                if (dir.equals(sharedLibs)) {
                    Files.createSymbolicLink(home.resolve(rel), sharedLibs);
                    return FileVisitResult.SKIP_SUBTREE;
                }
                if (rel.toString().equals("data")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(home.resolve(rel));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, home.resolve(dist.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Seeds {@code lib/quarkus} (the Quarkus build output of start-dev) from an earlier server of this JVM.
     * Keycloak compares the persisted build options and provider files with the current ones and
     * re-augments when they differ, so this only skips a build (~30 s) that would produce the same result.
     */
    private static void reuseAugmentation(Path home) throws IOException {
        Path source;
        synchronized (KeycloakProcess.class) {
            source = augmentedHome;
        }
        if (source == null || source.equals(home) || !Files.isDirectory(source.resolve("lib/quarkus"))) {
            return;
        }
        try (Stream<Path> files = Files.list(source.resolve("lib/quarkus"))) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f)) {
                    Files.copy(f, home.resolve("lib/quarkus").resolve(f.getFileName()),
                            StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** Deletes a directory tree: symbolic links themselves, never their targets (walk follows none). No error if absent. */
    static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** {@link #deleteTree}, saying on the console what it could not delete instead of failing. */
    static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException e) {
            log("cannot delete " + dir + ": " + e);
        }
    }

    /**
     * Writes this server's process tree to {@link RunningServers}; the marker is the home directory, which
     * the launcher's, kc.sh's and java's command lines contain (and no other server's).
     */
    private void recordPids() {
        List<Long> pids = new ArrayList<>();
        pids.add(process.pid());
        process.descendants().forEach(h -> pids.add(h.pid()));
        RunningServers.recordProcess(name(), home + "/", pids);
    }

    // ------------------------------------------------------------------------------------------
    // Stopping

    /**
     * Stops the whole process tree: SIGTERM to the launcher (forwarded through kc.sh to Keycloak), SIGTERM to every
     * remaining descendant after half the grace period, SIGKILL after it.
     */
    @Override
    protected void stop() {
        Set<ProcessHandle> tree = new HashSet<>();
        tree.add(process.toHandle());
        process.descendants().forEach(tree::add);
        process.destroy();
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        boolean termSent = false;
        while (System.nanoTime() < deadline && tree.stream().anyMatch(ProcessHandle::isAlive)) {
            process.descendants().forEach(tree::add);
            if (!termSent && System.nanoTime() > deadline - STOP_GRACE.toNanos() / 2) {
                tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
                termSent = true;
            }
            GateIt.sleep(200);
        }
        for (ProcessHandle h : tree) {
            if (h.isAlive()) {
                log("killing leftover process " + h.pid() + " of Keycloak '" + name() + "'");
                h.destroyForcibly();
            }
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (tree.stream().noneMatch(ProcessHandle::isAlive)) {
            RunningServers.forgetProcess(name()); // else the record stays for .ci/stop-recorded-servers
        }
    }

    @Override
    protected boolean running() {
        return process.isAlive();
    }

    // ------------------------------------------------------------------------------------------
    // Addresses and clients

    /** {@code http://127.0.0.1:<port>} (no trailing slash). */
    @Override
    public String baseUrl() {
        return "http://" + HOST + ":" + httpPort;
    }

    /** {@code http://127.0.0.1:<management port>}: /health, /health/ready, /metrics. */
    @Override
    public String managementUrl() {
        return "http://" + HOST + ":" + managementPort;
    }

    // ------------------------------------------------------------------------------------------
    // Log

    /** The log file so far (empty before the process wrote it). */
    @Override
    public String logText() {
        try {
            return Files.exists(logFile) ? new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
