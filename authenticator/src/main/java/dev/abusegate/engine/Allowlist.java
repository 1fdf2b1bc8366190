package dev.abusegate.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Address ranges (IPv4 and IPv6 CIDRs) exempt from the address layers 1, 2 and 4, for an office NAT or
 * a monitoring probe. Layer 3 still applies to every attempt: an allowlisted address can still lock an
 * account by failing its password. Built from a comma- or whitespace-separated list; an entry that is
 * not a CIDR or a single address is rejected with a message naming it.
 */
public final class Allowlist {

    public static final String KEY = "allowlist.cidrs";
    public static final Allowlist EMPTY = new Allowlist(Collections.emptyList());

    private final List<Range> ranges;

    private Allowlist(List<Range> ranges) {
        this.ranges = ranges;
    }

    private record Range(byte[] network, int prefix, String text) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    /** Parses the list; throws {@link InvalidOptionException} naming the first bad entry. */
    public static Allowlist parse(String list) {
        if (list == null || list.isBlank()) {
            return EMPTY;
        }
        List<Range> out = new ArrayList<>();
        for (String raw : list.split("[,\\s]+")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int slash = entry.indexOf('/');
            String addr = slash < 0 ? entry : entry.substring(0, slash);
            byte[] bytes = bytes(addr);
            if (bytes == null) {
                throw new InvalidOptionException(KEY, "'" + shorten(entry) + "' is not an IPv4 or IPv6 address or CIDR");
            }
            int max = bytes.length * 8;
            int prefix = max;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefix = -1;
                }
                if (prefix < 0 || prefix > max) {
                    throw new InvalidOptionException(KEY, "'" + shorten(entry) + "' has a prefix length outside 0.." + max);
                }
            }
            out.add(new Range(bytes, prefix, entry));
        }
        return out.isEmpty() ? EMPTY : new Allowlist(List.copyOf(out));
    }

    /** Whether the client address falls in one of the ranges. Unparseable addresses never match. */
    public boolean contains(String address) {
        if (ranges.isEmpty() || address == null) {
            return false;
        }
        String s = address.trim();
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        int zone = s.indexOf('%');
        if (zone >= 0) {
            s = s.substring(0, zone);
        }
        byte[] bytes = bytes(s);
        if (bytes == null) {
            return false;
        }
        for (Range r : ranges) {
            if (r.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** 4 bytes for IPv4 (and IPv4-mapped IPv6), 16 for IPv6; null when not an address. */
    private static byte[] bytes(String s) {
        if (s.length() > 64) {
            return null;
        }
        if (s.indexOf(':') < 0) {
            int[] v4 = AddressKeys.parseIpv4(s);
            return v4 == null ? null : new byte[] {(byte) v4[0], (byte) v4[1], (byte) v4[2], (byte) v4[3]};
        }
        int[] g = AddressKeys.parseIpv6(s);
        if (g == null) {
            return null;
        }
        boolean mapped = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff;
        if (mapped) {
            return new byte[] {(byte) (g[6] >>> 8), (byte) g[6], (byte) (g[7] >>> 8), (byte) g[7]};
        }
        byte[] out = new byte[16];
        for (int i = 0; i < 8; i++) {
            out[2 * i] = (byte) (g[i] >>> 8);
            out[2 * i + 1] = (byte) g[i];
        }
        return out;
    }

    private static String shorten(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Allowlist && ((Allowlist) o).toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Range r : ranges) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(r.text());
        }
        return sb.toString();
    }
}
