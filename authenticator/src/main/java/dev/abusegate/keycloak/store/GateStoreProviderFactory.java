package dev.abusegate.keycloak.store;

import dev.abusegate.keycloak.runtime.GateRuntime;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderFactory;

/**
 * The factory of the SPI {@code abuse-gate-store}: it owns the server's one {@link GateRuntime}, built once on the
 * server's counter store, and closes it with the server.
 */
public interface GateStoreProviderFactory extends ProviderFactory<GateStoreProvider> {

    /**
     * The server's one runtime: the gate on the server's one counter store, the realms' keys and settings, the captcha
     * budgets and the warning limits. Built on first use (or once the server is up) and kept for the life of this factory.
     */
    GateRuntime runtime(KeycloakSession session);

    /**
     * The server's store factory, which the factories of the steps and of the admin resource ask for the runtime they
     * hand to what they create.
     */
    static GateStoreProviderFactory of(KeycloakSessionFactory factory) {
        return (GateStoreProviderFactory) factory.getProviderFactory(GateStoreProvider.class);
    }
}
