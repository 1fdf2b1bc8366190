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
 * What the harness started, written down so that something outside the test JVM can stop exactly that
 * and nothing else: one file per running server in {@code <keycloak.it.workDir>/running/}, deleted when
 * the server is stopped. {@code .ci/stop-recorded-servers} reads these files (instead of killing processes
 * by name, which would hit other people's servers on a shared machine).
 * <ul>
 *   <li>{@code process-<name>.pid}: line 1 a marker that every process of the server has on its command
 *       line (the server's home directory), then one PID per line (the launcher, kc.sh, java).</li>
 *   <li>{@code container-<name>.id}: the Docker container id.</li>
 * </ul>
 * Recording is best effort: a failure to write is reported on the console, never fails a test.
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
