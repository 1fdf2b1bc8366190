package dev.abusegate.it.support;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Ports;
import dasniko.testcontainers.keycloak.KeycloakContainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/** The container backend: the Keycloak image through testcontainers-keycloak, ports on 127.0.0.1 only. */
final class KeycloakContainerServer extends KeycloakServer {

    /** Every container the harness starts carries this label (docker ps --filter label=dev.abusegate.it). */
    static final String LABEL = "dev.abusegate.it";

    private final KeycloakContainer container;

    private KeycloakContainerServer(String name, KeycloakContainer container) {
        super(name);
        this.container = container;
    }

    /** The container, configured and not started; skips the caller when there is no Docker engine. */
    static KeycloakServer prepare(KeycloakServer.Builder b) {
        if (!ProcessBackendOnly.Condition.dockerAvailable()) {
            throw new TestAbortedException("Skipped: -Dkeycloak.it.backend=container needs a Docker engine and "
                    + "testcontainers found none (run without the property to use the Keycloak distribution as a process)");
        }
        if (!"start-dev".equals(b.command)) {
            throw new TestAbortedException("Skipped on the container backend: kc.sh command '" + b.command
                    + "' is only supported by the process backend");
        }
        String image = System.getProperty("keycloak.it.image", "");
        if (image.isBlank()) {
            image = "quay.io/keycloak/keycloak:" + KeycloakServer.version();
        }
        KeycloakContainer c = new KeycloakContainer(image).withAdminUsername(ADMIN_USERNAME).withAdminPassword(ADMIN_PASSWORD)
                .withProviderLibsFrom(providerJars()).withEnabledMetrics().withEnv("KC_PROXY_HEADERS", "xforwarded")
                .withEnv("KC_LOG_LEVEL", "INFO,dev.abusegate:debug").withEnv("KC_LOG_CONSOLE_COLOR", "false").withLabel(LABEL, "true")
                .withCreateContainerCmdModifier(KeycloakContainerServer::publishOnLoopbackOnly)
                // a name that says whose it is: abusegate-it-<server>-<test JVM pid>
                .withCreateContainerCmdModifier(cmd -> cmd.withName("abusegate-it-" + b.name + "-" + ProcessHandle.current().pid()))
                .withStartupTimeout(b.startTimeout);
        if (!Boolean.parseBoolean(System.getProperty("keycloak.it.pullImage", "true"))) {
            // CI: the image must already be on the engine (no registry); fail instead of trying a pull
            c.withImagePullPolicy(imageName -> false);
        }
        b.env.forEach(c::withEnv);
        if (!b.extraOptions.isEmpty()) {
            c.withCustomCommand(String.join(" ", b.extraOptions));
        }
        log("starting Keycloak '" + b.name + "' from image " + image);
        return new KeycloakContainerServer(b.name, c);
    }

    /** Starts the container (testcontainers waits until Keycloak is ready), its output also kept in the log file. */
    @Override
    void startAndAwaitReady(KeycloakServer.Builder b) {
        // testcontainers removes a container that failed to start: the file keeps what it said
        container.withLogConsumer(frame -> run(() -> Files.writeString(logFile, frame.getUtf8String(),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND), "copying the container's log"));
        container.start();
        record("container-" + name() + ".id", container.getContainerId() + "\n");
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

    /** The JAR(s) the pom copied into the unpacked distribution's providers/ (the same ones the process backend runs). */
    private static List<java.io.File> providerJars() {
        Path dir = KeycloakProcess.distribution().resolve("providers");
        try (Stream<Path> files = Files.list(dir)) {
            List<java.io.File> jars = files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().map(Path::toFile).toList();
            if (jars.isEmpty()) {
                throw new IllegalStateException("No provider JAR in " + dir);
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }

    @Override
    boolean running() {
        return container.isRunning();
    }

    /** Stops and removes the container: without Ryuk (disabled where its image cannot be pulled) nothing else does. */
    @Override
    void stop() {
        container.stop();
        forget("container-" + name() + ".id");
    }

    @Override
    public String baseUrl() {
        return container.getAuthServerUrl().replaceAll("/$", "");
    }

    @Override
    public String managementUrl() {
        return container.getMgmtServerUrl().replaceAll("/$", "");
    }

    /** The container's output while it runs; after, what the log file kept of it. */
    @Override
    public String logText() {
        return container.isRunning() ? container.getLogs() : super.logText();
    }
}
