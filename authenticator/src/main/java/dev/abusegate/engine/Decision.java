package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.GateKeys;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The gate's answer: its {@link Outcome} with the reasons (see {@link Outcome} for the words). {@link #layer()} says which layer decided (for events and metrics only; never
 * shown to the client). {@link #unavailable()} lists the layers whose store failed during this
 * attempt. An {@link Outcome#ALLOW} decision may hold a lockout reservation that must be settled with
 * {@link AbuseGate#passwordFailed}, {@link AbuseGate#passwordSucceeded} or {@link AbuseGate#notVerified}.
 */
public final class Decision {

    private final Outcome outcome;
    private final Layer layer;
    private final Set<Layer> unavailable;
    final GateOptions options;
    final GateKeys.Keys keys;
    /** Whether the attempt holds a lockout reservation that must be settled. */
    final boolean reserved;
    /** Layer 3's policy as applied to this attempt (a device's own budget, when it had a device cookie). */
    final LayerPolicy lockout;
    final boolean device;

    /** Whether the reservation was taken on a shared counter (it is settled there). */
    final boolean shared;
    /** Whether the fifth, realm-wide layer asked for the captcha (then {@link #layer()} is null). */
    private final boolean realmUnderAttack;
    /** Layers counted on a shared counter because the store was at its bound. */
    private final Set<Layer> degraded;

    Decision(Outcome outcome, Layer layer, Set<Layer> unavailable, Set<Layer> degraded, GateOptions options, GateKeys.Keys keys,
             boolean reserved, boolean shared, LayerPolicy lockout, boolean device) {
        this(outcome, layer, unavailable, degraded, options, keys, reserved, shared, lockout, device, false);
    }

    private Decision(Outcome outcome, Layer layer, Set<Layer> unavailable, Set<Layer> degraded, GateOptions options, GateKeys.Keys keys,
                     boolean reserved, boolean shared, LayerPolicy lockout, boolean device, boolean realmUnderAttack) {
        this.realmUnderAttack = realmUnderAttack;
        this.degraded = degraded.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(degraded));
        this.shared = shared;
        this.lockout = lockout;
        this.device = device;
        this.outcome = outcome;
        this.layer = layer;
        this.unavailable = unavailable.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(unavailable));
        this.options = options;
        this.keys = keys;
        this.reserved = reserved;
    }

    /** The fifth layer's answer: a captcha, asked for by no per-subject layer, holding no reservation. */
    static Decision realmUnderAttack(Set<Layer> unavailable, Set<Layer> degraded, GateOptions options, GateKeys.Keys keys,
                                     LayerPolicy lockout, boolean device) {
        return new Decision(Outcome.CAPTCHA_REQUIRED, null, unavailable, degraded, options, keys, false, false, lockout, device, true);
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The layer that blocked or asked for the captcha; {@code null} for ALLOW. */
    public Layer layer() {
        return layer;
    }

    /** Layers whose counter store failed while deciding this attempt. */
    public Set<Layer> unavailable() {
        return unavailable;
    }

    /**
     * Layers that counted this attempt on a shared counter: the store was at its bound and had no room that
     * could be made for the subject. Not a failure: such a count asks for a captcha early (and blocks only as
     * layer 3's shared count past its threshold).
     */
    public Set<Layer> degraded() {
        return degraded;
    }

    /**
     * Whether the realm-wide layer ("realm under attack") asked for this attempt's captcha: for events and metrics
     * only, never shown to the client (whose answer is the band's {@code captcha_required}).
     */
    public boolean realmUnderAttack() {
        return realmUnderAttack;
    }

    /** The keyed tag of the attempt's identifier (what device cookies and password tags bind to). */
    public String identifierTag() {
        return keys == null ? null : keys.identifierTag();
    }

    public boolean allowed() {
        return outcome == Outcome.ALLOW;
    }

    @Override
    public String toString() {
        return outcome + (layer == null ? "" : "(" + layer.label() + ")") + (realmUnderAttack ? "(realm_under_attack)" : "") + (unavailable.isEmpty() ? "" : " unavailable=" + unavailable)
                + (degraded.isEmpty() ? "" : " degraded=" + degraded);
    }
}
