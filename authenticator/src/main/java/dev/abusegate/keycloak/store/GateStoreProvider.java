package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterStore;
import org.keycloak.provider.Provider;

/** Gives the authenticators the server's one counter store. */
public interface GateStoreProvider extends Provider {

    CounterStore store();

    @Override
    default void close() {
    }
}
