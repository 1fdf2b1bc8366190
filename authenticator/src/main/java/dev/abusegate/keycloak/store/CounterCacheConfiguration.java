package dev.abusegate.keycloak.store;

import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.configuration.cache.ConfigurationBuilder;

/**
 * The configuration of the gate's caches in one place (Infinispan imports only, so tests build the very same
 * caches without Keycloak): DIST_SYNC with two owners when clustered, LOCAL otherwise; no eviction (the store
 * bounds each cache by a fixed table of slots, see {@link InfinispanCounterStore}); expired entries purged every
 * {@value #EXPIRATION_WAKE_UP_MILLIS} ms (reads never see an expired entry in between).
 */
public final class CounterCacheConfiguration {

    /** How often expired entries are purged in the background. */
    public static final long EXPIRATION_WAKE_UP_MILLIS = 5_000;

    private CounterCacheConfiguration() {
    }

    public static Configuration build(boolean clustered) {
        ConfigurationBuilder b = new ConfigurationBuilder();
        if (clustered) {
            b.clustering().cacheMode(CacheMode.DIST_SYNC).hash().numOwners(2);
        } else {
            b.clustering().cacheMode(CacheMode.LOCAL);
        }
        b.expiration().wakeUpInterval(EXPIRATION_WAKE_UP_MILLIS);
        return b.build();
    }
}
