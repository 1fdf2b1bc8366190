package dev.abusegate.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;

/**
 * Base of the IT classes: the shared Keycloak, or a server of the class's own when the class carries
 * {@link DedicatedServer} (started before its first test, stopped after its last). Realms imported through
 * {@link #importRealm} are deleted after each test, those through {@link #importClassRealm} after the class;
 * the class fails if the server logged an ERROR from the gate while it ran.
 */
public abstract class ServerTest {

    protected static KeycloakServer server;
    protected static AdminClient admin;
    /** The token endpoint of {@link #server}. */
    protected static TokenClient tokens;
    /** Where the server log stood when this class started. */
    protected static long logMark;
    private static boolean dedicated;
    private static final List<String> CLASS_REALMS = new ArrayList<>();
    private final List<String> realms = new ArrayList<>();

    @BeforeAll
    static void startServer(TestInfo test) {
        server = null;
        DedicatedServer own = test.getTestClass().map(c -> c.getAnnotation(DedicatedServer.class)).orElse(null);
        dedicated = own != null;
        server = own == null ? KeycloakServer.shared() : KeycloakServer.builder(own.name())
                .options(List.of(own.options()))
                .startTimeout(Duration.ofSeconds(own.startTimeoutSeconds()))
                .start();
        admin = server.admin();
        tokens = new TokenClient(server.baseUrl());
        logMark = server.logMark();
    }

    @AfterEach
    void deleteRealms() {
        realms.forEach(admin::deleteRealm);
        realms.clear();
    }

    @AfterAll
    static void noErrorsFromTheGate() {
        if (server == null) {
            return;
        }
        try {
            CLASS_REALMS.forEach(admin::deleteRealm);
            CLASS_REALMS.clear();
            assertThat(KeycloakServer.filterLog(server.logTextSince(logMark), "ERROR", "dev.abusegate")).isEmpty();
        } finally {
            if (dedicated) {
                server.close();
            }
        }
    }

    /** Imports a realm that is deleted after the test; returns its name. */
    protected String importRealm(RealmBuilder realm) {
        String name = admin.importRealm(realm);
        realms.add(name);
        return name;
    }

    /** Imports a realm for all tests of the class (from its {@code @BeforeAll}), deleted after them; returns its name. */
    protected static String importClassRealm(RealmBuilder realm) {
        String name = admin.importRealm(realm);
        CLASS_REALMS.add(name);
        return name;
    }

    /** One attempt in a fresh browser (no SSO cookie, a new authentication session). */
    protected static BrowserLogin.LoginResult attempt(String realm, String user, String password, String address) {
        return server.newBrowser().login(realm, user, password, address);
    }

    /** Deletes a realm imported some other way after the test. */
    protected void deleteAfterTest(String realm) {
        realms.add(realm);
    }
}
