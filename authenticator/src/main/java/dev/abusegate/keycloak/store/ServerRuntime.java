package dev.abusegate.keycloak.store;

import dev.abusegate.engine.TimeSource;
import dev.abusegate.keycloak.GateRuntime;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The server's one {@link GateRuntime}, built on first use and kept. While it cannot be built (the counter cache
 * cannot be created), every request gets one stand-in runtime on an {@link UnavailableCounterStore}, so each layer
 * follows its failure mode and the stand-in's budgets (refusal and store-failure events, warnings, captcha
 * verifications) hold across requests; the build is tried again at most once a {@value #RETRY_MILLIS} ms. The first
 * failure is logged at ERROR with its cause, later ones at WARN at most once a minute, and the stand-in is closed
 * once the real runtime is built.
 */
final class ServerRuntime {

    /** How long a failed build is not tried again. */
    static final long RETRY_MILLIS = 60_000;

    private static final Logger LOG = Logger.getLogger(ServerRuntime.class);

    private final String cacheName;
    private final TimeSource clock;
    private volatile GateRuntime runtime;
    /** Guarded by this: the stand-in while the runtime cannot be built, and when to try again. */
    private GateRuntime standIn;
    private long retryAt;

    /** @param cacheName named in the log lines: the cache whose creation failed */
    ServerRuntime(String cacheName, TimeSource clock) {
        this.cacheName = cacheName;
        this.clock = clock;
    }

    /** The runtime, built by {@code build} the first time (and, while that fails, at most once a minute). */
    GateRuntime get(Supplier<GateRuntime> build) {
        GateRuntime r = runtime;
        if (r != null) {
            return r;
        }
        synchronized (this) {
            if (runtime != null) {
                return runtime;
            }
            long now = clock.millis();
            if (standIn != null && now < retryAt) {
                return standIn;
            }
            try {
                r = build.get();
            } catch (RuntimeException e) {
                retryAt = now + RETRY_MILLIS;
                if (standIn == null) {
                    // Never a 500 per login: without a cache every layer follows its failure mode.
                    LOG.errorf(e, "Abuse gate: cannot create the counter cache '%s'; every layer follows its failure mode "
                            + "(tried again at most once a minute)", cacheName);
                    standIn = new GateRuntime(new UnavailableCounterStore("the counter cache could not be created"), 0);
                } else {
                    standIn.warnEvery("counter-cache", "Abuse gate: still cannot create the counter cache '" + cacheName + "' ("
                            + e.getClass().getSimpleName() + "); every layer follows its failure mode (further warnings suppressed for 60 s)");
                }
                return standIn;
            }
            if (standIn != null) {
                LOG.infof("Abuse gate: the counter cache '%s' is created; the layers count again", cacheName);
                standIn.close();
                standIn = null;
            }
            runtime = r;
            return r;
        }
    }

    /** Stops what the runtime (or the stand-in) runs. */
    synchronized void close() {
        if (runtime != null) {
            runtime.close();
        }
        if (standIn != null) {
            standIn.close();
        }
    }
}
