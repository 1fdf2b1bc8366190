package dev.abusegate.keycloak.runtime;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.EventBudget;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.realm.RealmTallies;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.Warnings;
import dev.abusegate.keycloak.captcha.CaptchaService;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.keycloak.models.RealmModel;

/**
 * What the gate keeps for the life of the server: the engine on the server's one store, the realms' derived
 * keys, their parsed settings, the captcha verification budgets, the realms' budgets of refusal events
 * ({@link #refusalEvents()}), and the rate limits of its warnings (the one WARN limiter: {@link Warnings}). Built
 * once, in one place, by the store's provider factory (its {@code runtime(KeycloakSession)}), which hands it to the
 * factories of the steps and of the admin resource; they pass it on to what they create. Nothing static survives a
 * reload.
 */
public final class GateRuntime {

    private final AbuseGate gate;
    private final RealmSecrets secrets;
    private final Warnings warnings = new Warnings();
    private final GateConfig.Cache config = new GateConfig.Cache(warnings::warnEvery);
    private final CaptchaService captcha;
    /** The gated steps' password checks, one per CPU core at a time. */
    private final PasswordCheckQueue passwordChecks = new PasswordCheckQueue(Runtime.getRuntime().availableProcessors());
    /** The fifth layer's tick, once a second, off the login path (one daemon thread). */
    private final ScheduledExecutorService realmTicks;
    /** Realms whose "under attack" gauge is registered. */
    private final Set<String> realmGauges = ConcurrentHashMap.newKeySet();
    private final Set<String> shareGauges = ConcurrentHashMap.newKeySet();
    private final CounterStore store;
    /** Each realm's refusal events per minute on this node ({@code events.refusalsPerMinute}). */
    private final EventBudget refusalEvents;
    /** Each realm's counter-store failure events per minute on this node ({@code events.storeFailuresPerMinute}). */
    private final EventBudget storeFailureEvents;

    /** {@code blockedHoldMillis}: see {@link AbuseGate#AbuseGate(CounterStore, TimeSource, dev.abusegate.engine.keys.SecretSource, long)}. */
    public GateRuntime(CounterStore store, long blockedHoldMillis) {
        this(store, blockedHoldMillis, null);
    }

    /**
     * As above, the realms' tallies shared through {@code tallies} (see {@link RealmWatch}); null: without the fifth
     * layer (a runtime without a working cache, which starts no thread).
     */
    public GateRuntime(CounterStore store, long blockedHoldMillis, RealmTallies tallies) {
        this.store = store;
        this.secrets = new RealmSecrets();
        this.refusalEvents = new EventBudget(TimeSource.SYSTEM);
        this.storeFailureEvents = new EventBudget(TimeSource.SYSTEM);
        if (tallies == null) {
            this.gate = new AbuseGate(store, TimeSource.SYSTEM, secrets, blockedHoldMillis);
            this.captcha = new CaptchaService(gate, secrets, warnings);
            this.realmTicks = null;
            return;
        }
        RealmWatch watch = new RealmWatch(tallies, TimeSource.SYSTEM, e -> warnEvery("realm-tallies", "Abuse gate: the realms' "
                + "failure tallies cannot be shared right now (" + e.getClass().getSimpleName() + "); each node decides "
                + "'realm under attack' on its own count (further warnings suppressed for 60 s)"));
        this.gate = new AbuseGate(store, TimeSource.SYSTEM, secrets, blockedHoldMillis, watch);
        this.captcha = new CaptchaService(gate, secrets, warnings);
        this.realmTicks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "abuse-gate-realm-watch");
            t.setDaemon(true);
            return t;
        });
        realmTicks.scheduleAtFixedRate(watch::tick, RealmWatch.TICK_MILLIS, RealmWatch.TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Where the gated steps' password checks wait their turn. */
    public PasswordCheckQueue passwordChecks() {
        return passwordChecks;
    }

    /** Whether the realm's gauge still needs registering (true once per realm). */
    public boolean firstGauge(String realmId) {
        return !realmGauges.contains(realmId) && realmGauges.add(realmId);
    }

    /** Whether the realm's share gauges still need registering (true once per realm). */
    public boolean firstShareGauges(String realmId) {
        return !shareGauges.contains(realmId) && shareGauges.add(realmId);
    }

    /** The server's one counter store. */
    public CounterStore store() {
        return store;
    }

    /** The realms' budgets of refusal events (see {@link EventBudget}). */
    public EventBudget refusalEvents() {
        return refusalEvents;
    }

    /** The realms' budgets of counter-store failure events (see {@link EventBudget}). */
    public EventBudget storeFailureEvents() {
        return storeFailureEvents;
    }

    /** Stops the fifth layer's tick. */
    public void close() {
        if (realmTicks != null) {
            realmTicks.shutdownNow();
        }
    }

    public AbuseGate gate() {
        return gate;
    }

    public RealmSecrets secrets() {
        return secrets;
    }

    /** The realms' and steps' parsed settings. */
    public GateConfig.Cache config() {
        return config;
    }

    /** Verifies captcha solutions, within this server's verification budgets. */
    public CaptchaService captcha() {
        return captcha;
    }

    /** One WARN per realm a minute: why the gate cannot key its counters, and how to fix it (see {@link Warnings}). */
    public void warnNoKey(RealmModel realm, RuntimeException e) {
        warnings.warnNoKey(realm, e);
    }

    /** Logs at WARN at most once a minute per {@code topic} (see {@link Warnings}). */
    public void warnEvery(String topic, String message) {
        warnings.warnEvery(topic, message);
    }

    /** Whether a warning about {@code topic} is due (true at most once a minute per topic): for a caller that logs more. */
    public boolean warnDue(String topic) {
        return warnings.due(topic);
    }
}
