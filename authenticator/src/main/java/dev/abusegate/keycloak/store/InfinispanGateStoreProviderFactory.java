package dev.abusegate.keycloak.store;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.realm.LocalRealmTallies;
import dev.abusegate.engine.store.Slots;
import dev.abusegate.engine.store.StoreTable;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.util.List;
import org.infinispan.Cache;
import org.infinispan.manager.EmbeddedCacheManager;
import org.jboss.logging.Logger;
import org.keycloak.Config;
import org.keycloak.connections.infinispan.InfinispanConnectionProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.utils.KeycloakModelUtils;
import org.keycloak.models.utils.PostMigrationEvent;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.provider.ProviderConfigurationBuilder;

/**
 * Keeps the gate's entries in two caches of our own on Keycloak's embedded Infinispan, LOCAL when Keycloak
 * runs alone (start-dev) and distributed with two owners when it runs clustered: {@value #CACHE_NAME} for
 * addresses and pairs, bounded by {@code max-entries}, and {@value #PROTECTED_CACHE_NAME} for failures, locks,
 * device budgets (bounded by {@code max-protected-entries}) and used captchas (a table of a quarter of that).
 * The bounds are fixed tables of slots; at a bound room is made only from what is worth one attempt, else a
 * subject is counted on a shared counter (see {@link InfinispanCounterStore}).
 */
public class InfinispanGateStoreProviderFactory implements GateStoreProviderFactory {

    public static final String ID = "infinispan";
    public static final String CACHE_NAME = "abuse-gate-counters";
    public static final String PROTECTED_CACHE_NAME = "abuse-gate-protected";
    public static final long DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_PROTECTED_ENTRIES = 100_000;
    /** Clustered only: how long a node answers an address it saw blocked on layer 1 without a round trip. */
    public static final long DEFAULT_BLOCKED_HOLD_MILLIS = 1_000;
    /** The longest hold accepted (a minute); each layer caps it further at a tenth of its window. */
    public static final long MAX_BLOCKED_HOLD_MILLIS = 60_000;

    static final StoreOption MAX_ENTRIES = new StoreOption("max-entries", DEFAULT_MAX_ENTRIES, 1, Long.MAX_VALUE,
            "Most address and pair entries (layers 1, 2 and 4) kept, cluster-wide, in a fixed table of slots. At the "
                    + "bound each realm keeps a fair share of every slot; a new subject replaces only an entry worth one "
                    + "attempt (seen once, not in the captcha band) of its own realm, or of a realm over its share; else it "
                    + "is counted on its realm's shared counter, which asks for a captcha early and never blocks.");
    static final StoreOption MAX_PROTECTED_ENTRIES = new StoreOption("max-protected-entries", DEFAULT_MAX_PROTECTED_ENTRIES, 1,
            Long.MAX_VALUE, "Most account-lockout and device entries kept, cluster-wide; used captchas get a table of a "
                    + "quarter of this beside it. They grow only with password checks and solved captchas, and each realm "
                    + "keeps a fair share of every slot; at the bound a new identifier of a realm at its share is counted on "
                    + "its realm's shared counter (a captcha early, refused once that count reaches the threshold), and a "
                    + "solution without room counts as unsolved.");
    static final StoreOption BLOCKED_HOLD_MILLIS = new StoreOption("blocked-hold-millis", DEFAULT_BLOCKED_HOLD_MILLIS, 0,
            MAX_BLOCKED_HOLD_MILLIS, "Clustered Keycloak only: for this many milliseconds after the cache blocked an address on "
                    + "layer 1, a node answers that address's further attempts as blocked without a cache round trip, and writes one "
                    + "of them per period on each node to keep the window sliding. So a flood from a blocked address costs no cluster "
                    + "traffic per attempt; the block may end up to this much sooner. At most a tenth of the layer's "
                    + "window; 0 writes every attempt; at most " + MAX_BLOCKED_HOLD_MILLIS + ".");

    /** Test support: every counter store call fails ({@link UnavailableCounterStore}), to prove the failure modes end to end. */
    public static final String TEST_SUPPORT_FAULT_INJECTION = "test-support-fault-injection";

    private static final Logger LOG = Logger.getLogger(InfinispanGateStoreProviderFactory.class);
    /** What {@link #create} gives each session: nothing but the SPI's provider type. */
    private static final GateStoreProvider PROVIDER = new GateStoreProvider() {
    };

    private long maxEntries = DEFAULT_MAX_ENTRIES;
    private long maxProtectedEntries = DEFAULT_MAX_PROTECTED_ENTRIES;
    private long blockedHoldMillis = DEFAULT_BLOCKED_HOLD_MILLIS;
    private boolean testSupportFaultInjection;
    private final ServerRuntime runtime = new ServerRuntime(CACHE_NAME, TimeSource.SYSTEM);

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public void init(Config.Scope config) {
        maxEntries = MAX_ENTRIES.read(config);
        maxProtectedEntries = MAX_PROTECTED_ENTRIES.read(config);
        blockedHoldMillis = BLOCKED_HOLD_MILLIS.read(config);
        testSupportFaultInjection = Boolean.TRUE.equals(config.getBoolean(TEST_SUPPORT_FAULT_INJECTION,
                config.getBoolean("testSupportFaultInjection", false)));
        if (testSupportFaultInjection) {
            LOG.warn("Abuse gate: test-support fault injection is ON; the counter store fails on every call. Use this in tests only.");
        }
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        // Start the cache once the server is up, so every cluster node holds its share from the start.
        factory.register(event -> {
            if (event instanceof PostMigrationEvent) {
                KeycloakModelUtils.runJobInTransaction(factory, this::runtime);
            }
        });
    }

    /** Holds nothing: the runtime is this factory's ({@link #runtime}). */
    @Override
    public GateStoreProvider create(KeycloakSession session) {
        return PROVIDER;
    }

    /**
     * The server's one runtime, built on first use (or once the server is up) and kept for the life of this factory:
     * the store, then the gate and everything long-lived on it, in this one place ({@link ServerRuntime}).
     */
    @Override
    public GateRuntime runtime(KeycloakSession session) {
        return runtime.get(() -> build(session));
    }

    private GateRuntime build(KeycloakSession session) {
        if (testSupportFaultInjection) {
            return new GateRuntime(new UnavailableCounterStore("test-support fault injection is on"), 0, new LocalRealmTallies());
        }
        EmbeddedCacheManager manager = cacheManager(session);
        InfinispanCounterStore table = new InfinispanCounterStore(cache(manager, CACHE_NAME, maxEntries), maxEntries,
                cache(manager, PROTECTED_CACHE_NAME, maxProtectedEntries), maxProtectedEntries);
        long[] adopted = table.adoptedBounds();
        if (adopted[0] != maxEntries || adopted[1] != maxProtectedEntries) {
            LOG.warnf("Abuse gate: this node was started with max-entries=%d and max-protected-entries=%d, "
                    + "but the cluster's tables were created with %d and %d; this node uses the cluster's "
                    + "(every node must pick the same slots). Restart every node to change the bounds.",
                    maxEntries, maxProtectedEntries, adopted[0], adopted[1]);
        }
        // Alone, a change is a map update: every attempt is written. Clustered, it is a round trip.
        long hold = manager.getCacheManagerConfiguration().isClustered() ? blockedHoldMillis : 0;
        if (hold > 0) {
            LOG.infof("Abuse gate: this node answers an address blocked on layer 1 without a cache round "
                    + "trip for %d ms at most (blocked-hold-millis; capped at a tenth of layer 1's window)", hold);
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        Cache<String, byte[]> tallies = (Cache) cache(manager, InfinispanRealmTallies.CACHE_NAME, 0);
        return new GateRuntime(table, hold, InfinispanRealmTallies.of(manager, tallies));
    }

    private static Cache<Object, Object> cache(EmbeddedCacheManager manager, String name, long max) {
        if (!manager.cacheExists(name) && manager.getCacheConfiguration(name) == null) {
            boolean clustered = manager.getCacheManagerConfiguration().isClustered();
            manager.defineConfiguration(name, CounterCacheConfiguration.build(clustered));
            if (InfinispanRealmTallies.CACHE_NAME.equals(name)) {
                LOG.infof("Abuse gate: cache '%s' (%s, one entry per realm and node)", name, clustered ? "distributed, 2 owners" : "local");
            } else {
                LOG.infof("Abuse gate: cache '%s' (%s, at most %d exact entries%s in slots of %d)", name,
                        clustered ? "distributed, 2 owners" : "local", max, PROTECTED_CACHE_NAME.equals(name)
                                ? ", " + StoreTable.USED.bound(0, max) + " used captchas and " + StoreTable.SPRAY.bound(0, max)
                                + " password buckets" : "",
                        Slots.waysFor(max));
            }
        }
        return manager.getCache(name);
    }

    /** Keycloak's embedded cache manager, through its public Infinispan connection provider (its work cache's manager). */
    private static EmbeddedCacheManager cacheManager(KeycloakSession session) {
        InfinispanConnectionProvider connections = session.getProvider(InfinispanConnectionProvider.class);
        if (connections == null) {
            throw new IllegalStateException("Keycloak has no Infinispan connection provider");
        }
        return connections.getCache(InfinispanConnectionProvider.WORK_CACHE_NAME).getCacheManager();
    }

    @Override
    public List<ProviderConfigProperty> getConfigMetadata() {
        ProviderConfigurationBuilder b = ProviderConfigurationBuilder.create();
        for (StoreOption option : List.of(MAX_ENTRIES, MAX_PROTECTED_ENTRIES, BLOCKED_HOLD_MILLIS)) {
            option.describe(b);
        }
        return b
                .property().name(TEST_SUPPORT_FAULT_INJECTION).type(ProviderConfigProperty.BOOLEAN_TYPE)
                .helpText("Test support, never in production: make every counter store call fail, to exercise the layers' failure modes.")
                .defaultValue(false).add()
                .build();
    }

    @Override
    public void close() {
        runtime.close();
    }
}
