package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.keys.SecretSource;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.spray.PasswordBuckets;
import dev.abusegate.engine.spray.SprayLayer;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.CounterStore;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The four-layer gate, read along a login's timeline: {@link Admission} before any user lookup or password hash
 * (answering ALLOW, CAPTCHA_REQUIRED or BLOCKED, and taking layer 3's {@link Reservation} through
 * {@link LockoutReservation}), {@link PasswordSettlement} after the password check, {@link CaptchaRecords} when a
 * solution is spent, and {@link SubjectView} for admins. This class is their one entry point. It is bookkeeping
 * only: counters, thresholds and windows.
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
 * {@link Decision#unavailable()} (with its cause in {@link Decision#outages()}), FAIL_CLOSED blocks. A store at its
 * bound has not failed: it counts a subject it has no room for on its realm's shared counter
 * ({@link AdmissionAnswer#shared()}): an address's or a pair's never blocks but asks for a captcha where an exact
 * count would block; an account's blocks where an exact count would, solved captcha or not; the decision reports
 * such layers in {@link Decision#degraded()}. An attempt counted on a shared counter is never given back there (a
 * shared count only ever over-counts), and its layer-3 reservation is settled on the shared counter, where a right
 * password clears nobody's failures.
 *
 * <p>With a hold (for a store whose changes are round trips, such as a cluster), an address the store has just
 * blocked on layer 1 is answered as blocked without a change for the hold, then written again
 * ({@link RecentBlocks}).
 */
public final class AbuseGate {

    private final GateParts parts;
    private final Admission admission;
    private final EdgeAdmission edge;
    private final PasswordSettlement settlement;
    private final CaptchaRecords captchas;
    private final SubjectView subjects;
    private final SprayLayer spray;

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
        if (blockedHoldMillis < 0) {
            throw new IllegalArgumentException("blockedHoldMillis must not be negative, was " + blockedHoldMillis);
        }
        this.parts = new GateParts(Objects.requireNonNull(store, "store"), Objects.requireNonNull(clock, "clock"),
                new GateKeys(Objects.requireNonNull(secrets, "secrets")),
                new GateParts.NodeBlocks(blockedHoldMillis == 0 ? Optional.empty() : Optional.of(new RecentBlocks(blockedHoldMillis)),
                        RecentBlocks.edgeHints()),
                Optional.ofNullable(realmWatch));
        this.spray = new SprayLayer(parts.store());
        this.admission = new Admission(parts, spray);
        this.edge = new EdgeAdmission(parts);
        this.settlement = new PasswordSettlement(parts, spray);
        this.captchas = new CaptchaRecords(parts);
        this.subjects = new SubjectView(parts);
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
        return evaluate(options, attempt, captchaCheck, realmLayer, NO_PASSWORD_BUCKET);
    }

    /**
     * As above, with the bucket of the attempt's password ({@link #passwordBucket}; {@link #NO_PASSWORD_BUCKET}: none)
     * for the password-spray layer: where {@code realmLayer} (a step that can carry a captcha), an attempt whose bucket
     * is at or past the layer's threshold needs a solved captcha; a failed check counts the bucket
     * ({@link #passwordFailed}).
     */
    public Decision evaluate(GateOptions options, Attempt attempt, BooleanSupplier captchaCheck, boolean realmLayer,
                             long passwordBucket) {
        return admission.evaluate(options, attempt, captchaCheck, realmLayer, passwordBucket);
    }

    /** No password bucket: no password came, or the password-spray layer is off. */
    public static final long NO_PASSWORD_BUCKET = PasswordBuckets.NONE;

    /**
     * The password-spray layer's bucket of {@code password} in {@code realm} (one HMAC under the realm's spray key,
     * which {@code key} gives only when needed); {@link #NO_PASSWORD_BUCKET} when the layer is off or the password is
     * missing. Never the password or a full-length hash of it (see {@link PasswordBuckets}).
     */
    public long passwordBucket(GateOptions options, String realm, Supplier<byte[]> key, String password) {
        return !SprayLayer.on(options) || Passwords.missing(password) ? NO_PASSWORD_BUCKET
                : spray.buckets().bucket(realm, key.get(), password);
    }

    /**
     * Decides an attempt before Keycloak's flow runs, for an address this node has seen blocked on layer 1 or 4 or in the
     * captcha band (see {@link EdgeAdmission}): the flow's decision when step 1 alone makes it (BLOCKED, or
     * CAPTCHA_REQUIRED from the band for an attempt without a captcha solution), counted as the flow counts it;
     * otherwise null, with nothing counted, and the flow decides the attempt as always. {@code attempt} carries no
     * device (layers 1, 2 and 4 do not depend on one). {@code reachesGate} says whether Keycloak would run the flow up
     * to the gate for this request at all; it is asked only for a hinted address, before anything is counted (false:
     * null).
     */
    public Decision evaluateAtEdge(GateOptions options, Attempt attempt, boolean solutionCarried, BooleanSupplier reachesGate) {
        return edge.evaluate(options, attempt, solutionCarried, reachesGate);
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
    public Outages passwordFailed(Decision d, long passwordTag, Collection<String> otherNames) {
        return settlement.failed(d, passwordTag, otherNames);
    }

    /**
     * The password check ran and succeeded: the identifier's confirmed failures (and its run of locks) are
     * cleared, with this attempt's reservation, and so are those of the account's other login names.
     * Reservations of attempts still being checked stay theirs.
     */
    public Outages passwordSucceeded(Decision d, Collection<String> otherNames) {
        return settlement.succeeded(d, otherNames);
    }

    /** No password was checked after all (the form was incomplete, ...): give the reservation back. */
    public Outages notVerified(Decision d) {
        return settlement.notVerified(d);
    }

    /**
     * The answer when the gate cannot even derive its keys (e.g. the realm's key material is unavailable):
     * every enabled layer is unavailable and follows its failure mode, the first FAIL_CLOSED one blocking.
     */
    public Decision unavailable(GateOptions options) {
        return unavailable(options, new IllegalStateException("the gate's keys are unavailable"));
    }

    /** As above, each layer's outage with {@code cause}. */
    public Decision unavailable(GateOptions options, RuntimeException cause) {
        Map<Layer, Outages.Outage> down = new EnumMap<>(Layer.class);
        Layer closed = null;
        for (Layer layer : Layer.values()) {
            LayerPolicy p = options.policy(layer);
            // a layer that never blocks (the password-spray layer) asks for a captcha, which is not offered without keys
            if (p.enabled() && layer.blocks()) {
                down.put(layer, new Outages.Outage(layer, cause));
                if (closed == null && p.failureMode() == FailureMode.FAIL_CLOSED) {
                    closed = layer;
                }
            }
        }
        Outages outages = new Outages(down, Set.of());
        return closed == null ? Decision.allow(outages, Reservation.NONE) : Decision.block(closed, outages, Reservation.NONE);
    }

    // ---- what adapters need besides deciding ----

    /** The keyed tag of an identifier in a realm (what device cookies bind to): never the identifier itself. */
    public String identifierTag(String realm, String identifier) {
        return parts.keys().identifierTag(realm, identifier);
    }

    /**
     * Records the first use of a captcha solution, identified by a digest of at least 16 bytes, until
     * {@code expiresAtMillis}. True on its first use; false on a replay. Throws when the store cannot tell.
     */
    public boolean firstUse(String realm, byte[] digest, long expiresAtMillis) {
        return captchas.firstUse(realm, digest, expiresAtMillis);
    }

    /**
     * Whether a captcha solution, identified as for {@link #firstUse}, is already recorded as used. Reads only: a
     * solution checked here is recorded later, by {@link #firstUse}, when an attempt that checks a password spends it.
     * Throws when the store cannot tell.
     */
    public boolean used(String realm, byte[] digest) {
        return captchas.used(realm, digest);
    }

    /** The fifth, realm-wide layer; null when the gate runs without it. */
    public RealmWatch realmWatch() {
        return parts.realmWatch().orElse(null);
    }

    /**
     * Whether the realm is under attack on this node for an attempt with {@code options} (the fifth layer on, and
     * the realm past its entry level); false when the gate runs without that layer.
     */
    public boolean realmUnderAttack(String realm, GateOptions options) {
        return options.get(RealmSettings.ENABLED) && parts.realmWatch().filter(w -> w.underAttack(realm)).isPresent();
    }

    /**
     * The fifth layer's second look at an attempt let through before its realm entered "under attack" and still
     * waiting for its password check when it did (see {@code PasswordCheckQueue}): null when the attempt goes on to its
     * check (it was exempt at admission, the realm is not under attack, or {@code captchaCheck} verifies a solution
     * now), else the captcha admission gives every such attempt now. Exempt at admission: a step without the fifth
     * layer, an allowlisted address, a verified device cookie, a captcha solution verified then. The caller then gives
     * back what the attempt holds on layer 3 ({@link #notVerified}); what layers 1, 2 and 4 counted at admission stays
     * counted, as for any attempt let through.
     *
     * @param captchaCheck verifies (and spends) a solution the attempt carries, at the realm's harder captcha; null:
     *                     none came with it
     */
    public Decision realmEnteredMeanwhile(GateOptions options, String realm, Decision admitted, BooleanSupplier captchaCheck) {
        Reservation r = admitted.reservation();
        if (!admitted.allowed() || r.realmExempt || !realmUnderAttack(realm, options)
                || captchaCheck != null && captchaCheck.getAsBoolean()) {
            return null;
        }
        return Decision.realmCaptcha(admitted.outages(), r.scope.map(Reservation::none).orElse(r));
    }

    /**
     * What the gate holds about an address, an identifier and their pair (each part null when not asked), and for
     * an IPv6 address its network's layer-1 count at {@code ipv6NetworkPrefixLength} (0: not asked; null for an
     * IPv4 address or a network not shorter than the address's prefix).
     */
    public SubjectState state(String realm, String address, String identifier, int ipv6PrefixLength, int ipv6NetworkPrefixLength) {
        return subjects.state(new SubjectView.Subject(realm, address, identifier, ipv6PrefixLength, ipv6NetworkPrefixLength));
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
        return subjects.clear(new SubjectView.Subject(realm, address, identifier, ipv6PrefixLength, ipv6NetworkPrefixLength));
    }
}
