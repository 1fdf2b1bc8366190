package dev.abusegate.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The process backend (the default): {@code bin/kc.sh} in a home of its own, stopped as a process tree. */
public final class KeycloakProcess extends KeycloakServer {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    /** Runs kc.sh and stops it (SIGTERM, forwarded to java) on SIGTERM/SIGINT or when the test JVM (argument 1) is gone. */
    private static final String LAUNCHER = String.join("\n", "watched=\"$1\"; shift", "\"$@\" &", "kc=$!",
            "trap 'kill -TERM \"$kc\" 2>/dev/null; wait \"$kc\"; exit $?' TERM INT",
            "( while kill -0 \"$watched\" 2>/dev/null && kill -0 \"$kc\" 2>/dev/null; do sleep 2; done;",
            "  kill -TERM \"$kc\" 2>/dev/null ) </dev/null >/dev/null 2>&1 &", "wait \"$kc\"", "exit $?");

    /** Home of the first server that became ready: its Quarkus build output seeds later homes. */
    private static Path augmentedHome;

    private final Path home;
    private final int httpPort;
    private final int managementPort;
    private volatile Process process;

    private KeycloakProcess(String name, Path home, int[] ports) {
        super(name);
        this.home = home;
        this.httpPort = ports[0];
        this.managementPort = ports[1];
    }

    /** A server with a fresh home and two free ports, not started yet. */
    static KeycloakProcess prepare(KeycloakServer.Builder b) {
        Path home = workDir().resolve("keycloak-servers").resolve(b.name);
        try {
            prepareHome(distribution(), home);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare Keycloak home " + home, e);
        }
        return new KeycloakProcess(b.name, home, freePorts(2));
    }

    @Override
    void startAndAwaitReady(KeycloakServer.Builder b) {
        List<String> command = new ArrayList<>(List.of("/bin/bash", "-c", LAUNCHER, "keycloak-" + b.name,
                Long.toString(ProcessHandle.current().pid()), home.resolve("bin/kc.sh").toString(), b.command,
                "--http-host=" + HOST, "--http-port=" + httpPort, "--http-management-port=" + managementPort,
                "--proxy-headers=xforwarded", "--metrics-enabled=true", "--health-enabled=true",
                "--log-level=INFO,dev.abusegate:debug", "--log-console-color=false"));
        command.addAll(b.extraOptions);
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
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
        recordPids();
        log("starting Keycloak '" + b.name + "' (http " + httpPort + ", management " + managementPort + "), log " + logFile);
        awaitReady(b.startTimeout);
        recordPids(); // now with kc.sh's java child
        synchronized (KeycloakProcess.class) {
            if (augmentedHome == null) {
                augmentedHome = home;
            }
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI ready = URI.create(managementUrl() + "/health/ready");
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("exited with code " + process.exitValue() + " before it was ready");
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
        throw new IllegalStateException("not ready within " + timeout.toSeconds() + " s: " + last);
    }

    static Path distribution() {
        Path dist = Paths.get(requiredProperty("keycloak.dist", "run the ITs with `mvn verify`, which unpacks the distribution "
                + "into integration-tests/target")).toAbsolutePath();
        if (!Files.isRegularFile(dist.resolve("bin/kc.sh"))) {
            throw new IllegalStateException("No Keycloak distribution at " + dist + " (bin/kc.sh missing)");
        }
        return dist;
    }

    /**
     * A copy of the distribution ({@code bin/} too: kc.sh finds the home from its path) with {@code lib/lib} (170 MB of jars)
     * linked and no {@code data/}, then the Quarkus build of the first ready server: Keycloak builds again if options or
     * providers differ, so this only skips a build (~30 s) with the same result.
     */
    private static void prepareHome(Path dist, Path home) throws IOException {
        deleteTree(home);
        copyTree(dist, home);
        Path augmented;
        synchronized (KeycloakProcess.class) {
            augmented = augmentedHome;
        }
        if (augmented != null && !augmented.equals(home)) {
            run(() -> copyTree(augmented.resolve("lib/quarkus"), home.resolve("lib/quarkus")),
                    "not reusing the Quarkus build output; Keycloak will build it");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Path sharedLibs = Path.of("lib/lib");
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path rel = from.relativize(p);
                if (rel.equals(sharedLibs)) {
                    Files.createSymbolicLink(to.resolve(rel.toString()), p);
                } else if (rel.startsWith("data") || rel.startsWith(sharedLibs)) {
                    continue;
                } else if (Files.isDirectory(p)) {
                    Files.createDirectories(to.resolve(rel.toString()));
                } else {
                    Files.copy(p, to.resolve(rel.toString()), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
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
        run(() -> deleteTree(dir), "cannot delete " + dir);
    }

    /** Records the process tree; the marker is the home, on the launcher's, kc.sh's and java's command lines alone. */
    private void recordPids() {
        List<Long> pids = new ArrayList<>();
        pids.add(process.pid());
        process.descendants().forEach(h -> pids.add(h.pid()));
        recordProcess(name(), home + "/", pids);
    }

    // Stopping

    /**
     * Stops the whole process tree: SIGTERM to the launcher (forwarded through kc.sh to Keycloak), SIGTERM to every
     * remaining descendant after half the grace period, SIGKILL after it.
     */
    @Override
    void stop() {
        if (process == null) {
            return;
        }
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
            forget("process-" + name() + ".pid"); // else the record stays for .ci/stop-recorded-servers
        }
    }

    @Override
    boolean running() {
        return process != null && process.isAlive();
    }

    @Override
    public String baseUrl() {
        return "http://" + HOST + ":" + httpPort;
    }

    @Override
    public String managementUrl() {
        return "http://" + HOST + ":" + managementPort;
    }
}
