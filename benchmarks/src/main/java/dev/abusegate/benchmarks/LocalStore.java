package dev.abusegate.benchmarks;

import dev.abusegate.keycloak.store.CounterCacheConfiguration;
import dev.abusegate.keycloak.store.InfinispanCounterStore;
import dev.abusegate.keycloak.store.StoreCensus;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;
import org.infinispan.commons.time.DefaultTimeService;
import org.infinispan.commons.time.TimeService;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.factories.GlobalComponentRegistry;
import org.infinispan.factories.impl.BasicComponentRegistry;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * The production store as a single Keycloak node runs it: {@link InfinispanCounterStore} over the gate's two
 * caches, each built with {@code CounterCacheConfiguration.build(false)} (LOCAL, no eviction, expiry purged
 * every 5 s) in an embedded cache manager.
 *
 * <p>The cache manager's clock can be the gate's simulated one ({@code clock} non-null): then entries expire
 * in simulated time, as they would in real time at the simulated request rate. Without that, a benchmark
 * running the gate 500 times faster than its simulated clock would keep every entry 500 times too long.
 */
final class LocalStore implements AutoCloseable {

    /** The names the provider gives its caches (InfinispanGateStoreProviderFactory; not referenced, it needs Keycloak). */
    static final String CHEAP = "abuse-gate-counters";
    static final String PROTECTIVE = "abuse-gate-protected";

    final EmbeddedCacheManager manager;
    final Cache<Object, Object> cheap;
    final Cache<Object, Object> protective;
    final InfinispanCounterStore store;

    /** {@code clock}: the gate's clock in milliseconds, or null for the wall clock. */
    LocalStore(long maxCheap, long maxProtective, long[] clock) {
        GlobalConfigurationBuilder g = new GlobalConfigurationBuilder().nonClusteredDefault();
        g.jmx().disable();
        manager = new DefaultCacheManager(g.build(), false);
        if (clock != null) {
            GlobalComponentRegistry gcr = GlobalComponentRegistry.of(manager);
            gcr.getComponent(BasicComponentRegistry.class)
                    .replaceComponent(TimeService.class.getName(), new SimulatedTime(clock), true);
            gcr.rewire();
        }
        manager.start();
        manager.defineConfiguration(CHEAP, CounterCacheConfiguration.build(false));
        manager.defineConfiguration(PROTECTIVE, CounterCacheConfiguration.build(false));
        cheap = manager.getCache(CHEAP);
        protective = manager.getCache(PROTECTIVE);
        store = new InfinispanCounterStore(cheap, maxCheap, protective, maxProtective);
    }

    /** Purges expired entries now, as the expiry reaper does every 5 s. */
    void purgeExpired() {
        cheap.getAdvancedCache().getExpirationManager().processExpiration();
        protective.getAdvancedCache().getExpirationManager().processExpiration();
    }

    /** Entries held (expired ones not yet purged included): cheap, protective. */
    long[] sizes() {
        return StoreCensus.exactEntries(store);
    }

    @Override
    public void close() {
        manager.stop();
    }

    /** Infinispan's time, read from the gate's simulated clock (milliseconds). */
    static final class SimulatedTime extends DefaultTimeService {
        private final long[] clock;

        SimulatedTime(long[] clock) {
            this.clock = clock;
        }

        @Override
        public long wallClockTime() {
            return clock[0];
        }

        @Override
        public long time() {
            return TimeUnit.MILLISECONDS.toNanos(clock[0]);
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(clock[0]);
        }
    }
}
