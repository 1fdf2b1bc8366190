package dev.abusegate.keycloak.store;

import org.keycloak.provider.Provider;

/**
 * The provider type of the SPI {@code abuse-gate-store}, which Keycloak's SPI needs: it holds nothing. The server's
 * one runtime belongs to the SPI's factory ({@link GateStoreProviderFactory#runtime}), which builds it once.
 */
public interface GateStoreProvider extends Provider {

    @Override
    default void close() {
    }
}
