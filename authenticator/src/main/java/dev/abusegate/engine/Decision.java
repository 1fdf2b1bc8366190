package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import java.util.Optional;
import java.util.Set;

/**
 * The gate's answer: its {@link Outcome} with the reasons (see {@link Outcome} for the words), and the attempt's
 * {@link Reservation}, which only the settlement reads: an {@link Outcome#ALLOW} decision may hold a layer-3 slot that
 * must be settled with {@link AbuseGate#passwordFailed}, {@link AbuseGate#passwordSucceeded} or
 * {@link AbuseGate#notVerified}.
 *
 * @param outcome          allow, captcha or block
 * @param decidedBy        the layer that blocked or asked for the captcha (for events and metrics only; never shown
 *                         to the client); empty for ALLOW and for the fifth layer's captcha
 * @param realmUnderAttack whether the fifth, realm-wide layer asked for the captcha (for events and metrics only,
 *                         never shown to the client, whose answer is the band's {@code captcha_required})
 * @param outages          the layers whose store failed while deciding, with their causes, and the degraded ones
 * @param reservation      what the attempt holds on layer 3 (opaque)
 */
public record Decision(Outcome outcome, Optional<Layer> decidedBy, boolean realmUnderAttack, Outages outages,
                       Reservation reservation) {

    /** The attempt may go on to the password check, holding {@code reservation}. */
    static Decision allow(Outages outages, Reservation reservation) {
        return new Decision(Outcome.ALLOW, Optional.empty(), false, outages, reservation);
    }

    /** {@code layer} asks for a captcha; nothing is held. */
    static Decision captcha(Layer layer, Outages outages, Reservation scope) {
        return new Decision(Outcome.CAPTCHA_REQUIRED, Optional.of(layer), false, outages, scope);
    }

    /** The fifth layer's answer: a captcha, asked for by no per-subject layer, holding nothing. */
    static Decision realmCaptcha(Outages outages, Reservation scope) {
        return new Decision(Outcome.CAPTCHA_REQUIRED, Optional.empty(), true, outages, scope);
    }

    /** {@code layer} blocks (past its threshold, or failed closed); nothing is held. */
    static Decision block(Layer layer, Outages outages, Reservation scope) {
        return new Decision(Outcome.BLOCKED, Optional.of(layer), false, outages, scope);
    }

    /** The layer that blocked or asked for the captcha; {@code null} for ALLOW (see {@link #decidedBy()}). */
    public Layer layer() {
        return decidedBy.orElse(null);
    }

    /** Layers whose counter store failed while deciding this attempt (their causes: {@link #outages()}). */
    public Set<Layer> unavailable() {
        return outages.unavailable();
    }

    /**
     * Layers that counted this attempt on a shared counter: the store was at its bound and had no room that
     * could be made for the subject. Not a failure: such a count asks for a captcha early (and blocks only as
     * layer 3's shared count past its threshold).
     */
    public Set<Layer> degraded() {
        return outages.degraded();
    }

    /**
     * Whether the attempt was let through with a solved captcha although its password's bucket is being sprayed: a
     * right password then means that account's password is among those sprayed (for an operator's event only; never
     * shown to the person logging in).
     */
    public boolean passwordSprayed() {
        return reservation.sprayed;
    }

    /** The keyed tag of the attempt's identifier (what device cookies and password tags bind to), when it has keys. */
    public Optional<String> identifierTag() {
        return reservation.identifierTag();
    }

    public boolean allowed() {
        return outcome == Outcome.ALLOW;
    }

    @Override
    public String toString() {
        return outcome + decidedBy.map(l -> "(" + l.label() + ")").orElse("") + (realmUnderAttack ? "(realm_under_attack)" : "")
                + (outages.unavailable().isEmpty() ? "" : " unavailable=" + outages.unavailable())
                + (outages.degraded().isEmpty() ? "" : " degraded=" + outages.degraded());
    }
}
