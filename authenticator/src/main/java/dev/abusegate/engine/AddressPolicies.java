package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.keys.AttemptKeys;

/**
 * The policies of the layers admission counts before layer 3, as they apply to one attempt; each null when the layer
 * is off for it (off in the realm, or the address allowlisted).
 *
 * @param perIp       layer 1 on the address
 * @param network     layer 1 on an IPv6 address's network, against its own threshold
 * @param pair        layer 2
 * @param identifiers layer 4
 */
record AddressPolicies(LayerPolicy perIp, LayerPolicy network, LayerPolicy pair, LayerPolicy identifiers) {

    /** The policies for an attempt with keys {@code k}; layers 1, 2 and 4 off for an allowlisted address. */
    static AddressPolicies of(GateOptions options, AttemptKeys k, boolean allowlisted) {
        LayerPolicy p1 = allowlisted ? null : Limits.active(options, Layer.PER_IP);
        // Layer 1 also counts an IPv6 address's network, against its own threshold, on layer 1's window and failure mode.
        return new AddressPolicies(p1,
                p1 == null || k.network() == null ? null : p1.withThreshold(options.ipv6NetworkThreshold()),
                allowlisted ? null : Limits.active(options, Layer.PER_IP_ACCOUNT),
                allowlisted ? null : Limits.active(options, Layer.CREDENTIAL_STUFFING));
    }

    /** Whether {@code address} is on the realm's allowlist. */
    static boolean allowlisted(GateOptions options, String address) {
        return !options.allowlist().isEmpty() && options.allowlist().contains(address);
    }

    /** Whether {@code blocks} holds the address (or its network) as blocked on layer 1 at {@code now}. */
    boolean heldIn(RecentBlocks blocks, AttemptKeys k, long now) {
        return perIp != null && (blocks.holds(k.address(), perIp, now) || network != null && blocks.holds(k.network(), network, now));
    }

    /**
     * Remembers in {@code blocks} what step 1 ({@code a}) blocked on layer 1 by its own count, for a change sent
     * after {@code clearsBefore} (see {@link RecentBlocks#remember}).
     */
    void remember(RecentBlocks blocks, AdmissionCounts a, AttemptKeys k, long now, long clearsBefore) {
        if (a.addressBlockedByCount()) {
            blocks.remember(k.address(), perIp, now, clearsBefore);
        }
        if (a.networkBlockedByCount()) {
            blocks.remember(k.network(), network, now, clearsBefore);
        }
    }

    /**
     * Remembers in the edge's hints what step 1 ({@code a}) blocked on layer 1 by its own count, an address whose own
     * count of distinct names blocked it on layer 4, and an address (or network) whose entry answered in the captcha
     * band: for each, asking the store before Keycloak's flow is worth it ({@link EdgeAdmission}, which runs the same
     * step with the typed name). Never in {@link RecentBlocks} that answer blocks without a store call: a band answer
     * is no block, and layer 4's block is the address's count of names, which the store decides. Only with layer 1 on
     * (the hints are kept under its policy); a layer-4 hint ends with layer 4's window where that is the shorter, as
     * the block does, so that the edge does not ask the store about an address no longer blocked.
     */
    void rememberHint(RecentBlocks hints, AdmissionCounts a, AttemptKeys k, long now, long clearsBefore) {
        if (perIp == null) {
            return;
        }
        remember(hints, a, k, now, clearsBefore);
        if (a.addressBlockedByCount()) {
            return;
        }
        if (a.addressInBand()) {
            hints.remember(k.address(), perIp, now, clearsBefore);
        } else if (a.identifiersBlockedByCount()) {
            hints.remember(k.address(), perIp, now, now + Limits.window(identifiers), clearsBefore);
        }
    }

    /** Whether the address's entry is changed (layer 1 or 4 on). */
    boolean addressUsed() {
        return perIp != null || identifiers != null;
    }

    /** The address entry's lifetime: the longer of layer 1's and layer 4's windows. */
    long addressWindow() {
        return Math.max(Limits.window(perIp), Limits.window(identifiers));
    }
}
