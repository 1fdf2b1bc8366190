package dev.abusegate.engine;

import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStoreFullException;
import dev.abusegate.engine.store.UsedEntry;

/**
 * The moment a captcha solution is spent: the records of used solutions, so that none passes twice. Unlike the
 * layers these throw when the store cannot tell: the caller counts such a solution as unsolved.
 */
final class CaptchaRecords {

    private final GateParts parts;

    CaptchaRecords(GateParts parts) {
        this.parts = parts;
    }

    /** See {@link AbuseGate#firstUse}. */
    boolean firstUse(String realm, byte[] digest, long expiresAtMillis) {
        long now = parts.clock().millis();
        long ttl = Math.max(1, expiresAtMillis - now);
        long[] v = parts.store().apply(GateKeys.used(realm, digest), new Change.MarkUsed(now, now + ttl), ttl).join();
        if (v == null) {
            throw new CounterStoreFullException("no room to remember a used captcha solution");
        }
        return UsedEntry.firstUse(v);
    }

    /** See {@link AbuseGate#used}. */
    boolean used(String realm, byte[] digest) {
        long[] v = parts.store().read(GateKeys.used(realm, digest));
        return v != null && UsedEntry.live(v, parts.clock().millis());
    }
}
