package dev.abusegate.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What the harness started, one file per running server in {@code <keycloak.it.workDir>/running/}, so that
 * {@code .ci/stop-recorded-servers} stops exactly that and nothing else: {@code process-<name>.pid} (a marker on every
 * process's command line, then one PID a line) or {@code container-<name>.id}. Best effort: a failure to write is
 * reported on the console, never fails a test.
 */
final class RunningServers {

    private RunningServers() {
    }

    /** Records (or updates) a process server: the marker on every process's command line, and its PIDs. */
    static void recordProcess(String name, String marker, List<Long> pids) {
        List<String> lines = new ArrayList<>();
        lines.add(marker);
        pids.forEach(p -> lines.add(Long.toString(p)));
        write("process-" + name + ".pid", String.join("\n", lines) + "\n");
    }

    /** Records a container server by its container id. */
    static void recordContainer(String name, String containerId) {
        write("container-" + name + ".id", containerId + "\n");
    }

    static void forgetProcess(String name) {
        delete("process-" + name + ".pid");
    }

    static void forgetContainer(String name) {
        delete("container-" + name + ".id");
    }

    /** {@code <keycloak.it.workDir>/running} (the pom sets keycloak.it.workDir to integration-tests/target). */
    static Path dir() {
        return Paths.get(System.getProperty("keycloak.it.workDir", "target"), "running").toAbsolutePath();
    }

    private static void write(String file, String content) {
        try {
            Files.createDirectories(dir());
            Path tmp = dir().resolve(file + ".tmp");
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, dir().resolve(file), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.out.println("[keycloak-it] cannot record " + file + " in " + dir() + ": " + e);
        }
    }

    private static void delete(String file) {
        try {
            Files.deleteIfExists(dir().resolve(file));
        } catch (IOException e) {
            System.out.println("[keycloak-it] cannot delete " + dir().resolve(file) + ": " + e);
        }
    }
}
