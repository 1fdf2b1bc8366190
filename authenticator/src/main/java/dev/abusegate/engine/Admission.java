package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.spray.SprayLayer;
import dev.abusegate.engine.store.LayerOutcome;
import java.util.function.BooleanSupplier;

/**
 * The first moment of a login, before any lookup or hash: layers 1, 2 and 4 (with an IPv6 address's network,
 * {@link AdmissionCounts}), the fifth, realm-wide layer, the password-spray layer ({@link SprayLayer}), and then layer 3's reservation ({@link LockoutReservation}).
 * Answers ALLOW, CAPTCHA_REQUIRED or BLOCKED; see {@link AbuseGate} for the rules.
 */
final class Admission {

    private final GateParts parts;
    private final SprayLayer spray;

    Admission(GateParts parts, SprayLayer spray) {
        this.parts = parts;
        this.spray = spray;
    }

    /** See {@link AbuseGate#evaluate}. */
    Decision evaluate(GateOptions options, Attempt attempt, BooleanSupplier captchaCheck, boolean realmLayer, long passwordBucket) {
        long now = parts.clock().millis();
        AttemptKeys k = parts.keys().forAttempt(attempt, options.ipv6PrefixLength(), options.ipv6NetworkPrefixCounted());
        StoreCall call = new StoreCall(parts.store());

        // An allowlisted address skips the address layers; layer 3 applies to everyone.
        boolean allowlisted = AddressPolicies.allowlisted(options, attempt.address());
        AddressPolicies policies = AddressPolicies.of(options, k, allowlisted);
        LayerPolicy p3 = Limits.active(options, Layer.ACCOUNT_LOCKOUT);
        // A verified device cookie moves layer 3 to the device's own small budget: the account's lock (set by
        // failures from elsewhere) does not apply to its owner's known browser, and a stolen cookie gives no
        // more than that budget.
        String verifiedDevice = Limits.verifiedDevice(options, attempt);
        boolean device = p3 != null && verifiedDevice != null;
        if (device) {
            k = k.forDevice(verifiedDevice);
            p3 = p3.withThreshold(options.deviceCookieThreshold());
        }
        Reservation.Scope scope = new Reservation.Scope(options, k, p3 == null ? options.policy(Layer.ACCOUNT_LOCKOUT) : p3, device,
                passwordBucket);
        Reservation nothing = Reservation.none(scope);
        AttemptKeys keys = k;
        if (parts.recentBlocks().filter(rb -> policies.heldIn(rb, keys, now)).isPresent()) {
            return Decision.block(Layer.PER_IP, call.outages(), nothing);
        }
        // Verified only where an answer is in the band: with the band off that is only a shared count past a
        // threshold, which asks for a captcha instead of blocking (so even a realm without a band can pass it).
        LazyCaptcha captcha = new LazyCaptcha(captchaCheck);
        // the password-spray layer's read of its bucket, sent with step 1's changes (no wait of its own); only where the
        // fifth layer applies: a step that can carry a captcha, with the password
        SprayLayer.Probe sprayProbe = realmLayer ? spray.probe(options, k, passwordBucket, now) : null;
        AdmissionStep step = new AdmissionStep(call, options, k, now);
        AdmissionCounts a = new AdmissionCounts(step, policies);
        long clearsBefore = parts.recentBlocks().map(RecentBlocks::clears).orElse(0L);
        long hintClearsBefore = parts.edgeHints().clears();

        // Step 1: the address and the pair.
        a.run(captcha.solved());
        Layer blocked = a.blocked();
        parts.recentBlocks().ifPresent(rb -> policies.remember(rb, a, keys, now, clearsBefore));
        policies.rememberHint(parts.edgeHints(), a, keys, now, hintClearsBefore);
        if (blocked == null && a.inBand()) {
            if (captcha.check()) {
                a.rerunBand(); // the band's changes counted nothing: count them now, with the solution
                blocked = a.blocked();
            } else {
                a.undo();
                return Decision.captcha(a.bandLayer(), call.outages(), nothing);
            }
        }
        if (blocked != null) {
            a.countBand(); // a blocked attempt counts on layers 1, 2 and 4, also where it was in the band
            return Decision.block(blocked, call.outages(), nothing);
        }

        // The fifth layer: while the realm is under attack every attempt needs a solved captcha, except one with a
        // verified device cookie for the typed account or from an allowlisted address. It never blocks, and its
        // captcha counts nothing (what step 1 counted is given back), like the band's; nor does the realm's tally count
        // the attempt it turns away (no password was checked), so that no one holds the state for free.
        if (realmLayer && !allowlisted && verifiedDevice == null
                && parts.realmWatch().filter(w -> w.underAttack(attempt.realm(), options)).isPresent() && !captcha.check()) {
            a.undo();
            return Decision.realmCaptcha(call.outages(), nothing);
        }

        // The password-spray layer: a sprayed bucket needs a solved captcha. It never blocks, and its captcha counts
        // nothing (what step 1 counted is given back).
        boolean sprayed = sprayProbe != null && sprayed(sprayProbe, call);
        if (sprayed && !captcha.check()) {
            a.undo();
            return Decision.captcha(Layer.PASSWORD_SPRAY, call.outages(), nothing);
        }
        // a sprayed bucket read from the store (not a failure mode) marks the attempt, for the settlement's event
        Reservation passed = sprayed && sprayProbe.failure() == null ? nothing.sprayed() : nothing;

        // what the fifth layer's second look before the password check exempts (AbuseGate#realmEnteredMeanwhile)
        boolean realmExempt = !realmLayer || allowlisted || verifiedDevice != null || captcha.solved();

        // Step 2: layer 3's reservation.
        if (p3 == null) {
            return Decision.allow(call.outages(), passed.realmExempt(realmExempt));
        }
        LockoutReservation reservation = new LockoutReservation(step, p3);
        LayerOutcome r = reservation.take(captcha.solved());
        if (r == LayerOutcome.BAND) {
            if (captcha.check()) {
                r = reservation.take(true);
            } else {
                a.undo();
                return Decision.captcha(Layer.ACCOUNT_LOCKOUT, call.outages(), nothing);
            }
        }
        if (r.blocks()) {
            return Decision.block(Layer.ACCOUNT_LOCKOUT, call.outages(), nothing);
        }
        Reservation held = Reservation.held(scope, reservation.hold(r));
        return Decision.allow(call.outages(), (passed == nothing ? held : held.sprayed()).realmExempt(realmExempt));
    }

    /** The spray layer's answer for one attempt, its store's failure or shared count recorded. */
    private static boolean sprayed(SprayLayer.Probe probe, StoreCall call) {
        boolean sprayed = probe.sprayed();
        if (probe.failure() != null) {
            call.failed(probe.policy(), probe.failure());
        } else if (probe.shared()) {
            call.degrade(probe.policy());
        }
        return sprayed;
    }
}
