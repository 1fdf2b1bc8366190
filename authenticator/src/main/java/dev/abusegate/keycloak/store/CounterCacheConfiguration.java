package dev.abusegate.keycloak.store;

import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.eviction.EvictionStrategy;

/**
 * The configuration of the counter cache, {@value InfinispanGateStoreProviderFactory#CACHE_NAME}, in one
 * place (Infinispan imports only, so tests can build the very same cache without Keycloak): DIST_SYNC with
 * two owners when clustered, LOCAL otherwise; at most {@code maxEntries} entries, rarely used ones removed
 * first (Caffeine's W-TinyLFU: admission and eviction by frequency, not strict LRU);
 * expired entries purged every 30 s (reads never see an expired entry in between).
 */
public final class CounterCacheConfiguration {

    /** How often expired entries are purged in the background. */
    public static final long EXPIRATION_WAKE_UP_MILLIS = 30_000;

    private CounterCacheConfiguration() {
    }

    public static Configuration build(boolean clustered, long maxEntries) {
        ConfigurationBuilder b = new ConfigurationBuilder();
        if (clustered) {
            b.clustering().cacheMode(CacheMode.DIST_SYNC).hash().numOwners(2);
        } else {
            b.clustering().cacheMode(CacheMode.LOCAL);
        }
        b.memory().maxCount(maxEntries).whenFull(EvictionStrategy.REMOVE);
        b.expiration().wakeUpInterval(EXPIRATION_WAKE_UP_MILLIS);
        return b.build();
    }
}
