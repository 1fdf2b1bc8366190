package dev.abusegate.engine;

import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.keys.SecretSource;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.realm.RealmSettings;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.store.AddressEntry;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreFullException;
import dev.abusegate.engine.store.FailureOutcome;
import dev.abusegate.engine.store.LayerOutcome;
import dev.abusegate.engine.store.Limit;
import dev.abusegate.engine.store.LockoutEntry;
import dev.abusegate.engine.store.PairEntry;
import dev.abusegate.engine.store.UsedEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The four-layer gate. It runs before any user lookup or password hash and answers ALLOW, CAPTCHA_REQUIRED or
 * BLOCKED. It is bookkeeping only: counters, thresholds and windows.
 *
 * <p>One attempt is decided in at most two steps, each one round trip to the store:
 * <ol>
 *   <li>The address's entry (layers 1 and 4), for an IPv6 address its network's entry (layer 1 again, against its
 *       own threshold, see {@link GateOptions#ipv6NetworkThreshold()}) and the pair's entry (layer 2), changed together. Each change
 *       decides on the entry's own count, atomically: at the threshold the attempt is blocked (and still
 *       counted, so a client that keeps hammering stays blocked); in the captcha band without a solved captcha
 *       nothing is counted; otherwise it is counted and passes. So N simultaneous attempts let exactly the
 *       threshold through, and exactly the band's start before the captcha is asked for.</li>
 *   <li>Only if those pass: layer 3 takes one of the identifier's failure slots (a reservation), unless it is
 *       locked, full or in the band. The reservation is confirmed as a failure on a wrong password and given
 *       back otherwise; the identifier is locked when its confirmed failures reach the threshold.</li>
 * </ol>
 * A captcha answer counts nothing: what an earlier change counted for the attempt is given back. A captcha
 * solution is verified only when the answer depends on it.
 *
 * <p>When the store fails, the layer's {@link FailureMode} decides: FAIL_OPEN passes the layer and reports it in
 * {@link Decision#unavailable()}, FAIL_CLOSED blocks. A store at its bound has not failed: it counts a subject
 * it has no room for on its realm's shared counter ({@link AdmissionAnswer#shared()}): an address's or a pair's never
 * blocks but asks for a captcha where an exact count would block; an account's blocks where an exact count would,
 * solved captcha or not; the decision reports such layers in {@link Decision#degraded()}. An
 * attempt counted on a shared counter is never given back there (a shared count only ever over-counts), and its
 * layer-3 reservation is settled on the shared counter, where a right password clears nobody's failures.
 *
 * <p>With a hold (for a store whose changes are round trips, such as a cluster), an address the store has just
 * blocked on layer 1 is answered as blocked without a change for the hold, then written again
 * ({@link RecentBlocks}).
 */
public final class AbuseGate {

    private final CounterStore store;
    private final TimeSource clock;
    private final GateKeys keys;
    /** Addresses just seen blocked on layer 1; null when every attempt goes to the store. */
    private final RecentBlocks recentBlocks;
    /** The fifth, realm-wide layer; null when the gate runs without it. */
    private final RealmWatch realmWatch;

    /**
     * A gate that, for {@code blockedHoldMillis} (0: never) after the store blocked an address on layer 1,
     * answers that address's further attempts as blocked without a store change (see {@link RecentBlocks}): for
     * a store where each change is a round trip, such as a cluster.
     */
    public AbuseGate(CounterStore store, TimeSource clock, SecretSource secrets, long blockedHoldMillis) {
        this(store, clock, secrets, blockedHoldMillis, null);
    }

    /** As above, with the fifth, realm-wide layer ({@code realmWatch}; null: without it). */
    public AbuseGate(CounterStore store, TimeSource clock, SecretSource secrets, long blockedHoldMillis, RealmWatch realmWatch) {
        this.realmWatch = realmWatch;
        if (blockedHoldMillis < 0) {
            throw new IllegalArgumentException("blockedHoldMillis must not be negative, was " + blockedHoldMillis);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.keys = new GateKeys(Objects.requireNonNull(secrets, "secrets"));
        this.recentBlocks = blockedHoldMillis == 0 ? null : new RecentBlocks(blockedHoldMillis);
    }

    /**
     * Decides one attempt. Never throws because of the store; see {@link FailureMode}. Its captcha solution, if
     * any, is verified only when the answer depends on it: {@code captchaCheck} (null: no solution came with the
     * attempt) runs at most once, only when the attempt is in the captcha band and not past a threshold, so a
     * blocked attempt or one below the band never costs a verification (for a vendor captcha, an outgoing HTTP
     * call). {@code realmLayer} false skips the fifth, realm-wide layer for a step that is not the one where it
     * applies (the identity-first username step: the password step that follows applies it, with the device cookie).
     */
    public Decision evaluate(GateOptions options, Attempt attempt, BooleanSupplier captchaCheck, boolean realmLayer) {
        long now = clock.millis();
        GateKeys.Keys k = keys.forAttempt(attempt, options.ipv6PrefixLength(), options.ipv6NetworkPrefixCounted());
        Outages out = new Outages();

        // An allowlisted address skips the address layers; layer 3 applies to everyone.
        boolean allowlisted = !options.allowlist().isEmpty() && options.allowlist().contains(attempt.address());
        LayerPolicy p1 = allowlisted ? null : active(options, Layer.PER_IP);
        LayerPolicy p2 = allowlisted ? null : active(options, Layer.PER_IP_ACCOUNT);
        LayerPolicy p3 = active(options, Layer.ACCOUNT_LOCKOUT);
        LayerPolicy p4 = allowlisted ? null : active(options, Layer.CREDENTIAL_STUFFING);
        // Layer 1 also counts an IPv6 address's network, against its own threshold, on layer 1's window and failure mode.
        LayerPolicy pN = p1 == null || k.network() == null ? null : p1.withThreshold(options.ipv6NetworkThreshold());
        // A verified device cookie moves layer 3 to the device's own small budget: the account's lock (set by
        // failures from elsewhere) does not apply to its owner's known browser, and a stolen cookie gives no
        // more than that budget.
        String verifiedDevice = verifiedDevice(options, attempt);
        boolean device = p3 != null && verifiedDevice != null;
        if (device) {
            k = k.forDevice(verifiedDevice);
            p3 = p3.withThreshold(options.deviceCookieThreshold());
        }
        LayerPolicy lockout = p3 == null ? options.policy(Layer.ACCOUNT_LOCKOUT) : p3;
        if (p1 != null && recentBlocks != null
                && (recentBlocks.holds(k.address(), p1, now) || pN != null && recentBlocks.holds(k.network(), pN, now))) {
            return new Decision(Outcome.BLOCKED, Layer.PER_IP, out.toSet(), out.degraded(), options, k, false, false, lockout, device);
        }
        // Verified only where an answer is in the band: with the band off that is only a shared count past a
        // threshold, which asks for a captcha instead of blocking (so even a realm without a band can pass it).
        Captcha captcha = new Captcha(captchaCheck);
        Admission a = new Admission(options, k, p1, pN, p2, p4, now, out);
        long clearsBefore = recentBlocks == null ? 0 : recentBlocks.clears();

        // Step 1: the address and the pair.
        a.run(captcha.solved);
        Layer blocked = a.blocked();
        if (a.r1 == LayerOutcome.BLOCKED && !a.addressFailed && recentBlocks != null) {
            recentBlocks.remember(k.address(), p1, now, clearsBefore);
        }
        if (a.rN == LayerOutcome.BLOCKED && !a.networkFailed && recentBlocks != null) {
            recentBlocks.remember(k.network(), pN, now, clearsBefore);
        }
        if (blocked == null && a.inBand()) {
            if (captcha.check()) {
                a.rerunBand(); // the band's changes counted nothing: count them now, with the solution
                blocked = a.blocked();
            } else {
                a.undo();
                return new Decision(Outcome.CAPTCHA_REQUIRED, a.bandLayer(), out.toSet(), out.degraded(), options, k, false, false, lockout, device);
            }
        }
        if (blocked != null) {
            a.countBand(); // a blocked attempt counts on layers 1, 2 and 4, also where it was in the band
            return new Decision(Outcome.BLOCKED, blocked, out.toSet(), out.degraded(), options, k, false, false, lockout, device);
        }

        // The fifth layer: while the realm is under attack every attempt needs a solved captcha, except one with a
        // verified device cookie for the typed account or from an allowlisted address. It never blocks, and its
        // captcha counts nothing (what step 1 counted is given back), like the band's; nor does the realm's tally count
        // the attempt it turns away (no password was checked), so that no one holds the state for free.
        if (realmLayer && realmWatch != null && !allowlisted && verifiedDevice == null && realmWatch.underAttack(attempt.realm(), options)
                && !captcha.check()) {
            a.undo();
            return Decision.realmUnderAttack(out.toSet(), out.degraded(), options, k, lockout, device);
        }

        // Step 2: layer 3's reservation.
        boolean reserved = false;
        if (p3 != null) {
            LayerOutcome r = reserve(p3, options, k, captcha.solved, now, out);
            if (r == LayerOutcome.BAND) {
                if (captcha.check()) {
                    r = reserve(p3, options, k, true, now, out);
                } else {
                    a.undo();
                    return new Decision(Outcome.CAPTCHA_REQUIRED, Layer.ACCOUNT_LOCKOUT, out.toSet(), out.degraded(), options, k, false, false, lockout, device);
                }
            }
            if (r.blocks()) {
                return new Decision(Outcome.BLOCKED, Layer.ACCOUNT_LOCKOUT, out.toSet(), out.degraded(), options, k, false, false, lockout, device);
            }
            reserved = r == LayerOutcome.COUNTED;
        }
        return new Decision(Outcome.ALLOW, null, out.toSet(), out.degraded(), options, k, reserved, reserved && out.lockoutShared,
                lockout, device);
    }

    /**
     * The password check ran and failed: the reservation is confirmed as a failure; at the threshold, lock. {@code passwordTag} is a keyed hash of the wrong password (0 when
     * unknown); with {@link GateOptions#ignoreRepeatedPasswords()} a wrong password identical to one of the
     * identifier's recent wrong passwords does not count again, so retyping the same typo never locks.
     *
     * <p>{@code otherNames} are the account's other login names (its username when an e-mail was typed, and the
     * other way round): the failure is recorded for them too, and a lock holds for all of them, so that an
     * account has one budget whatever name is typed. Unknown usernames have none.
     */
    public Set<Layer> passwordFailed(Decision d, long passwordTag, Collection<String> otherNames) {
        Outages out = new Outages();
        if (realmWatch != null && d.keys != null && d.allowed()) {
            // every failed check of an attempt the layers let through, unknown usernames included, with its network
            realmWatch.failed(d.keys.lockout().realm(), d.keys.crowdNetwork(), d.options.get(RealmSettings.MIN_NETWORKS));
        }
        if (!d.reserved) {
            return out.toSet();
        }
        LayerPolicy p3 = d.lockout;
        GateOptions o = d.options;
        long now = clock.millis();
        boolean typos = o.ignoreRepeatedPasswords() && passwordTag != 0;
        double factor = d.device ? 1.0 : o.progressiveFactor();
        long ttl = lockoutTtl(p3, o);
        List<CounterKey> others = d.device ? List.of() : otherKeys(d, otherNames);
        List<CompletableFuture<long[]>> pending = new ArrayList<>(1 + others.size());
        pending.add(store.apply(d.keys.lockout(), fail(p3, o, factor, passwordTag, typos, true, d.shared, now), ttl));
        for (CounterKey other : others) {
            pending.add(store.apply(other, fail(p3, o, factor, passwordTag, typos, false, false, now), ttl));
        }
        long[][] values = new long[pending.size()][];
        long lockedUntil = 0;
        for (int i = 0; i < values.length; i++) {
            values[i] = join(pending.get(i), p3, out);
            if (FailureOutcome.of(values[i]) == FailureOutcome.LOCKED) {
                lockedUntil = Math.max(lockedUntil, now + LockoutEntry.of(values[i]).lockRemaining(now));
            }
        }
        if (lockedUntil > 0 && values.length > 1) {
            // one of the account's names reached the threshold: the same lock, as long as the longest one, holds
            // for every name, so that no name is a way around it (nor a shorter progressive lock)
            List<CompletableFuture<long[]>> locks = new ArrayList<>();
            for (int i = 0; i < values.length; i++) {
                if (now + LockoutEntry.of(values[i]).lockRemaining(now) < lockedUntil) {
                    CounterKey key = i == 0 ? d.keys.lockout() : others.get(i - 1);
                    locks.add(store.apply(key, new Change.Lock(now, lockedUntil), ttl));
                }
            }
            locks.forEach(f -> join(f, p3, out));
        }
        return out.toSet();
    }

    /**
     * The password check ran and succeeded: the identifier's confirmed failures (and its run of locks) are
     * cleared, with this attempt's reservation, and so are those of the account's other login names.
     * Reservations of attempts still being checked stay theirs.
     */
    public Set<Layer> passwordSucceeded(Decision d, Collection<String> otherNames) {
        Outages out = new Outages();
        if (!d.reserved) {
            return out.toSet();
        }
        long now = clock.millis();
        boolean clearRun = d.options.progressiveFactor() > 1.0;
        long ttl = lockoutTtl(d.lockout, d.options);
        List<CounterKey> others = d.device ? List.of() : otherKeys(d, otherNames);
        // on a shared counter the right password only gives its own reservation back (see Slots)
        CompletableFuture<long[]> own = store.apply(d.keys.lockout(), new Change.Succeed(now, true, clearRun, d.shared), ttl);
        if (!others.isEmpty()) {
            List<CompletableFuture<long[]>> pending = new ArrayList<>(others.size());
            for (CounterKey other : others) {
                pending.add(store.apply(other, new Change.Succeed(now, false, clearRun, false), ttl));
            }
            pending.forEach(f -> join(f, d.lockout, out));
        }
        join(own, d.lockout, out);
        return out.toSet();
    }

    /** No password was checked after all (the form was incomplete, ...): give the reservation back. */
    public Set<Layer> notVerified(Decision d) {
        Outages out = new Outages();
        if (d.reserved) {
            long now = clock.millis();
            join(store.apply(d.keys.lockout(), new Change.GiveBack(now, d.shared), lockoutTtl(d.lockout, d.options)), d.lockout, out);
        }
        return out.toSet();
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
        return new Decision(closed == null ? Outcome.ALLOW : Outcome.BLOCKED, closed, down, Set.of(), options, null, false, false,
                options.policy(Layer.ACCOUNT_LOCKOUT), false);
    }

    // ---- what adapters need besides deciding ----

    /** The keyed tag of an identifier in a realm (what device cookies bind to): never the identifier itself. */
    public String identifierTag(String realm, String identifier) {
        return keys.identifierTag(realm, identifier);
    }

    /**
     * Records the first use of a captcha solution, identified by a digest of at least 16 bytes, until
     * {@code expiresAtMillis}. True on its first use; false on a replay. Throws when the store cannot tell.
     */
    public boolean firstUse(String realm, byte[] digest, long expiresAtMillis) {
        long now = clock.millis();
        long ttl = Math.max(1, expiresAtMillis - now);
        long[] v = store.apply(GateKeys.used(realm, digest), new Change.MarkUsed(now, now + ttl), ttl).join();
        if (v == null) {
            throw new CounterStoreFullException("no room to remember a used captcha solution");
        }
        return UsedEntry.firstUse(v);
    }

    /**
     * Whether a captcha solution, identified as for {@link #firstUse}, is already recorded as used. Reads only: a
     * solution checked here is recorded later, by {@link #firstUse}, when an attempt that checks a password spends it.
     * Throws when the store cannot tell.
     */
    public boolean used(String realm, byte[] digest) {
        long[] v = store.read(GateKeys.used(realm, digest));
        return v != null && UsedEntry.live(v, clock.millis());
    }

    /** The fifth, realm-wide layer; null when the gate runs without it. */
    public RealmWatch realmWatch() {
        return realmWatch;
    }

    /**
     * Whether the realm is under attack on this node for an attempt with {@code options} (the fifth layer on, and
     * the realm past its entry level); false when the gate runs without that layer.
     */
    public boolean realmUnderAttack(String realm, GateOptions options) {
        return realmWatch != null && options.get(RealmSettings.ENABLED) && realmWatch.underAttack(realm);
    }

    /**
     * What the gate holds about an address, an identifier and their pair (each part null when not asked), and for
     * an IPv6 address its network's layer-1 count at {@code ipv6NetworkPrefixLength} (0: not asked; null for an
     * IPv4 address or a network not shorter than the address's prefix).
     */
    public SubjectState state(String realm, String address, String identifier, int ipv6PrefixLength, int ipv6NetworkPrefixLength) {
        long now = clock.millis();
        GateKeys.Keys k = keys.forAttempt(realm, address, identifier, ipv6PrefixLength, ipv6NetworkPrefixLength);
        SubjectState.Network n = null;
        if (address != null && k.network() != null) {
            AddressEntry nv = AddressEntry.of(store.read(k.network()));
            n = new SubjectState.Network(nv.attempts(now), nv.attemptsRemaining(now));
        }
        SubjectState.Address a = null;
        SubjectState.Identifier i = null;
        SubjectState.Pair p = null;
        AddressEntry av = address == null ? null : AddressEntry.of(store.read(k.address()));
        if (address != null) {
            a = new SubjectState.Address(av.attempts(now), av.attemptsRemaining(now), av.distinct(now), av.distinctRemaining(now));
        }
        if (identifier != null) {
            LockoutEntry v = LockoutEntry.of(store.read(k.lockout()));
            i = new SubjectState.Identifier(v.taken(now), v.confirmed(now), v.failuresRemaining(now), v.lockRemaining(now),
                    v.lockRun(now));
        }
        if (address != null && identifier != null) {
            PairEntry v = PairEntry.of(store.read(k.pair()));
            p = new SubjectState.Pair(v.attempts(now), av.hasIdentifier(k.member(), now), v.remaining(now));
        }
        return new SubjectState(a, n, i, p);
    }

    /**
     * Clears what the gate holds about an address (layers 1 and 4), an identifier (layer 3: failures, lock,
     * run of locks, recent wrong passwords) and, with both, their pair (layer 2). Returns the parts cleared.
     */
    public Set<SubjectState.Part> clear(String realm, String address, String identifier, int ipv6PrefixLength) {
        return clear(realm, address, identifier, ipv6PrefixLength, 0);
    }

    /** As above, and for an IPv6 address its network's count at {@code ipv6NetworkPrefixLength} (0: not asked). */
    public Set<SubjectState.Part> clear(String realm, String address, String identifier, int ipv6PrefixLength,
                                        int ipv6NetworkPrefixLength) {
        GateKeys.Keys k = keys.forAttempt(realm, address, identifier, ipv6PrefixLength, ipv6NetworkPrefixLength);
        Set<SubjectState.Part> cleared = EnumSet.noneOf(SubjectState.Part.class);
        if (address != null) {
            removeAddressEntry(k.address());
            cleared.add(SubjectState.Part.ADDRESS);
            if (k.network() != null) {
                removeAddressEntry(k.network());
                cleared.add(SubjectState.Part.NETWORK);
            }
        }
        if (identifier != null) {
            store.remove(k.lockout());
            cleared.add(SubjectState.Part.IDENTIFIER);
        }
        if (address != null && identifier != null) {
            store.remove(k.pair());
            cleared.add(SubjectState.Part.PAIR);
        }
        return cleared;
    }

    /** Removes an address's (or a network's) entry, and what this node holds of its block. */
    private void removeAddressEntry(CounterKey key) {
        if (recentBlocks != null) {
            recentBlocks.forget(key);
        }
        store.remove(key);
        if (recentBlocks != null) {
            recentBlocks.forget(key); // an attempt answered before the removal may have remembered it
        }
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * The one rule for a device cookie, for layer 3's device budget and the realm layer's exemption alike: the
     * attempt's device (a verified cookie for the account the typed name belongs to, see {@link Attempt#device()}) counts only
     * while device cookies are on; otherwise null.
     */
    static String verifiedDevice(GateOptions options, Attempt attempt) {
        return options.deviceCookieEnabled() ? attempt.device() : null;
    }

    private static LayerPolicy active(GateOptions options, Layer layer) {
        LayerPolicy p = options.policy(layer);
        return p.enabled() ? p : null;
    }

    /** Where the captcha band starts for a policy: the first count at which a captcha is asked for. */
    static long bandStart(GateOptions options, LayerPolicy p) {
        return options.captchaEnabled() ? (long) Math.ceil(options.captchaFactor() * p.threshold()) : Long.MAX_VALUE;
    }

    private static long lockoutTtl(LayerPolicy p3, GateOptions o) {
        long lock = o.progressiveFactor() > 1.0 ? Math.max(p3.lockoutMillis(), o.maxLockoutSeconds() * 1000L) : p3.lockoutMillis();
        return p3.windowMillis() + lock;
    }

    private LayerOutcome reserve(LayerPolicy p3, GateOptions o, GateKeys.Keys k, boolean solved, long now, Outages out) {
        try {
            long[] v = store.apply(k.lockout(), new Change.Reserve(now, solved, limit(o, p3)), lockoutTtl(p3, o)).join();
            if (v == null) {
                throw new CounterStoreFullException("no room for a new identifier");
            }
            AdmissionAnswer answer = AdmissionAnswer.of(v);
            if (answer.shared()) {
                out.degrade(p3.layer());
            }
            out.lockoutShared = answer.shared();
            return answer.outcome();
        } catch (RuntimeException e) {
            return failed(p3, e, out);
        }
    }

    private static Change fail(LayerPolicy p3, GateOptions o, double factor, long passwordTag, boolean typos,
                               boolean reserved, boolean shared, long now) {
        return new Change.Fail(now, p3.threshold(), p3.windowMillis(), p3.lockoutMillis(), factor, o.maxLockoutSeconds() * 1000L,
                passwordTag, typos, reserved, shared);
    }

    /** A layer's limits as its changes apply them; {@link Limit#OFF} for a layer that is off. */
    private static Limit limit(GateOptions o, LayerPolicy p) {
        return p == null ? Limit.OFF : new Limit(p.threshold(), bandStart(o, p), p.windowMillis());
    }

    private List<CounterKey> otherKeys(Decision d, Collection<String> otherNames) {
        if (otherNames == null || otherNames.isEmpty()) {
            return List.of();
        }
        List<CounterKey> out = new ArrayList<>(otherNames.size());
        for (String name : otherNames) {
            if (name == null || name.isBlank()) {
                continue;
            }
            CounterKey key = keys.account(d.keys.lockout().realm(), name);
            if (!key.equals(d.keys.lockout()) && !out.contains(key)) {
                out.add(key);
            }
        }
        return out;
    }

    /** Waits for a settlement change; a failure is recorded against the layer and otherwise ignored. */
    private static long[] join(CompletableFuture<long[]> f, LayerPolicy p, Outages out) {
        try {
            return f.join();
        } catch (RuntimeException e) {
            failed(p, e, out);
            return null;
        }
    }

    /**
     * A layer whose store failed: recorded, and answered by its failure mode, FAIL_CLOSED as {@link
     * LayerOutcome#BLOCKED}, FAIL_OPEN as {@link LayerOutcome#OFF} (it passes and holds nothing).
     */
    private static LayerOutcome failed(LayerPolicy p, RuntimeException e, Outages out) {
        out.add(p.layer(), e);
        return p.failureMode() == FailureMode.FAIL_CLOSED ? LayerOutcome.BLOCKED : LayerOutcome.OFF;
    }

    /** Step 1: the address's and the pair's changes, sent together. */
    private final class Admission {
        private final GateOptions o;
        private final GateKeys.Keys k;
        private final LayerPolicy p1;
        /** Layer 1 for an IPv6 address's network (null: not counted). */
        private final LayerPolicy pN;
        private final LayerPolicy p2;
        private final LayerPolicy p4;
        private final long now;
        private final Outages out;
        /** Layer 1 and 4 from the address's change, layer 1 again from the network's, layer 2 from the pair's. */
        private LayerOutcome r1 = LayerOutcome.OFF;
        private LayerOutcome rN = LayerOutcome.OFF;
        private LayerOutcome r2 = LayerOutcome.OFF;
        private LayerOutcome r4 = LayerOutcome.OFF;
        /** Whether the address's last change failed (its outcome is then the layers' failure modes). */
        private boolean addressFailed;
        private boolean networkFailed;
        private boolean added;
        private boolean addressCounted;
        private boolean networkCounted;
        /** Whether the address's or the pair's last change was counted on a shared counter (never given back). */
        private boolean addressShared;
        private boolean pairShared;

        Admission(GateOptions o, GateKeys.Keys k, LayerPolicy p1, LayerPolicy pN, LayerPolicy p2, LayerPolicy p4, long now,
                  Outages out) {
            this.out = out;
            this.o = o;
            this.k = k;
            this.p1 = p1;
            this.pN = pN;
            this.p2 = p2;
            this.p4 = p4;
            this.now = now;
        }

        private boolean addressUsed() {
            return p1 != null || p4 != null;
        }

        private CompletableFuture<long[]> address(boolean solved) {
            return start(k.address(), new Change.AdmitAddress(now, solved, limit(o, p1), limit(o, p4), k.member()),
                    Math.max(p1 == null ? 0 : p1.windowMillis(), p4 == null ? 0 : p4.windowMillis()));
        }

        /** The network's entry is an address entry counting layer 1 only (no identifiers). */
        private CompletableFuture<long[]> network(boolean solved) {
            return start(k.network(), new Change.AdmitAddress(now, solved, limit(o, pN), Limit.OFF, k.member()), pN.windowMillis());
        }

        private CompletableFuture<long[]> pair(boolean solved) {
            return start(k.pair(), new Change.AdmitPair(now, solved, limit(o, p2)), p2.windowMillis());
        }

        /** Sends the changes together (one round trip) and reads their answers. */
        void run(boolean solved) {
            send(addressUsed(), pN != null, p2 != null, solved);
        }

        private void send(boolean doAddress, boolean doNetwork, boolean doPair, boolean solved) {
            CompletableFuture<long[]> fa = doAddress ? address(solved) : null;
            CompletableFuture<long[]> fn = doNetwork ? network(solved) : null;
            CompletableFuture<long[]> fp = doPair ? pair(solved) : null;
            if (fa != null) {
                try {
                    AdmissionAnswer answer = admitted(fa, "address");
                    r1 = answer.outcome();
                    r4 = answer.identifiers();
                    addressFailed = false;
                    if (answer.shared()) {
                        addressShared = true;
                        degrade(p1);
                        degrade(p4);
                    } else {
                        added |= answer.identifierAdded();
                        addressCounted |= answer.counted();
                    }
                } catch (RuntimeException e) {
                    addressFailed = true;
                    r1 = p1 == null ? LayerOutcome.OFF : failed(p1, e, out);
                    r4 = p4 == null ? LayerOutcome.OFF : failed(p4, e, out);
                }
            }
            if (fn != null) {
                try {
                    AdmissionAnswer answer = admitted(fn, "network");
                    rN = answer.outcome();
                    networkFailed = false;
                    if (answer.shared()) {
                        degrade(pN);
                    } else {
                        networkCounted |= answer.counted();
                    }
                } catch (RuntimeException e) {
                    networkFailed = true;
                    rN = failed(pN, e, out);
                }
            }
            if (fp != null) {
                try {
                    AdmissionAnswer answer = admitted(fp, "pair");
                    r2 = answer.outcome();
                    if (answer.shared()) {
                        pairShared = true;
                        degrade(p2);
                    }
                } catch (RuntimeException e) {
                    r2 = failed(p2, e, out);
                }
            }
        }

        /** The answer of an admission change; a store with no room for the subject (no entry) throws. */
        private AdmissionAnswer admitted(CompletableFuture<long[]> f, String subject) {
            long[] v = f.join();
            if (v == null) {
                throw new CounterStoreFullException("no room for a new " + subject);
            }
            return AdmissionAnswer.of(v);
        }

        private void degrade(LayerPolicy p) {
            if (p != null) {
                out.degrade(p.layer());
            }
        }

        Layer blocked() {
            if (isBlocked(r1) || isBlocked(rN)) {
                return Layer.PER_IP;
            }
            if (isBlocked(r2)) {
                return Layer.PER_IP_ACCOUNT;
            }
            if (isBlocked(r4)) {
                return Layer.CREDENTIAL_STUFFING;
            }
            return null;
        }

        boolean inBand() {
            return r1 == LayerOutcome.BAND || rN == LayerOutcome.BAND || r2 == LayerOutcome.BAND || r4 == LayerOutcome.BAND;
        }

        Layer bandLayer() {
            return r1 == LayerOutcome.BAND || rN == LayerOutcome.BAND ? Layer.PER_IP : r2 == LayerOutcome.BAND ? Layer.PER_IP_ACCOUNT : Layer.CREDENTIAL_STUFFING;
        }

        /** Counts, with a solved captcha, the entries whose change answered BAND (and counted nothing). */
        void rerunBand() {
            boolean addressBand = r1 == LayerOutcome.BAND || r4 == LayerOutcome.BAND;
            boolean networkBand = rN == LayerOutcome.BAND;
            boolean pairBand = r2 == LayerOutcome.BAND;
            send(addressBand, networkBand, pairBand, true);
        }

        /** A blocked attempt counts where it was in the band, too (it needs no captcha to be counted). */
        void countBand() {
            if (inBand()) {
                rerunBand();
            }
        }

        /** A captcha answer counts nothing: gives back what the changes counted. */
        void undo() {
            CompletableFuture<long[]> fa = addressUsed() && addressCounted
                    ? start(k.address(), new Change.UndoAddress(now, p1 != null, added, k.member(),
                    p1 == null ? 0 : now + p1.windowMillis(), p4 == null ? 0 : now + p4.windowMillis()),
                    Math.max(p1 == null ? 0 : p1.windowMillis(), p4 == null ? 0 : p4.windowMillis()))
                    : null;
            CompletableFuture<long[]> fn = networkCounted
                    ? start(k.network(), new Change.UndoAddress(now, true, false, k.member(), now + pN.windowMillis(), 0),
                    pN.windowMillis())
                    : null;
            CompletableFuture<long[]> fp = r2 == LayerOutcome.COUNTED && !pairShared
                    ? start(k.pair(), new Change.UndoPair(now, now + p2.windowMillis()), p2.windowMillis())
                    : null;
            if (fa != null) {
                join(fa, p1 != null ? p1 : p4, out);
            }
            if (fn != null) {
                join(fn, pN, out);
            }
            if (fp != null) {
                join(fp, p2, out);
            }
        }

        private boolean isBlocked(LayerOutcome r) {
            return r.blocks();
        }
    }

    /** Starts a store change; a store that throws instead of completing exceptionally gets the same treatment. */
    private CompletableFuture<long[]> start(CounterKey key, Change change, long ttlMillis) {
        try {
            return store.apply(key, change, ttlMillis);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The attempt's captcha: checked once, when the answer depends on it. */
    private static final class Captcha {
        private boolean solved;
        private BooleanSupplier check;

        Captcha(BooleanSupplier check) {
            this.check = check;
        }

        boolean check() {
            if (!solved && check != null) {
                BooleanSupplier c = check;
                check = null;
                solved = c.getAsBoolean();
            }
            return solved;
        }
    }

    /**
     * The layers whose store failed during one call, and those counted on a shared counter because the store was
     * at its bound (degraded, not failed). Plain bit sets rather than {@code EnumSet}s: nearly every attempt has
     * none.
     */
    private static final class Outages {
        private int bits;
        private int degradedBits;
        /** Whether the last layer-3 reservation was taken on a shared counter. */
        boolean lockoutShared;

        void add(Layer layer, RuntimeException e) {
            bits |= 1 << layer.ordinal();
        }

        void degrade(Layer layer) {
            degradedBits |= 1 << layer.ordinal();
        }

        Set<Layer> toSet() {
            return set(bits);
        }

        Set<Layer> degraded() {
            return set(degradedBits);
        }

        private static Set<Layer> set(int bits) {
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
}
