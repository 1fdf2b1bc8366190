package dev.abusegate.keycloak.store;

import dev.abusegate.keycloak.GateRuntime;
import org.keycloak.provider.Provider;

/** Gives each request the server's one runtime: the gate on the server's one counter store, and all else long-lived. */
public interface GateStoreProvider extends Provider {

    /** The gate, the realms' keys and settings, the captcha budgets and the warning limits, built once with the store. */
    GateRuntime runtime();

    @Override
    default void close() {
    }
}
