package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.spray.SprayLayer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.FailureOutcome;
import dev.abusegate.engine.store.LockoutEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The last moment of a login, after the password check: settles the attempt's {@link Reservation} on layer 3 (a
 * failure, a success, or nothing verified), for every login name of the account, and counts a failed check for the
 * fifth, realm-wide layer and the password-spray layer ({@link SprayLayer}). Each call answers what went wrong with the
 * store ({@link Outages}); it never throws because of the store.
 */
final class PasswordSettlement {

    private final GateParts parts;
    private final SprayLayer spray;

    PasswordSettlement(GateParts parts, SprayLayer spray) {
        this.parts = parts;
        this.spray = spray;
    }

    /** See {@link AbuseGate#passwordFailed}. */
    Outages failed(Decision d, long passwordTag, Collection<String> otherNames) {
        StoreCall call = new StoreCall(parts.store());
        Reservation r = d.reservation();
        Optional<Reservation.Scope> checked = d.allowed() ? r.scope : Optional.empty();
        // every failed check of an attempt the layers let through, unknown usernames included, with its network
        checked.ifPresent(s -> parts.realmWatch().ifPresent(w -> w.failed(s.keys().lockout().realm(), s.keys().crowdNetwork(),
                s.options().get(RealmSettings.MIN_NETWORKS))));
        // the password-spray layer: the account joins its password's bucket, sent with layer 3's change (no wait of its own)
        long now = parts.clock().millis();
        Optional<CompletableFuture<long[]>> sprayCount = checked.map(s -> spray.failed(s.options(), s.keys(), s.passwordBucket(), now));
        if (r.taken()) {
            lockoutFailed(r, passwordTag, otherNames, call);
        }
        checked.ifPresent(s -> sprayCount.ifPresent(f -> call.join(f, s.options().policy(Layer.PASSWORD_SPRAY))));
        return call.outages();
    }

    /** Layer 3's part of a failed check: the reservation confirmed as a failure, for every name; at the threshold, lock. */
    private void lockoutFailed(Reservation r, long passwordTag, Collection<String> otherNames, StoreCall call) {
        Reservation.Scope s = r.scope.orElseThrow();
        LayerPolicy p3 = s.lockout();
        GateOptions o = s.options();
        long now = parts.clock().millis();
        FailedCheck check = new FailedCheck(now, o.ignoreRepeatedPasswords() && passwordTag != 0, s.device() ? 1.0 : o.progressiveFactor(),
                passwordTag);
        long ttl = Limits.lockoutTtl(p3, o);
        List<CounterKey> others = s.device() ? List.of() : otherKeys(s, otherNames);
        List<CompletableFuture<long[]>> pending = new ArrayList<>(1 + others.size());
        pending.add(parts.store().apply(s.keys().lockout(), check.change(s, true, r.hold == Reservation.Hold.SHARED), ttl));
        for (CounterKey other : others) {
            pending.add(parts.store().apply(other, check.change(s, false, false), ttl));
        }
        long[][] values = new long[pending.size()][];
        long lockedUntil = 0;
        for (int i = 0; i < values.length; i++) {
            values[i] = call.join(pending.get(i), p3);
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
                    CounterKey key = i == 0 ? s.keys().lockout() : others.get(i - 1);
                    locks.add(parts.store().apply(key, new Change.Lock(now, lockedUntil), ttl));
                }
            }
            locks.forEach(f -> call.join(f, p3));
        }
    }

    /**
     * A wrong password as each of the account's names records it.
     *
     * @param now         the settlement's time
     * @param rememberTypos whether the password's tag is remembered, so that the same typo does not count twice
     * @param factor      the progressive lockout's factor (1 for a device's own budget)
     * @param passwordTag the keyed hash of the wrong password (0: unknown)
     */
    private record FailedCheck(long now, boolean rememberTypos, double factor, long passwordTag) {
        Change change(Reservation.Scope s, boolean reserved, boolean shared) {
            LayerPolicy p3 = s.lockout();
            Change.Fail.LockRule rule = new Change.Fail.LockRule(p3.threshold(), p3.windowMillis(), p3.lockoutMillis(), factor,
                    s.options().maxLockoutSeconds() * 1000L);
            return new Change.Fail(now, rule, passwordTag, new Change.Fail.Counted(rememberTypos, reserved, shared));
        }
    }

    /** See {@link AbuseGate#passwordSucceeded}. */
    Outages succeeded(Decision d, Collection<String> otherNames) {
        StoreCall call = new StoreCall(parts.store());
        Reservation r = d.reservation();
        if (!r.taken()) {
            return call.outages();
        }
        Reservation.Scope s = r.scope.orElseThrow();
        long now = parts.clock().millis();
        boolean clearRun = s.options().progressiveFactor() > 1.0;
        long ttl = Limits.lockoutTtl(s.lockout(), s.options());
        List<CounterKey> others = s.device() ? List.of() : otherKeys(s, otherNames);
        // on a shared counter the right password only gives its own reservation back (see Slots)
        CompletableFuture<long[]> own = parts.store().apply(s.keys().lockout(),
                new Change.Succeed(now, true, clearRun, r.hold == Reservation.Hold.SHARED), ttl);
        if (!others.isEmpty()) {
            List<CompletableFuture<long[]>> pending = new ArrayList<>(others.size());
            for (CounterKey other : others) {
                pending.add(parts.store().apply(other, new Change.Succeed(now, false, clearRun, false), ttl));
            }
            pending.forEach(f -> call.join(f, s.lockout()));
        }
        call.join(own, s.lockout());
        return call.outages();
    }

    /** See {@link AbuseGate#notVerified}. */
    Outages notVerified(Decision d) {
        StoreCall call = new StoreCall(parts.store());
        Reservation r = d.reservation();
        if (r.taken()) {
            Reservation.Scope s = r.scope.orElseThrow();
            long now = parts.clock().millis();
            call.join(parts.store().apply(s.keys().lockout(), new Change.GiveBack(now, r.hold == Reservation.Hold.SHARED),
                    Limits.lockoutTtl(s.lockout(), s.options())), s.lockout());
        }
        return call.outages();
    }

    private List<CounterKey> otherKeys(Reservation.Scope s, Collection<String> otherNames) {
        if (otherNames == null || otherNames.isEmpty()) {
            return List.of();
        }
        List<CounterKey> out = new ArrayList<>(otherNames.size());
        for (String name : otherNames) {
            if (name == null || name.isBlank()) {
                continue;
            }
            CounterKey key = parts.keys().account(s.keys().lockout().realm(), name);
            if (!key.equals(s.keys().lockout()) && !out.contains(key)) {
                out.add(key);
            }
        }
        return out;
    }
}
