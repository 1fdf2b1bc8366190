package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.keycloak.GateRuntime;
import org.keycloak.provider.Provider;

/** Gives each request the server's one counter store and the gate built on it. */
public interface GateStoreProvider extends Provider {

    CounterStore store();

    /** The gate, the realms' keys and the warning limits, built once with the store. */
    GateRuntime runtime();

    @Override
    default void close() {
    }
}
