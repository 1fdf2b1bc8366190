package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.keys.AttemptKeys;
import java.util.function.BooleanSupplier;

/**
 * Admission's first step before Keycloak's flow runs (before it looks up or creates an authentication session), for
 * an address this node has seen blocked on layer 1 or 4 or answered in the captcha band on its own entry: the cheapest
 * answer to a client that keeps hammering.
 *
 * <p>Only an address (or an IPv6 network) in this node's hints ({@link RecentBlocks#edgeHints()}, kept for layer 1's
 * window) is asked about; every other attempt costs nothing here and goes to the flow. For such an address this runs
 * step 1 exactly as {@link Admission} does (a block this node holds, see {@link RecentBlocks}, is answered without a
 * change, as there), with the attempt's typed name, so it counts what the flow counts on layers 1, 2 and 4. Step 1
 * decides the flow's answer in two cases, which are returned: it blocks (a blocked attempt never depends on a captcha,
 * the realm layer or layer 3), or it answers in the band for an attempt that carries no captcha solution (admission
 * then gives back what step 1 counted and asks for the captcha before anything else is looked at). Otherwise what
 * step 1 counted is given back, as for a captcha answer, and the flow decides the attempt from the same counts.
 */
final class EdgeAdmission {

    private final GateParts parts;

    EdgeAdmission(GateParts parts) {
        this.parts = parts;
    }

    /** See {@link AbuseGate#evaluateAtEdge}. */
    Decision evaluate(GateOptions options, Attempt attempt, boolean solutionCarried, BooleanSupplier reachesGate) {
        boolean allowlisted = AddressPolicies.allowlisted(options, attempt.address());
        if (allowlisted || Limits.active(options, Layer.PER_IP) == null) {
            return null;
        }
        long now = parts.clock().millis();
        AttemptKeys k = parts.keys().forAttempt(attempt, options.ipv6PrefixLength(), options.ipv6NetworkPrefixCounted());
        AddressPolicies policies = AddressPolicies.of(options, k, false);
        StoreCall call = new StoreCall(parts.store());
        Reservation nothing = Reservation.NONE;
        boolean held = parts.recentBlocks().filter(rb -> policies.heldIn(rb, k, now)).isPresent();
        if (!held && !policies.heldIn(parts.edgeHints(), k, now) || !reachesGate.getAsBoolean()) {
            return null;
        }
        if (held) {
            return Decision.block(Layer.PER_IP, call.outages(), nothing);
        }
        AdmissionCounts a = new AdmissionCounts(new AdmissionStep(call, options, k, now), policies);
        long clearsBefore = parts.recentBlocks().map(RecentBlocks::clears).orElse(0L);
        long hintClearsBefore = parts.edgeHints().clears();
        a.run(false);
        Layer blocked = a.blocked();
        parts.recentBlocks().ifPresent(rb -> policies.remember(rb, a, k, now, clearsBefore));
        policies.rememberHint(parts.edgeHints(), a, k, now, hintClearsBefore);
        if (blocked == null) {
            a.undo();
            // as admission answers a band without a solution: nothing counted, the band's layer asks for the captcha
            return a.inBand() && !solutionCarried ? Decision.captcha(a.bandLayer(), call.outages(), nothing) : null;
        }
        a.countBand(); // as in Admission: a blocked attempt counts on layers 1, 2 and 4, also where it was in the band
        return Decision.block(blocked, call.outages(), nothing);
    }
}
