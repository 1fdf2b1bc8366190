package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.store.Limit;

/** How a realm's options turn into the limits and lifetimes the store's changes apply. */
final class Limits {

    private Limits() {
    }

    /** The layer's policy when it is on, else null. */
    static LayerPolicy active(GateOptions options, Layer layer) {
        LayerPolicy p = options.policy(layer);
        return p.enabled() ? p : null;
    }

    /** Where the captcha band starts for a policy: the first count at which a captcha is asked for. */
    static long bandStart(GateOptions options, LayerPolicy p) {
        return options.captchaEnabled() ? (long) Math.ceil(options.captchaFactor() * p.threshold()) : Long.MAX_VALUE;
    }

    /** A layer's limits as its changes apply them; {@link Limit#OFF} for a layer that is off (null). */
    static Limit limit(GateOptions o, LayerPolicy p) {
        return p == null ? Limit.OFF : new Limit(p.threshold(), bandStart(o, p), p.windowMillis());
    }

    /** How long an identifier's layer-3 entry lives: its window and its longest lock. */
    static long lockoutTtl(LayerPolicy p3, GateOptions o) {
        long lock = o.progressiveFactor() > 1.0 ? Math.max(p3.lockoutMillis(), o.maxLockoutSeconds() * 1000L) : p3.lockoutMillis();
        return p3.windowMillis() + lock;
    }

    /** A window in milliseconds, 0 for a layer that is off (null). */
    static long window(LayerPolicy p) {
        return p == null ? 0 : p.windowMillis();
    }

    /**
     * The one rule for a device cookie, for layer 3's device budget and the realm layer's exemption alike: the
     * attempt's device (a verified cookie for the account the typed name belongs to, see {@link Attempt#device()})
     * counts only while device cookies are on; otherwise null.
     */
    static String verifiedDevice(GateOptions options, Attempt attempt) {
        return options.deviceCookieEnabled() ? attempt.device() : null;
    }
}
