package dev.abusegate.it.support;

import java.util.Arrays;
import java.util.List;
import org.opentest4j.TestAbortedException;

/** Holds the one shared server of the test JVM ({@link KeycloakServer#shared()}). */
final class SharedServer {

    private static volatile KeycloakServer shared;
    private static Throwable failure;

    private SharedServer() {
    }

    static KeycloakServer get() {
        KeycloakServer s = shared;
        if (s != null) {
            return s;
        }
        synchronized (SharedServer.class) {
            if (failure instanceof TestAbortedException skipped) {
                // e.g. no Docker engine for the container backend: every later class is skipped the same way
                throw new TestAbortedException(skipped.getMessage());
            }
            if (failure != null) {
                // fail every later IT at once instead of trying (and waiting) again
                throw new IllegalStateException("The shared Keycloak failed to start earlier in this JVM", failure);
            }
            if (shared == null) {
                String extra = System.getProperty("keycloak.it.extraOptions", "").trim();
                try {
                    shared = KeycloakServer.builder("shared")
                            .options(extra.isEmpty() ? List.of() : Arrays.asList(extra.split("\\s+")))
                            .startShared();
                } catch (RuntimeException | Error e) {
                    failure = e;
                    throw e;
                }
            }
            return shared;
        }
    }
}
