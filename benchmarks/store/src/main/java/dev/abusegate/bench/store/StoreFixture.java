package dev.abusegate.bench.store;

import dev.abusegate.engine.GateKeys;
import dev.abusegate.keycloak.store.InfinispanCounterStore;
import java.nio.charset.StandardCharsets;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.eviction.EvictionStrategy;
import org.infinispan.manager.DefaultCacheManager;

/**
 * A LOCAL embedded cache configured exactly like InfinispanGateStoreProviderFactory does it under
 * start-dev (LOCAL, memory().maxCount(maxEntries).whenFull(REMOVE), expiration().wakeUpInterval(30 s),
 * lifespan per write from the store), and realistic keys from the real GateKeys.
 */
final class StoreFixture implements AutoCloseable {

    /** A realm id as Keycloak generates it (UUID): the prefix of every key. */
    static final String REALM_ID = "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab";
    static final String CACHE_NAME = "abuse-gate-counters";

    final DefaultCacheManager manager;
    final Cache<String, Object> cache;
    final InfinispanCounterStore store;
    final GateKeys keys = new GateKeys(realm -> "bench-secret-32-bytes-long-......".getBytes(StandardCharsets.UTF_8));

    StoreFixture(long maxEntries) {
        GlobalConfigurationBuilder g = new GlobalConfigurationBuilder().nonClusteredDefault();
        g.jmx().disable();
        manager = new DefaultCacheManager(g.build());
        ConfigurationBuilder b = new ConfigurationBuilder();
        b.clustering().cacheMode(CacheMode.LOCAL);
        b.memory().maxCount(maxEntries).whenFull(EvictionStrategy.REMOVE);
        b.expiration().wakeUpInterval(30_000);
        manager.defineConfiguration(CACHE_NAME, b.build());
        cache = manager.getCache(CACHE_NAME);
        store = new InfinispanCounterStore(cache);
    }

    /** The i-th distinct client address: 10.x.y.z (RFC 1918, as a proxy would report it). */
    static String address(int i) {
        return "10." + ((i >>> 16) & 0xff) + "." + ((i >>> 8) & 0xff) + "." + (i & 0xff);
    }

    /** The i-th distinct typed username: realistic e-mail-style logins. */
    static String username(int i) {
        return "user" + i + "@example.com";
    }

    GateKeys.Keys keysFor(int addr, int user) {
        return keys.forAttempt(REALM_ID, address(addr), username(user), 64);
    }

    @Override
    public void close() {
        manager.stop();
    }
}
