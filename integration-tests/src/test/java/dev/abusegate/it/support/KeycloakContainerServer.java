package dev.abusegate.it.support;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Ports;
import dasniko.testcontainers.keycloak.KeycloakContainer;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/**
 * The container backend of {@link KeycloakServer} ({@code -Dkeycloak.it.backend=container}): the official
 * image {@code quay.io/keycloak/keycloak:<keycloak.it.version>} (or {@code -Dkeycloak.it.image=…}) through
 * testcontainers-keycloak, with the JAR the reactor built (every {@code *.jar} in the unpacked
 * distribution's {@code providers/}, where the pom copies it) deployed as a provider library.
 *
 * <p>The server is configured as the process backend's is (start-dev, {@code --proxy-headers=xforwarded},
 * metrics and health, {@code dev.abusegate} at debug, no console colours) through {@code KC_*} variables;
 * a builder's extra options are appended to start-dev. Without a Docker engine, starting one aborts the
 * calling test or class (JUnit assumption: reported as skipped, never as failed).
 *
 * <p>Ports are published on 127.0.0.1 only. Containers carry the label {@value #LABEL}, are recorded in
 * {@link RunningServers} and are removed by {@link #close()} or, for those still running, by a JVM shutdown
 * hook (Ryuk, testcontainers' own reaper, may be disabled where its image cannot be pulled).
 * {@code -Dkeycloak.it.pullImage=false} (CI) never pulls: the image must already be on the engine.
 */
final class KeycloakContainerServer extends KeycloakServerBase {

    /** Every container the harness starts carries this label (docker ps --filter label=dev.abusegate.it). */
    static final String LABEL = "dev.abusegate.it";

    private final KeycloakContainer container;

    private KeycloakContainerServer(String name, KeycloakContainer container) {
        super(name);
        this.container = container;
    }

    /** Starts the container and blocks until Keycloak is ready; skips the caller when there is no Docker engine. */
    static KeycloakServer start(KeycloakServer.Builder b) {
        if (!BackendCondition.dockerAvailable()) {
            throw new TestAbortedException("Skipped: -Dkeycloak.it.backend=container needs a Docker engine and "
                    + "testcontainers found none (run without the property to use the Keycloak distribution as a process)");
        }
        if (!"start-dev".equals(b.command)) {
            throw new TestAbortedException("Skipped on the container backend: kc.sh command '" + b.command
                    + "' is only supported by the process backend");
        }
        requireUnusedName(b.name);
        String image = System.getProperty("keycloak.it.image", "");
        if (image.isBlank()) {
            image = "quay.io/keycloak/keycloak:" + KeycloakServer.version();
        }
        List<File> jars = providerJars().stream().map(Path::toFile).toList();
        KeycloakContainer c = new KeycloakContainer(image)
                .withAdminUsername(ADMIN_USERNAME)
                .withAdminPassword(ADMIN_PASSWORD)
                .withProviderLibsFrom(jars)
                .withEnabledMetrics()
                .withEnv("KC_PROXY_HEADERS", "xforwarded")
                .withEnv("KC_LOG_LEVEL", "INFO,dev.abusegate:debug")
                .withEnv("KC_LOG_CONSOLE_COLOR", "false")
                .withLabel(LABEL, "true")
                .withCreateContainerCmdModifier(KeycloakContainerServer::publishOnLoopbackOnly)
                // a name that says whose it is: abusegate-it-<server>-<test JVM pid>
                .withCreateContainerCmdModifier(cmd -> cmd.withName("abusegate-it-" + b.name + "-" + ProcessHandle.current().pid()))
                .withStartupTimeout(b.startTimeout);
        if (!Boolean.parseBoolean(System.getProperty("keycloak.it.pullImage", "true"))) {
            // CI: the image must already be on the engine (no registry); fail instead of trying a pull
            c.withImagePullPolicy(imageName -> false);
        }
        b.env.forEach(c::withEnv);
        List<String> options = new ArrayList<>(b.extraOptions);
        if (!options.isEmpty()) {
            c.withCustomCommand(String.join(" ", options));
        }
        log("starting Keycloak '" + b.name + "' from image " + image + " with " + jars);
        // the container's output, also kept in a file: testcontainers removes a container that failed to start
        Path logFile = RunningServers.dir().getParent().resolve("keycloak-" + b.name + ".log");
        try {
            Files.deleteIfExists(logFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        c.withLogConsumer(frame -> appendQuietly(logFile, frame.getUtf8String()));
        long t0 = System.nanoTime();
        try {
            c.start();
            RunningServers.recordContainer(b.name, c.getContainerId());
        } catch (RuntimeException e) {
            c.stop();
            List<String> lines = List.of();
            try {
                lines = Files.readAllLines(logFile);
            } catch (IOException ignored) {
                // nothing was written
            }
            throw new IllegalStateException("Keycloak container '" + b.name + "' did not start. The last lines of its log ("
                    + logFile + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())), e);
        }
        KeycloakContainerServer server = new KeycloakContainerServer(b.name, c);
        server.register();
        server.ready(Duration.ofNanos(System.nanoTime() - t0));
        return server;
    }

    /**
     * Publishes the exposed ports on 127.0.0.1 (random host ports) instead of on every interface, which is
     * what testcontainers' publish-all does. Test traffic stays on this machine's loopback.
     */
    private static void publishOnLoopbackOnly(CreateContainerCmd cmd) {
        Ports ports = new Ports();
        for (ExposedPort p : cmd.getExposedPorts()) {
            ports.bind(p, Ports.Binding.bindIp(HOST));
        }
        HostConfig hostConfig = cmd.getHostConfig() != null ? cmd.getHostConfig() : new HostConfig();
        cmd.withHostConfig(hostConfig.withPublishAllPorts(false).withPortBindings(ports));
    }

    private static void appendQuietly(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // diagnostics only
        }
    }

    /** The JAR(s) the pom copied into the unpacked distribution's providers/ (the same ones the process backend runs). */
    private static List<Path> providerJars() {
        String dist = System.getProperty("keycloak.dist", "");
        if (dist.isBlank()) {
            throw new IllegalStateException("System property keycloak.dist is not set (run the ITs with `mvn verify`)");
        }
        Path dir = Paths.get(dist, "providers");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jars = files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList();
            if (jars.isEmpty()) {
                throw new IllegalStateException("No provider JAR in " + dir);
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }

    @Override
    protected boolean running() {
        return container.isRunning();
    }

    /** Stops and removes the container: without Ryuk (disabled where its image cannot be pulled) nothing else does. */
    @Override
    protected void stop() {
        container.stop();
        RunningServers.forgetContainer(name());
    }

    @Override
    public String baseUrl() {
        return stripSlash(container.getAuthServerUrl());
    }

    @Override
    public String managementUrl() {
        return stripSlash(container.getMgmtServerUrl());
    }

    @Override
    public String logText() {
        return container.getLogs();
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
