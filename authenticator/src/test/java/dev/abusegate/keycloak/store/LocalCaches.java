package dev.abusegate.keycloak.store;

import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;

/** Tests' embedded LOCAL Infinispan with the gate's two counter caches defined as the server defines them. */
final class LocalCaches {

    private LocalCaches() {
    }

    /** A started LOCAL cache manager (no JMX) with the cheap and the protected counter cache; the caller stops it. */
    static EmbeddedCacheManager start() {
        GlobalConfigurationBuilder g = new GlobalConfigurationBuilder().nonClusteredDefault();
        g.jmx().disable();
        EmbeddedCacheManager manager = new DefaultCacheManager(g.build());
        manager.defineConfiguration(InfinispanGateStoreProviderFactory.CACHE_NAME, CounterCacheConfiguration.build(false));
        manager.defineConfiguration(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME, CounterCacheConfiguration.build(false));
        return manager;
    }
}
