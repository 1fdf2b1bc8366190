package dev.abusegate.keycloak;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.WarnLimiter;
import org.jboss.logging.Logger;
import org.keycloak.models.RealmModel;

/**
 * The gate's one limiter of WARN lines: at most one a minute per topic. Topics name a realm (and what went wrong), so
 * one realm's trouble never silences another's. One per server, owned by its runtime.
 */
public final class Warnings {

    private static final Logger LOG = Logger.getLogger(Warnings.class);
    private static final long WARN_EVERY_MILLIS = 60_000;
    /** Most warning topics tracked at once (a few per realm); past it the oldest record is forgotten. */
    private static final int MAX_TOPICS = 10_000;

    private final WarnLimiter limiter = new WarnLimiter(TimeSource.SYSTEM, WARN_EVERY_MILLIS, MAX_TOPICS);

    /** Logs {@code message} at WARN unless this {@code topic} had one in the last minute. */
    public void warnEvery(String topic, String message) {
        if (limiter.due(topic)) {
            LOG.warn(message);
        }
    }

    /** Whether a warning about {@code topic} is due (true at most once a minute per topic): for a caller that logs more. */
    public boolean due(String topic) {
        return limiter.due(topic);
    }

    /** One WARN per realm a minute: why the gate cannot key its counters, and how to fix it. */
    public void warnNoKey(RealmModel realm, RuntimeException e) {
        warnEvery("keys:" + realm.getId(), "Abuse gate: realm '" + realm.getName() + "' has no usable HMAC key ("
                + (e instanceof RealmSecrets.NoRealmKey ? "no active HS512 or HS256 key" : e.getClass().getSimpleName())
                + "); every layer follows its failure mode, device cookies are neither issued nor honoured and no "
                + "ALTCHA challenge is offered. Fix: Realm settings > Keys > Providers, add or enable an 'hmac-generated' "
                + "provider (further warnings for this realm suppressed for 60 s)");
    }
}
