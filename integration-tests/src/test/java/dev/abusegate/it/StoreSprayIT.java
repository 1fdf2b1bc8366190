package dev.abusegate.it;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateOptions;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.TimeSource;
import dev.abusegate.keycloak.store.CounterCacheConfiguration;
import dev.abusegate.keycloak.store.InfinispanCounterStore;
import dev.abusegate.keycloak.store.InfinispanGateStoreProviderFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import org.infinispan.Cache;
import org.infinispan.configuration.cache.Configuration;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A spray of one million distinct client addresses (each with its own username) against the real counter
 * store: an Infinispan cache configured exactly as the provider configures it on a single node
 * ({@link CounterCacheConfiguration}, LOCAL, {@code maxCount} = the {@code max-entries} bound,
 * {@code EvictionStrategy.REMOVE}), wrapped in {@link InfinispanCounterStore} and driven through the gate
 * engine with all four layers at their production defaults. Every attempt writes up to four new keys, so
 * the spray offers the cache about forty times its bound.
 *
 * <p>Proves: the cache never holds more than the bound; the heap a full cache retains stays under
 * {@code bound x 1 KB} (printed as bytes per tracked key; recorded in docs/cluster-and-heap.md); the spray
 * makes room by dropping its own one-off entries (Infinispan's bound is Caffeine's W-TinyLFU, which evicts
 * by frequency, not strictly the least recently used) while an address that keeps hammering one account
 * during the spray keeps its counters and stays held back. Runs in-process; needs no Keycloak.
 * {@code -Dspray.attempts=N} changes the number of attempts (default 1,000,000).
 */
class StoreSprayIT {

    private static final long BOUND = 100_000;
    private static final int ATTEMPTS = Integer.getInteger("spray.attempts", 1_000_000);
    private static final int SAMPLE_EVERY = 10_000;
    private static final int HOT_EVERY = 1_000;
    private static final String HOT_ADDRESS = "192.0.2.99";
    /** Generous ceiling per tracked key: the test proves boundedness, not a precise number. */
    private static final long CEILING_BYTES_PER_KEY = 1024;

    @Test
    void a_spray_of_a_million_distinct_addresses_keeps_the_counter_cache_and_its_heap_within_the_bound() {
        long t0 = System.nanoTime();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        DefaultCacheManager manager = new DefaultCacheManager(new GlobalConfigurationBuilder().nonClusteredDefault().build());
        try {
            Configuration config = CounterCacheConfiguration.build(false, BOUND);
            assertThat(config.memory().maxCount()).isEqualTo(BOUND);
            manager.defineConfiguration(InfinispanGateStoreProviderFactory.CACHE_NAME, config);
            Cache<String, Object> cache = manager.getCache(InfinispanGateStoreProviderFactory.CACHE_NAME);

            String realm = UUID.randomUUID().toString(); // Keycloak realm ids are UUIDs: realistic key lengths
            byte[] secret = "spray-test-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8);
            AbuseGate gate = new AbuseGate(new InfinispanCounterStore(cache), TimeSource.SYSTEM, r -> secret);
            GateOptions options = GateOptions.defaults(); // all four layers on, production thresholds and windows

            // warm the code paths (classes, Caffeine's structures for a small size), then clear: the baseline is an empty, started cache
            for (int i = 0; i < 1000; i++) {
                gate.evaluate(options, new Attempt(realm, address(ATTEMPTS + i), "warm" + i, false));
            }
            cache.clear();
            long before = usedHeapAfterGc(memory);

            Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
            long maxSize = 0;
            int hotAttempts = 0;
            int hotAllowed = 0;
            Outcome hotLast = null;
            long tSpray = System.nanoTime();
            for (int i = 0; i < ATTEMPTS; i++) {
                Decision d = gate.evaluate(options, new Attempt(realm, address(i), "user" + i + "@example.com", false));
                outcomes.merge(d.outcome(), 1, Integer::sum);
                if (d.allowed()) {
                    gate.passwordFailed(d); // the spray guesses wrong: failures stay counted
                }
                if (i % HOT_EVERY == 0) {
                    // one address keeps hammering one account through the spray
                    Decision h = gate.evaluate(options, new Attempt(realm, HOT_ADDRESS, "hot-user@example.com", false));
                    hotAttempts++;
                    if (h.allowed()) {
                        hotAllowed++;
                        gate.passwordFailed(h);
                    }
                    hotLast = h.outcome();
                }
                if (i % SAMPLE_EVERY == SAMPLE_EVERY - 1) {
                    long size = cache.size();
                    maxSize = Math.max(maxSize, size);
                    assertThat(size).as("cache size after %d attempts", i + 1).isLessThanOrEqualTo(BOUND);
                }
            }
            double sprayS = (System.nanoTime() - tSpray) / 1e9;
            long size = cache.size();
            long after = usedHeapAfterGc(memory);
            long growth = after - before;
            double bytesPerKey = (double) growth / size;

            // which addresses are still tracked: the first and the last thousand
            long now = System.currentTimeMillis();
            int firstTracked = 0;
            int lastTracked = 0;
            for (int i = 0; i < 1000; i++) {
                firstTracked += gate.store().count(perIpKey(gate, realm, i), now) > 0 ? 1 : 0;
                lastTracked += gate.store().count(perIpKey(gate, realm, ATTEMPTS - 1 - i), now) > 0 ? 1 : 0;
            }
            System.out.printf("StoreSprayIT: per-address counters still held: first 1000 addresses %d, last 1000 addresses %d%n",
                    firstTracked, lastTracked);
            System.out.printf("StoreSprayIT: hot address: %d attempts during the spray, %d let through, last %s%n",
                    hotAttempts, hotAllowed, hotLast);
            System.out.printf("StoreSprayIT: %d attempts from %d distinct addresses in %.1f s (%.0f/s); outcomes %s%n",
                    ATTEMPTS, ATTEMPTS, sprayS, ATTEMPTS / sprayS, outcomes);
            System.out.printf("StoreSprayIT: bound %d entries, largest sampled size %d, final size %d%n", BOUND, maxSize, size);
            System.out.printf("StoreSprayIT: used heap after GC %d -> %d bytes: +%d bytes = %.0f bytes per tracked key "
                    + "(ceiling %d); max heap %d MB%n", before, after, growth, bytesPerKey, CEILING_BYTES_PER_KEY,
                    memory.getHeapMemoryUsage().getMax() >> 20);
            System.out.printf("StoreSprayIT wall time: %.0f s%n", (System.nanoTime() - t0) / 1e9);

            assertThat(outcomes.getOrDefault(Outcome.ALLOW, 0)).as("distinct addresses and usernames pass the gate")
                    .isEqualTo(ATTEMPTS);
            assertThat(maxSize).isLessThanOrEqualTo(BOUND);
            assertThat(size).as("the spray filled the cache: the bound, not a small load, kept it small")
                    .isLessThanOrEqualTo(BOUND).isGreaterThanOrEqualTo(BOUND * 9 / 10);
            assertThat(lastTracked).as("new addresses are still admitted during the spray").isPositive();
            assertThat(firstTracked).as("the first sprayed addresses made room").isLessThan(lastTracked);
            assertThat(hotAllowed).as("an address hammering one account through the spray keeps its counters: "
                    + "never more than the per-address-and-account threshold let through")
                    .isLessThanOrEqualTo(options.policy(Layer.PER_IP_ACCOUNT).threshold());
            assertThat(hotLast).as("the hammering address is still held back at the end").isNotEqualTo(Outcome.ALLOW);
            assertThat(growth).as("heap retained by a full cache").isLessThan(BOUND * CEILING_BYTES_PER_KEY);
        } finally {
            manager.stop();
        }
    }

    private static dev.abusegate.engine.CounterKey perIpKey(AbuseGate gate, String realm, int i) {
        return gate.keys().forAttempt(new Attempt(realm, address(i), "x", false), 64).perIp();
    }

    /** A distinct /64 in the documentation range 2001:db8::/32 per index (the gate keys IPv6 by /64). */
    private static String address(int i) {
        return "2001:db8:" + Integer.toHexString(i >>> 16) + ":" + Integer.toHexString(i & 0xffff) + "::1";
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
