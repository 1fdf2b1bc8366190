package dev.abusegate.engine.config;

import dev.abusegate.engine.keys.AddressKeys;
import dev.abusegate.engine.keys.CounterKey;
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

    /** Why {@code list} cannot be parsed (its first bad entry, without the key), or null when it can. */
    public static String invalidReason(String list) {
        try {
            parse(list);
            return null;
        } catch (InvalidOptionException e) {
            return e.reason();
        }
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
        // exactly an address: no padding, brackets or zone (AddressKeys.parse forgives those, the allowlist does not)
        if (s.isEmpty() || s.length() > 64 || s.charAt(0) <= ' ' || s.charAt(s.length() - 1) <= ' '
                || s.indexOf('[') >= 0 || s.indexOf('%') >= 0) {
            return null;
        }
        AddressKeys.Parsed p = AddressKeys.parse(s, 128);
        if (p == null) {
            return null;
        }
        if (p.shape() == CounterKey.IPV4) {
            return new byte[] {(byte) (p.lo() >>> 24), (byte) (p.lo() >>> 16), (byte) (p.lo() >>> 8), (byte) p.lo()};
        }
        byte[] out = new byte[16];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (p.hi() >>> (56 - 8 * i));
            out[8 + i] = (byte) (p.lo() >>> (56 - 8 * i));
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
