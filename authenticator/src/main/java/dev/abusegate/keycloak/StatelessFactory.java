package dev.abusegate.keycloak;

import org.keycloak.Config;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.Provider;
import org.keycloak.provider.ProviderFactory;

/**
 * A provider factory with nothing to set up or release: Keycloak's {@link ProviderFactory} declares its lifecycle
 * abstract, and this says once that there is none (the gate's state lives in the server's runtime, which the store's
 * factory owns).
 */
public interface StatelessFactory<T extends Provider> extends ProviderFactory<T> {

    @Override
    default void init(Config.Scope config) {
    }

    @Override
    default void postInit(KeycloakSessionFactory factory) {
    }

    @Override
    default void close() {
    }
}
