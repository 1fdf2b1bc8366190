package dev.abusegate.keycloak.store;

import org.keycloak.provider.Provider;
import org.keycloak.provider.ProviderFactory;
import org.keycloak.provider.Spi;

/** SPI {@code abuse-gate-store}: where the gate keeps its counters. Options: {@code --spi-abuse-gate-store--infinispan--...}. */
public class GateStoreSpi implements Spi {

    public static final String NAME = "abuse-gate-store";

    @Override
    public boolean isInternal() {
        return false;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Class<? extends Provider> getProviderClass() {
        return GateStoreProvider.class;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends ProviderFactory> getProviderFactoryClass() {
        return GateStoreProviderFactory.class;
    }
}
