package dev.abusegate.keycloak.store;

import org.keycloak.provider.ProviderFactory;

public interface GateStoreProviderFactory extends ProviderFactory<GateStoreProvider> {
}
