package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.spray.PasswordBuckets;
import java.util.Optional;

/**
 * What an attempt holds on layer 3 after admission, opaque to everyone but the settlement ({@link PasswordSettlement}):
 * the attempt's keys and layer-3 policy ({@link Scope}), and whether it took a slot of the identifier's failure
 * budget that the password check's outcome must settle ({@link Hold}), whether its password's bucket is being
 * sprayed, and whether the fifth layer passed it on an exemption. {@link #NONE} when the gate could not even derive
 * the attempt's keys.
 */
public final class Reservation {

    /** No keys, nothing held: nothing to settle and nothing to count. */
    static final Reservation NONE = new Reservation(Optional.empty(), Hold.NONE, false, false);

    /** Whether, and where, the attempt took a slot of the identifier's failure budget. */
    enum Hold {
        /** Nothing taken (layer 3 off, not reached, or its store failed open). */
        NONE,
        /** A slot of the identifier's own entry. */
        EXACT,
        /** A slot of its realm's shared counter (the store was at its bound): settled there. */
        SHARED
    }

    /**
     * The attempt as layer 3 sees it.
     *
     * @param options the realm's options as the attempt was decided with
     * @param keys    the attempt's keys
     * @param lockout layer 3's policy as applied to this attempt (a device's own budget, with a device cookie)
     * @param device  whether the attempt came with a verified device cookie (its own budget, no other names)
     * @param passwordBucket the password-spray layer's bucket of the attempt's password ({@link PasswordBuckets#NONE}:
     *                none), which a failed check counts
     */
    record Scope(GateOptions options, AttemptKeys keys, LayerPolicy lockout, boolean device, long passwordBucket) {
    }

    final Optional<Scope> scope;
    final Hold hold;
    /** Whether the attempt's password bucket was at or past the spray threshold (it passed with a solved captcha). */
    final boolean sprayed;
    /**
     * Whether the fifth layer lets the attempt pass whatever the realm's state: a step that does not apply it, an
     * allowlisted address, a verified device cookie, or a captcha solution verified at admission.
     */
    final boolean realmExempt;

    private Reservation(Optional<Scope> scope, Hold hold, boolean sprayed, boolean realmExempt) {
        this.scope = scope;
        this.hold = hold;
        this.sprayed = sprayed;
        this.realmExempt = realmExempt;
    }

    /** An attempt's scope holding nothing (an answer other than ALLOW, or nothing taken). */
    static Reservation none(Scope scope) {
        return new Reservation(Optional.of(scope), Hold.NONE, false, false);
    }

    /** An attempt's scope holding {@code hold}. */
    static Reservation held(Scope scope, Hold hold) {
        return new Reservation(Optional.of(scope), hold, false, false);
    }

    /** The same, its password's bucket being sprayed (see {@link Decision#passwordSprayed()}). */
    Reservation sprayed() {
        return new Reservation(scope, hold, true, realmExempt);
    }

    /** The same, exempt from the fifth layer ({@link #realmExempt}) when {@code exempt}. */
    Reservation realmExempt(boolean exempt) {
        return exempt == realmExempt ? this : new Reservation(scope, hold, sprayed, exempt);
    }

    /** Whether a slot was taken that the settlement must settle. */
    boolean taken() {
        return hold != Hold.NONE;
    }

    /** The keyed tag of the attempt's identifier, when its keys could be derived. */
    Optional<String> identifierTag() {
        return scope.map(s -> s.keys().identifierTag());
    }
}
