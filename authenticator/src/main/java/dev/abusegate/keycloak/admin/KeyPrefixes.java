package dev.abusegate.keycloak.admin;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.keys.AddressKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The IPv6 prefix lengths under which the admin API looks up or clears an address: the address's own entry cut to
 * {@code address} bits and its network's entry cut to {@code network} bits (0: networks are not counted, no network
 * entry).
 *
 * @param address the prefix length of the address's entry ({@code ipv6.prefixLength})
 * @param network the prefix length of its network's entry ({@code ipv6.networkPrefixLength}), 0 when not counted
 */
record KeyPrefixes(int address, int network) {

    /**
     * The prefixes to use: a prefix the operator named wins; the others come from the settings of the realm's gated
     * steps ({@code inUse}, each step's effective options; none: the defaults). Steps that agree, and prefixes that key
     * {@code address} alike (an IPv4 address, a name, no address at all), give one entry; steps that disagree give one
     * entry each, in their order, so that nothing is guessed.
     *
     * @param address the address asked about, or null (identifier only)
     */
    static List<KeyPrefixes> of(Integer explicitAddress, Integer explicitNetwork, Collection<GateOptions> inUse, String address) {
        Collection<GateOptions> steps = inUse.isEmpty() ? List.of(GateOptions.defaults()) : inUse;
        Map<String, KeyPrefixes> distinct = new LinkedHashMap<>();
        for (GateOptions o : steps) {
            KeyPrefixes p = new KeyPrefixes(explicitAddress != null ? explicitAddress : o.ipv6PrefixLength(),
                    explicitNetwork != null ? explicitNetwork : o.ipv6NetworkPrefixCounted());
            distinct.putIfAbsent(p.keysOf(address), p);
        }
        return new ArrayList<>(distinct.values());
    }

    /** The entries these prefixes key {@code address} under, as text (equal text: the same entries). */
    private String keysOf(String address) {
        if (address == null) {
            return "";
        }
        AddressKeys.Parsed a = AddressKeys.parse(address, this.address);
        AddressKeys.Parsed n = network == 0 ? null : AddressKeys.network(a, network);
        return (a == null ? "" : a.shape() + ":" + a.hi() + ":" + a.lo()) + "|" + (n == null ? "" : n.shape() + ":" + n.hi() + ":" + n.lo());
    }

    /** The address's key as the answer shows it ({@code key}), or null when it is not an IP address. */
    String addressKey(String address) {
        return AddressKeys.canonical(address, this.address);
    }

    /** The network's key as the answer shows it. */
    String networkKey(String address) {
        return AddressKeys.canonical(address, network);
    }

    /** The prefixes as the answer names them ({@code ipv6NetworkPrefix} null: networks not counted). */
    Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ipv6Prefix", address);
        out.put("ipv6NetworkPrefix", network == 0 ? null : network);
        return out;
    }
}
