package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.LayerOutcome;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The store as one engine call uses it: its changes, and what went wrong with them ({@link Outages}). A failed
 * change is recorded against its layer with its exception and answered by the layer's failure mode; one made on a
 * shared counter is recorded as degraded. One per call, on one thread.
 */
final class StoreCall {

    private final CounterStore store;
    private final Map<Layer, Outages.Outage> failed = new EnumMap<>(Layer.class);
    private final Set<Layer> degraded = EnumSet.noneOf(Layer.class);

    StoreCall(CounterStore store) {
        this.store = store;
    }

    CounterStore store() {
        return store;
    }

    /** Starts a store change; a store that throws instead of completing exceptionally gets the same treatment. */
    CompletableFuture<long[]> start(CounterKey key, Change change, long ttlMillis) {
        try {
            return store.apply(key, change, ttlMillis);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Waits for a settlement change; a failure is recorded against the layer and otherwise ignored (null). */
    long[] join(CompletableFuture<long[]> f, LayerPolicy p) {
        try {
            return f.join();
        } catch (RuntimeException e) {
            failed(p, e);
            return null;
        }
    }

    /**
     * A layer whose store failed: recorded with its cause (the first one a layer met during the call), and answered
     * by its failure mode, FAIL_CLOSED as {@link LayerOutcome#BLOCKED}, FAIL_OPEN as {@link LayerOutcome#OFF} (it
     * passes and holds nothing).
     */
    LayerOutcome failed(LayerPolicy p, RuntimeException e) {
        failed.putIfAbsent(p.layer(), new Outages.Outage(p.layer(), e));
        return p.failureMode() == FailureMode.FAIL_CLOSED ? LayerOutcome.BLOCKED : LayerOutcome.OFF;
    }

    /** A layer counted on a shared counter (null: a layer that is off). */
    void degrade(LayerPolicy p) {
        if (p != null) {
            degraded.add(p.layer());
        }
    }

    Outages outages() {
        return failed.isEmpty() && degraded.isEmpty() ? Outages.NONE : new Outages(failed, degraded);
    }
}
