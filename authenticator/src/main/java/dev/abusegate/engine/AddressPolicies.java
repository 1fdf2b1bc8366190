package dev.abusegate.engine;

import dev.abusegate.engine.config.LayerPolicy;

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

    /** Whether the address's entry is changed (layer 1 or 4 on). */
    boolean addressUsed() {
        return perIp != null || identifiers != null;
    }

    /** The address entry's lifetime: the longer of layer 1's and layer 4's windows. */
    long addressWindow() {
        return Math.max(Limits.window(perIp), Limits.window(identifiers));
    }
}
