package dev.abusegate.engine;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The four-layer gate. It runs before any user lookup or password hash and answers ALLOW,
 * CAPTCHA_REQUIRED or BLOCKED. It is bookkeeping only: counters, thresholds and windows.
 *
 * <p>One attempt goes through three steps:
 * <ol>
 *   <li>Read every enabled layer. A layer already at its threshold (or an account locked) blocks; the
 *       first in the order 1 to 4 answers. Layers 1, 2 and 4 still count the blocked attempt, so a client
 *       that keeps hammering stays blocked until it has been quiet for a full window.</li>
 *   <li>Captcha band: if any layer has reached {@code factor x threshold} and the attempt has no valid
 *       solution, answer CAPTCHA_REQUIRED and count nothing.</li>
 *   <li>Count: increment layers 1 and 2, add the identifier to layer 4's set, and reserve a failure slot on
 *       layer 3. Each increment's result decides, so N simultaneous attempts let exactly the threshold
 *       through. The layer-3 reservation is confirmed as a failure on a wrong password and given back
 *       otherwise; the identifier is locked when its confirmed failures reach the threshold.</li>
 * </ol>
 *
 * <p>When the store throws, the layer's {@link FailureMode} decides: FAIL_OPEN passes the layer and
 * reports it in {@link Decision#unavailable()}, FAIL_CLOSED blocks.
 */
public final class AbuseGate {

    private final CounterStore store;
    private final TimeSource clock;
    private final GateKeys keys;

    public AbuseGate(CounterStore store, TimeSource clock, SecretSource secrets) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.keys = new GateKeys(Objects.requireNonNull(secrets, "secrets"));
    }

    public GateKeys keys() {
        return keys;
    }

    public CounterStore store() {
        return store;
    }

    public TimeSource clock() {
        return clock;
    }

    /** Decides one attempt. Never throws because of the store; see {@link FailureMode}. */
    public Decision evaluate(GateOptions options, Attempt attempt) {
        return evaluate(options, attempt, null);
    }

    /**
     * Decides one attempt whose captcha solution, if any, is verified only when the answer depends on it:
     * {@code captchaCheck} runs only when the attempt is in the captcha band and not past a threshold, so a
     * blocked attempt or one below the band never costs a verification (for a vendor captcha, an outgoing
     * HTTP call).
     */
    public Decision evaluate(GateOptions options, Attempt attempt, java.util.function.BooleanSupplier captchaCheck) {
        long now = clock.millis();
        GateKeys.Keys k = keys.forAttempt(attempt, options.ipv6PrefixLength());
        Outages unavailable = new Outages();

        // An allowlisted address skips the address layers; layer 3 applies to everyone.
        boolean allowlisted = !options.allowlist().isEmpty() && options.allowlist().contains(attempt.address());
        LayerPolicy p1 = allowlisted ? null : active(options, Layer.PER_IP);
        LayerPolicy p2 = allowlisted ? null : active(options, Layer.PER_IP_ACCOUNT);
        LayerPolicy p3 = active(options, Layer.ACCOUNT_LOCKOUT);
        LayerPolicy p4 = allowlisted ? null : active(options, Layer.CREDENTIAL_STUFFING);
        // A verified device cookie moves layer 3 to the device's own small budget: the account's lock (set
        // by failures from elsewhere) does not apply to its owner's known browser, and a stolen cookie
        // gives no more than that budget.
        boolean device = p3 != null && options.deviceCookieEnabled() && attempt.device() != null;
        if (device) {
            k = k.forDevice(attempt.device());
            p3 = p3.withThreshold(options.deviceCookieThreshold());
        }
        LayerPolicy lockout = p3 == null ? options.policy(Layer.ACCOUNT_LOCKOUT) : p3;

        // Step 1: read. -1 means "the store failed and the layer fails open": the layer passes.
        long c1 = p1 == null ? 0 : count(p1, k.perIp(), now, unavailable);
        long c2 = p2 == null ? 0 : count(p2, k.perIpAccount(), now, unavailable);
        long c3 = p3 == null ? 0 : lockedOrFailures(p3, k, now, unavailable);
        long c4 = 0;
        long next4 = 0;
        if (p4 != null) {
            CounterStore.DistinctView v = distinct(p4, k, now, unavailable);
            if (v == FAILED_CLOSED_VIEW) {
                c4 = next4 = CLOSED;
            } else if (v != null) {
                c4 = v.size();
                next4 = v.contains() ? v.size() : v.size() + 1L;
            }
        }

        Layer blocked = firstOver(p1, c1, p2, c2, p3, c3 == Long.MAX_VALUE ? CLOSED : c3, p4, next4);
        if (blocked != null) {
            countBlocked(p1, p2, p4, k, now, unavailable);
            return new Decision(Outcome.BLOCKED, blocked, unavailable.toSet(), options, k, false, lockout, device);
        }

        // Step 2: the captcha band.
        if (options.captchaEnabled() && !attempt.captchaSolved()) {
            double f = options.captchaFactor();
            Layer band = p1 != null && p1.inBand(c1, f) ? Layer.PER_IP
                    : p2 != null && p2.inBand(c2, f) ? Layer.PER_IP_ACCOUNT
                    : p3 != null && p3.inBand(c3, f) ? Layer.ACCOUNT_LOCKOUT
                    : p4 != null && p4.inBand(c4, f) ? Layer.CREDENTIAL_STUFFING
                    : null;
            if (band != null && (captchaCheck == null || !captchaCheck.getAsBoolean())) {
                return new Decision(Outcome.CAPTCHA_REQUIRED, band, unavailable.toSet(), options, k, false, lockout, device);
            }
        }

        // Step 3: count, and let each increment's own result decide.
        long n1 = p1 == null ? 0 : increment(p1, k.perIp(), now, unavailable);
        long n2 = p2 == null ? 0 : increment(p2, k.perIpAccount(), now, unavailable);
        long n4 = 0;
        if (p4 != null) {
            CounterStore.DistinctView v = addDistinct(p4, k, now, unavailable);
            n4 = v == FAILED_CLOSED_VIEW ? CLOSED
                    : v == null ? 0
                    : v.contains() ? v.size() : v.size() + 1L; // a new identifier refused by the cap is over
        }
        if (over(p1, n1)) {
            return new Decision(Outcome.BLOCKED, Layer.PER_IP, unavailable.toSet(), options, k, false, lockout, device);
        }
        if (over(p2, n2)) {
            return new Decision(Outcome.BLOCKED, Layer.PER_IP_ACCOUNT, unavailable.toSet(), options, k, false, lockout, device);
        }
        boolean reserved = false;
        if (p3 != null && c3 >= 0) {
            long r = reserve(p3, k, now, unavailable);
            if (r == CLOSED || r == OVER) {
                return new Decision(Outcome.BLOCKED, Layer.ACCOUNT_LOCKOUT, unavailable.toSet(), options, k, false, lockout, device);
            }
            reserved = r > 0;
        }
        if (over(p4, n4)) {
            if (reserved) {
                giveBack(p3, k, now, unavailable);
            }
            return new Decision(Outcome.BLOCKED, Layer.CREDENTIAL_STUFFING, unavailable.toSet(), options, k, false, lockout, device);
        }
        return new Decision(Outcome.ALLOW, null, unavailable.toSet(), options, k, reserved, lockout, device);
    }

    /** The password check ran and failed: the reservation is confirmed as a failure; at the threshold, lock. */
    public Set<Layer> passwordFailed(Decision d) {
        return passwordFailed(d, 0L);
    }

    /**
     * The password check ran and failed. {@code passwordTag} is a keyed hash of the wrong password (0 when
     * unknown); with {@link GateOptions#ignoreRepeatedPasswords()} a wrong password identical to one of the
     * identifier's recent wrong passwords does not count again, so retyping the same typo never locks.
     */
    public Set<Layer> passwordFailed(Decision d, long passwordTag) {
        Outages unavailable = new Outages();
        if (!d.reserved) {
            return unavailable.toSet();
        }
        LayerPolicy p3 = d.lockout;
        GateOptions o = d.options;
        long now = clock.millis();
        if (o.ignoreRepeatedPasswords() && passwordTag != 0) {
            // A store failure here counts the password as a new one rather than leaving the slot unsettled.
            try {
                CounterKey typos = d.keys.recentWrongPasswords();
                if (store.distinct(typos, passwordTag, now).contains()) {
                    store.decrement(d.keys.failures(), p3.windowMillis(), now);
                    return unavailable.toSet();
                }
                store.addDistinct(typos, passwordTag, GateOptions.REMEMBERED_WRONG_PASSWORDS, p3.windowMillis(), now);
            } catch (RuntimeException e) {
                failed(p3, unavailable);
            }
        }
        try {
            // The reservation becomes a confirmed failure. Lock when the confirmed failures reach the
            // threshold, not the reservations: those include attempts still being checked, and locking on
            // them would turn away an attempt already let through, or lock an account whose other attempts
            // then succeed. Confirmed failures never exceed the reservations, so at the threshold every slot
            // holds a failure and no attempt is still on its way.
            if (store.confirm(d.keys.failures(), p3.windowMillis(), now) >= p3.threshold()) {
                long duration = p3.lockoutMillis();
                if (!d.device && o.progressiveFactor() > 1.0) {
                    long n = store.increment(d.keys.lockCount(), o.maxLockoutSeconds() * 1000L + p3.windowMillis(), now);
                    duration = o.lockoutMillis(n);
                }
                store.lock(d.keys.lock(), duration, now);
                // the confirmed failures go; an attempt still on its way (one that will be turned away by
                // the lock it re-reads) keeps its own reservation to give back
                store.release(d.keys.failures(), 0, p3.windowMillis(), now);
            }
        } catch (RuntimeException e) {
            failed(p3, unavailable);
        }
        return unavailable.toSet();
    }

    /**
     * The password check ran and succeeded: the identifier's failures (and its run of locks) are cleared,
     * with this attempt's reservation. Reservations of attempts still being checked stay theirs.
     */
    public Set<Layer> passwordSucceeded(Decision d) {
        Outages unavailable = new Outages();
        if (d.reserved) {
            try {
                // this attempt's reservation and the confirmed failures go; attempts still being checked
                // keep theirs, so that their own settlement applies to them
                store.release(d.keys.failures(), 1, d.lockout.windowMillis(), clock.millis());
                if (d.options.progressiveFactor() > 1.0) {
                    store.clear(d.keys.lockCount());
                }
            } catch (RuntimeException e) {
                failed(d.lockout, unavailable);
            }
        }
        return unavailable.toSet();
    }

    /** No password was checked after all (empty password, disabled user, ...): give the reservation back. */
    public Set<Layer> notVerified(Decision d) {
        Outages unavailable = new Outages();
        if (d.reserved) {
            giveBack(d.lockout, d.keys, clock.millis(), unavailable);
        }
        return unavailable.toSet();
    }

    // ---------------------------------------------------------------------------------------------

    /** A store failure under FAIL_CLOSED. Larger than any threshold. */
    private static final long CLOSED = Long.MAX_VALUE - 1;
    /** The layer-3 reservation was refused: the identifier is locked or full. */
    private static final long OVER = Long.MAX_VALUE - 2;
    /** A store failure under FAIL_OPEN: the layer passes. */
    private static final long OPEN = -1;
    private static final CounterStore.DistinctView FAILED_CLOSED_VIEW = new CounterStore.DistinctView(Integer.MAX_VALUE, true);

    private static LayerPolicy active(GateOptions options, Layer layer) {
        LayerPolicy p = options.policy(layer);
        return p.enabled() ? p : null;
    }

    private static boolean over(LayerPolicy p, long count) {
        return p != null && count > p.threshold();
    }

    /** Step 1's verdict: a layer blocks when this attempt would be past its threshold. */
    private static Layer firstOver(LayerPolicy p1, long c1, LayerPolicy p2, long c2, LayerPolicy p3, long c3,
                                   LayerPolicy p4, long next4) {
        if (p1 != null && c1 >= p1.threshold()) {
            return Layer.PER_IP;
        }
        if (p2 != null && c2 >= p2.threshold()) {
            return Layer.PER_IP_ACCOUNT;
        }
        if (p3 != null && c3 >= p3.threshold()) {
            return Layer.ACCOUNT_LOCKOUT;
        }
        if (p4 != null && next4 > p4.threshold()) {
            return Layer.CREDENTIAL_STUFFING;
        }
        return null;
    }

    /** Layers 1, 2 and 4 count blocked attempts too. Layer 3 never does: no password was checked. */
    private void countBlocked(LayerPolicy p1, LayerPolicy p2, LayerPolicy p4, GateKeys.Keys k, long now, Outages unavailable) {
        if (p1 != null) {
            increment(p1, k.perIp(), now, unavailable);
        }
        if (p2 != null) {
            increment(p2, k.perIpAccount(), now, unavailable);
        }
        if (p4 != null) {
            addDistinct(p4, k, now, unavailable);
        }
    }

    /**
     * Takes one of the identifier's failure slots before the password is checked. The verdict is settled
     * before any compensation, so a failing give-back can neither let an over-limit attempt through nor
     * (being reported) go unnoticed; a lock set meanwhile is re-read after the slot is taken.
     */
    private long reserve(LayerPolicy p3, GateKeys.Keys k, long now, Outages unavailable) {
        long n;
        try {
            n = store.increment(k.failures(), p3.windowMillis(), now);
        } catch (RuntimeException e) {
            return failed(p3, unavailable);
        }
        boolean over = n > p3.threshold();
        if (!over) {
            try {
                over = store.lockRemainingMillis(k.lock(), now) > 0;
            } catch (RuntimeException e) {
                giveBack(p3, k, now, unavailable);
                return failed(p3, unavailable);
            }
        }
        if (over) {
            giveBack(p3, k, now, unavailable);
            return OVER;
        }
        return n;
    }

    /**
     * The answer when the gate cannot even derive its keys (e.g. the realm's key material is unavailable):
     * every enabled layer is unavailable and follows its failure mode, the first FAIL_CLOSED one blocking.
     */
    public Decision unavailable(GateOptions options) {
        Set<Layer> down = EnumSet.noneOf(Layer.class);
        Layer closed = null;
        for (Layer layer : Layer.values()) {
            LayerPolicy p = options.policy(layer);
            if (p.enabled()) {
                down.add(layer);
                if (closed == null && p.failureMode() == FailureMode.FAIL_CLOSED) {
                    closed = layer;
                }
            }
        }
        return new Decision(closed == null ? Outcome.ALLOW : Outcome.BLOCKED, closed, down, options, null, false);
    }

    private void giveBack(LayerPolicy p3, GateKeys.Keys k, long now, Outages unavailable) {
        try {
            store.decrement(k.failures(), p3.windowMillis(), now);
        } catch (RuntimeException e) {
            failed(p3, unavailable);
        }
    }

    // The store calls of the hot path, each guarded by its layer's failure mode. Written out rather than
    // passed as lambdas: a capturing lambda per call was a measurable share of each decision's garbage.

    private long count(LayerPolicy p, CounterKey key, long now, Outages unavailable) {
        try {
            return store.count(key, now);
        } catch (RuntimeException e) {
            return failed(p, unavailable);
        }
    }

    private long increment(LayerPolicy p, CounterKey key, long now, Outages unavailable) {
        try {
            return store.increment(key, p.windowMillis(), now);
        } catch (RuntimeException e) {
            return failed(p, unavailable);
        }
    }

    /** Long.MAX_VALUE when the identifier is locked, else its failure count. */
    private long lockedOrFailures(LayerPolicy p3, GateKeys.Keys k, long now, Outages unavailable) {
        try {
            return store.lockRemainingMillis(k.lock(), now) > 0 ? Long.MAX_VALUE : store.count(k.failures(), now);
        } catch (RuntimeException e) {
            return failed(p3, unavailable);
        }
    }

    private CounterStore.DistinctView distinct(LayerPolicy p4, GateKeys.Keys k, long now, Outages unavailable) {
        try {
            return store.distinct(k.identifiers(), k.member(), now);
        } catch (RuntimeException e) {
            return failedView(p4, unavailable);
        }
    }

    private CounterStore.DistinctView addDistinct(LayerPolicy p4, GateKeys.Keys k, long now, Outages unavailable) {
        try {
            return store.addDistinct(k.identifiers(), k.member(), p4.threshold() + 1, p4.windowMillis(), now);
        } catch (RuntimeException e) {
            return failedView(p4, unavailable);
        }
    }

    /**
     * The layers whose store failed during one call. A plain bit set rather than an {@code EnumSet}: nearly
     * every attempt has none, and it then costs nothing and hands out the shared empty set.
     */
    private static final class Outages {
        private int bits;

        void add(Layer layer) {
            bits |= 1 << layer.ordinal();
        }

        Set<Layer> toSet() {
            if (bits == 0) {
                return Collections.emptySet();
            }
            Set<Layer> set = EnumSet.noneOf(Layer.class);
            for (Layer layer : Layer.values()) {
                if ((bits & 1 << layer.ordinal()) != 0) {
                    set.add(layer);
                }
            }
            return set;
        }
    }

    private static long failed(LayerPolicy p, Outages unavailable) {
        unavailable.add(p.layer());
        return p.failureMode() == FailureMode.FAIL_CLOSED ? CLOSED : OPEN;
    }

    private static CounterStore.DistinctView failedView(LayerPolicy p, Outages unavailable) {
        unavailable.add(p.layer());
        return p.failureMode() == FailureMode.FAIL_CLOSED ? FAILED_CLOSED_VIEW : null;
    }
}
