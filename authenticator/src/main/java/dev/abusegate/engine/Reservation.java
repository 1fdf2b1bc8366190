package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.AttemptKeys;
import java.util.Optional;

/**
 * What an attempt holds on layer 3 after admission, opaque to everyone but the settlement ({@link PasswordSettlement}):
 * the attempt's keys and layer-3 policy ({@link Scope}), and whether it took a slot of the identifier's failure
 * budget that the password check's outcome must settle ({@link Hold}). {@link #NONE} when the gate could not even
 * derive the attempt's keys.
 */
public final class Reservation {

    /** No keys, nothing held: nothing to settle and nothing to count. */
    static final Reservation NONE = new Reservation(Optional.empty(), Hold.NONE);

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
     */
    record Scope(GateOptions options, AttemptKeys keys, LayerPolicy lockout, boolean device) {
    }

    final Optional<Scope> scope;
    final Hold hold;

    private Reservation(Optional<Scope> scope, Hold hold) {
        this.scope = scope;
        this.hold = hold;
    }

    /** An attempt's scope holding nothing (an answer other than ALLOW, or nothing taken). */
    static Reservation none(Scope scope) {
        return new Reservation(Optional.of(scope), Hold.NONE);
    }

    /** An attempt's scope holding {@code hold}. */
    static Reservation held(Scope scope, Hold hold) {
        return new Reservation(Optional.of(scope), hold);
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
