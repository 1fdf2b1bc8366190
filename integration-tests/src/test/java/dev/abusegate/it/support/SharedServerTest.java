package dev.abusegate.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the test classes that use the shared Keycloak: realms imported through {@link #importRealm}
 * are deleted after each test, and the class fails if the server logged an ERROR from the gate while
 * it ran.
 */
public abstract class SharedServerTest {

    protected static KeycloakServer server;
    protected static AdminClient admin;
    /** Where the server log stood when this class started. */
    protected static long logMark;
    private final List<String> realms = new ArrayList<>();

    @BeforeAll
    static void sharedServer() {
        server = KeycloakServer.shared();
        admin = server.admin();
        logMark = server.logMark();
    }

    @AfterEach
    void deleteRealms() {
        realms.forEach(admin::deleteRealm);
        realms.clear();
    }

    @AfterAll
    static void noErrorsFromTheGate() {
        if (server != null) {
            assertThat(GateIt.abuseGateErrorsSince(server, logMark)).isEmpty();
        }
    }

    /** Imports a realm that is deleted after the test; returns its name. */
    protected String importRealm(RealmBuilder realm) {
        String name = admin.importRealm(realm);
        realms.add(name);
        return name;
    }

    /** Deletes a realm imported some other way after the test. */
    protected void deleteAfterTest(String realm) {
        realms.add(realm);
    }
}
