package dev.abusegate.keycloak;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.TimeSource;
import dev.abusegate.keycloak.store.GateStoreProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.keycloak.models.KeycloakSession;

/**
 * What the gate keeps for the life of the server: the engine on the server's one store, the realms' derived
 * keys, their parsed settings, and the rate limits of its warnings. Built once by the store's provider factory (see
 * {@code InfinispanGateStoreProviderFactory}) and handed to each request through {@link #of(KeycloakSession)}:
 * nothing static survives a reload.
 */
public final class GateRuntime {

    private static final Logger LOG = Logger.getLogger(GateRuntime.class);
    private static final long WARN_EVERY_MILLIS = 60_000;
    /** Most warning topics tracked at once (a few per realm); past it the oldest record is forgotten. */
    private static final int MAX_TOPICS = 10_000;

    private final AbuseGate gate;
    private final RealmSecrets secrets;
    private final GateConfig.Cache config = new GateConfig.Cache();
    private final Map<String, AtomicLong> lastWarn = new ConcurrentHashMap<>();

    public GateRuntime(CounterStore store) {
        this(store, 0);
    }

    /** {@code blockedHoldMillis}: see {@link AbuseGate#AbuseGate(CounterStore, TimeSource, dev.abusegate.engine.keys.SecretSource, long)}. */
    public GateRuntime(CounterStore store, long blockedHoldMillis) {
        this.secrets = new RealmSecrets();
        this.gate = new AbuseGate(store, TimeSource.SYSTEM, secrets, blockedHoldMillis);
    }

    /** The runtime of the server this session belongs to. */
    static GateRuntime of(KeycloakSession session) {
        return session.getProvider(GateStoreProvider.class).runtime();
    }

    AbuseGate gate() {
        return gate;
    }

    RealmSecrets secrets() {
        return secrets;
    }

    /** The realms' and steps' parsed settings. */
    GateConfig.Cache config() {
        return config;
    }

    /**
     * Logs at WARN at most once a minute per {@code topic}. Topics name a realm (and what went wrong), so one
     * realm's trouble never silences another's.
     */
    void warnEvery(String topic, String message) {
        AtomicLong last = lastWarn.get(topic);
        if (last == null) {
            if (lastWarn.size() >= MAX_TOPICS) {
                lastWarn.clear();
            }
            last = lastWarn.computeIfAbsent(topic, t -> new AtomicLong());
        }
        long now = System.currentTimeMillis();
        long prev = last.get();
        if ((prev == 0 || now - prev >= WARN_EVERY_MILLIS) && last.compareAndSet(prev, now)) {
            LOG.warn(message);
        }
    }
}
