package dev.abusegate.keycloak.store;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The server's one {@link GateRuntime}, built on first use and kept. While it cannot be built (the counter cache
 * cannot be created), every request gets one stand-in runtime on an {@link UnavailableCounterStore}, so each layer
 * follows its failure mode and the stand-in's budgets (refusal and store-failure events, warnings, captcha
 * verifications) hold across requests. The build is tried again at most once a minute, by one request while the
 * others go on with the stand-in. The first failure is logged at ERROR with its cause, each retry that fails at WARN,
 * and the stand-in is closed once the real runtime is built.
 */
final class ServerRuntime {

    /** How long after a failed build it is not tried again. */
    static final long RETRY_MILLIS = 60_000;

    private static final Logger LOG = Logger.getLogger(ServerRuntime.class);

    private final String cacheName;
    private final TimeSource clock;
    private volatile GateRuntime runtime;
    /** Guarded by this: the stand-in while the runtime cannot be built, when to try again, and whether a request is. */
    private GateRuntime standIn;
    private long retryAt;
    private boolean retrying;

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
            if (standIn == null) {
                // The first build: every request waits for it, as at start-up.
                return firstBuild(build);
            }
            if (retrying || clock.millis() < retryAt) {
                return standIn;
            }
            retrying = true;
        }
        GateRuntime built = null;
        RuntimeException failure = null;
        try {
            built = build.get();
        } catch (RuntimeException e) {
            failure = e;
        }
        synchronized (this) {
            retrying = false;
            if (failure != null) {
                retryAt = clock.millis() + RETRY_MILLIS;
                LOG.warnf("Abuse gate: still cannot create the counter cache '%s' (%s); every layer follows its failure mode "
                        + "(tried again in a minute)", cacheName, failure.getClass().getSimpleName());
                return standIn;
            }
            LOG.infof("Abuse gate: the counter cache '%s' is created; the layers count again", cacheName);
            standIn.close();
            standIn = null;
            runtime = built;
            return built;
        }
    }

    /** Called holding the lock, with no runtime and no stand-in yet. */
    private GateRuntime firstBuild(Supplier<GateRuntime> build) {
        try {
            runtime = build.get();
            return runtime;
        } catch (RuntimeException e) {
            // Never a 500 per login: without a cache every layer follows its failure mode.
            LOG.errorf(e, "Abuse gate: cannot create the counter cache '%s'; every layer follows its failure mode "
                    + "(tried again at most once a minute)", cacheName);
            standIn = new GateRuntime(new UnavailableCounterStore("the counter cache could not be created"), 0);
            retryAt = clock.millis() + RETRY_MILLIS;
            return standIn;
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
