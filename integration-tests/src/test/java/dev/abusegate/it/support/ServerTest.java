package dev.abusegate.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;

/** Base of the ITs: the shared Keycloak or, with {@link DedicatedServer}, one of their own; realms deleted after use. */
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
        server = own == null ? KeycloakServer.shared() : KeycloakServer.builder(own.name()).options(List.of(own.options()))
                .startTimeout(Duration.ofSeconds(own.startTimeoutSeconds())).start();
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

    protected void deleteAfterTest(String realm) {
        realms.add(realm);
    }
}
