package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStoreFullException;
import dev.abusegate.engine.store.LayerOutcome;

/**
 * Admission's second step, only for an attempt the first let through: layer 3 takes one of the identifier's failure
 * slots (a reservation), unless it is locked, full or in the band. The settlement ({@link PasswordSettlement})
 * confirms it as a failure on a wrong password and gives it back otherwise.
 */
final class LockoutReservation {

    private final AdmissionStep step;
    private final LayerPolicy p3;
    /** Whether the last answer was a count on the realm's shared counter (the reservation is settled there). */
    private boolean shared;

    LockoutReservation(AdmissionStep step, LayerPolicy p3) {
        this.step = step;
        this.p3 = p3;
    }

    /** Tries to take a slot ({@code solved}: with a solved captcha, the band does not apply). */
    LayerOutcome take(boolean solved) {
        StoreCall call = step.call();
        GateOptions o = step.options();
        try {
            long[] v = call.start(step.keys().lockout(), new Change.Reserve(step.now(), solved, Limits.limit(o, p3)),
                    Limits.lockoutTtl(p3, o)).join();
            if (v == null) {
                throw new CounterStoreFullException("no room for a new identifier");
            }
            AdmissionAnswer answer = AdmissionAnswer.of(v);
            if (answer.shared()) {
                call.degrade(p3);
            }
            shared = answer.shared();
            return answer.outcome();
        } catch (RuntimeException e) {
            return call.failed(p3, e);
        }
    }

    /** What the attempt holds after the answer {@code r}. */
    Reservation.Hold hold(LayerOutcome r) {
        return r != LayerOutcome.COUNTED ? Reservation.Hold.NONE : shared ? Reservation.Hold.SHARED : Reservation.Hold.EXACT;
    }
}
