package dev.abusegate.it.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** A throw-away PostgreSQL 17 on 127.0.0.1 for Keycloak nodes sharing a database; {@link #close()} deletes it. */
public final class PostgresServer implements AutoCloseable {

    public static final String DATABASE = "keycloak";
    public static final String USERNAME = "keycloak";

    private final EmbeddedPostgres postgres;
    private final Path dir;
    private final String password;
    private volatile boolean stopped;

    private PostgresServer(EmbeddedPostgres postgres, Path dir, String password) {
        this.postgres = postgres;
        this.dir = dir;
        this.password = password;
    }

    /** Initialises and starts a new server; blocks until it accepts connections and the database exists. */
    public static PostgresServer start() {
        String password = UUID.randomUUID().toString().replace("-", "");
        Path dir;
        try {
            dir = Files.createTempDirectory(Files.createDirectories(KeycloakServer.workDir()), "postgres-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the PostgreSQL directory", e);
        }
        EmbeddedPostgres postgres;
        try {
            postgres = EmbeddedPostgres.builder().setOverrideWorkingDirectory(dir.resolve("binaries").toFile())
                    .setDataDirectory(dir.resolve("data")).setCleanDataDirectory(true).setPort(KeycloakServer.freePorts(1)[0])
                    .setServerConfig("listen_addresses", KeycloakServer.HOST).setServerConfig("max_connections", "200")
                    .setServerConfig("fsync", "off").setPGStartupWait(Duration.ofSeconds(120)).setRegisterShutdownHook(true).start();
        } catch (IOException | RuntimeException e) {
            KeycloakProcess.deleteQuietly(dir);
            throw new IllegalStateException("PostgreSQL did not start: " + e.getMessage(), e);
        }
        PostgresServer server = new PostgresServer(postgres, dir, password);
        // .ci/stop-recorded-servers stops the postmaster should this JVM die without its shutdown hooks
        KeycloakServer.recordProcess(server.recordName(), dir.resolve("data").toString(), List.of(postmasterPid(dir)));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-it-shutdown"));
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + USERNAME + " LOGIN PASSWORD '" + password + "'");
            s.execute("CREATE DATABASE " + DATABASE + " OWNER " + USERNAME);
        } catch (SQLException e) {
            server.close();
            throw new IllegalStateException("Cannot create the database " + DATABASE + ": " + e.getMessage(), e);
        }
        System.out.println("[postgres-it] PostgreSQL on " + KeycloakServer.HOST + ":" + postgres.getPort() + " in " + dir);
        return server;
    }

    public List<String> keycloakOptions() {
        return List.of("--db=postgres", "--db-url=jdbc:postgresql://" + KeycloakServer.HOST + ":" + postgres.getPort() + "/" + DATABASE,
                "--db-username=" + USERNAME, "--db-password=" + password);
    }

    /** Stops the server (fast shutdown) and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            System.out.println("[postgres-it] stopping PostgreSQL failed: " + e);
        }
        KeycloakProcess.deleteQuietly(dir);
        KeycloakServer.forget("process-" + recordName() + ".pid");
        System.out.println("[postgres-it] PostgreSQL on port " + postgres.getPort() + " stopped, " + dir + " deleted");
    }

    private String recordName() {
        return "postgres-" + postgres.getPort();
    }

    /** The postmaster's PID: the first line of {@code postmaster.pid} in the data directory. */
    private static long postmasterPid(Path dir) {
        try {
            return Long.parseLong(Files.readAllLines(dir.resolve("data").resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("Cannot read the postmaster's PID in " + dir, e);
        }
    }
}
