package dev.abusegate.engine.keys;

import java.util.Arrays;

/**
 * Turns a client address into the key the address layers count under. IPv4 is kept whole; IPv6 is
 * aggregated to a prefix (/64 by default, so one host cannot rotate through its own subnet), and also counted per
 * coarser network ({@link #network}, /48 by default); an IPv4-mapped IPv6 address counts as the IPv4 address. Parsing is textual only: no name is ever
 * resolved. An address that cannot be parsed is keyed as itself (see {@link GateKeys}), never as
 * "everyone".
 */
public final class AddressKeys {

    private AddressKeys() {
    }

    /** The canonical text of a parseable address, or {@code null} when it is not an IP literal. */
    public static String canonical(String raw, int ipv6PrefixLength) {
        Parsed p = parse(raw, ipv6PrefixLength);
        return p == null ? null : CounterKey.subjectText(p.shape(), p.hi(), p.lo());
    }

    /** An address as bits: {@link CounterKey#IPV4} or {@link CounterKey#IPV6} plus the prefix length. */
    public record Parsed(int shape, long hi, long lo) {
    }

    /** The address as bits (IPv6 cut to its prefix), or {@code null} when it is not an IP literal. */
    public static Parsed parse(String raw, int ipv6PrefixLength) {
        if (raw == null) {
            return null;
        }
        // what String.trim drops, without copying
        int from = 0;
        int to = raw.length();
        while (from < to && raw.charAt(from) <= ' ') {
            from++;
        }
        while (to > from && raw.charAt(to - 1) <= ' ') {
            to--;
        }
        if (from == to || to - from > 64) {
            return null;
        }
        if (to - from >= 2 && raw.charAt(from) == '[' && raw.charAt(to - 1) == ']') {
            from++;
            to--;
        }
        int colon = raw.indexOf(':', from);
        if (colon < 0 || colon >= to) {
            long v4 = ipv4Bits(raw, from, to);
            return v4 < 0 ? null : new Parsed(CounterKey.IPV4, 0, v4);
        }
        int zone = raw.indexOf('%', from);
        if (zone >= 0 && zone < to) {
            to = zone;
        }
        int[] groups = ipv6Groups(raw, from, to);
        if (groups == null) {
            return null;
        }
        if (isIpv4Mapped(groups)) {
            return new Parsed(CounterKey.IPV4, 0, ((long) groups[6] << 16 | groups[7]) & 0xffffffffL);
        }
        long hi = (long) groups[0] << 48 | (long) groups[1] << 32 | (long) groups[2] << 16 | groups[3];
        long lo = (long) groups[4] << 48 | (long) groups[5] << 32 | (long) groups[6] << 16 | groups[7];
        return cut(hi, lo, ipv6PrefixLength);
    }

    /**
     * The IPv6 network of {@code prefixLength} bits that a parsed IPv6 address (cut to a longer prefix) lies in, or
     * {@code null} when the address is IPv4 (an IPv4-mapped one included) or already cut to at most that many bits.
     */
    public static Parsed network(Parsed address, int prefixLength) {
        if (address == null || address.shape() < CounterKey.IPV6 || address.shape() - CounterKey.IPV6 <= prefixLength) {
            return null;
        }
        return cut(address.hi(), address.lo(), prefixLength);
    }

    private static Parsed cut(long hi, long lo, int prefixLength) {
        int p = Math.max(0, Math.min(128, prefixLength));
        hi = p >= 64 ? hi : p == 0 ? 0 : hi & (-1L << (64 - p));
        lo = p <= 64 ? 0 : lo & (-1L << (128 - p));
        return new Parsed(CounterKey.IPV6 + p, hi, lo);
    }

    /**
     * RFC 4291 text form in {@code s[from, to)}: groups of one to four hex digits, at most one "::", an
     * optional trailing dotted quad. Returns the eight 16-bit groups, or {@code null}. One pass, no copies.
     */
    static int[] ipv6Groups(String s, int from, int to) {
        int[] g = new int[8];
        int n = 0;
        int gap = -1; // where "::" stands, in groups
        int i = from;
        if (i + 1 < to && s.charAt(i) == ':' && s.charAt(i + 1) == ':') {
            gap = 0;
            i += 2;
        }
        while (i < to) {
            int start = i;
            int v = 0;
            int d;
            while (i < to && (d = hexDigit(s.charAt(i))) >= 0) {
                v = (v << 4) | d;
                i++;
            }
            if (i < to && s.charAt(i) == '.') {
                long v4 = ipv4Bits(s, start, to);
                if (v4 < 0 || n > 6) {
                    return null;
                }
                g[n++] = (int) (v4 >>> 16);
                g[n++] = (int) v4 & 0xffff;
                break;
            }
            if (i == start || i - start > 4 || n == 8) {
                return null;
            }
            g[n++] = v;
            if (i == to) {
                break;
            }
            if (s.charAt(i) != ':' || ++i == to) {
                return null;
            }
            if (s.charAt(i) == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = n;
                i++;
            }
        }
        if (gap < 0) {
            return n == 8 ? g : null;
        }
        if (n > 7) {
            return null;
        }
        int tail = n - gap;
        System.arraycopy(g, gap, g, 8 - tail, tail);
        Arrays.fill(g, gap, 8 - tail, 0);
        return g;
    }

    private static boolean isIpv4Mapped(int[] g) {
        for (int i = 0; i < 5; i++) {
            if (g[i] != 0) {
                return false;
            }
        }
        return g[5] == 0xffff;
    }

    /** Strict dotted quad in {@code s[from, to)} as an unsigned 32-bit value, or -1. */
    private static long ipv4Bits(String s, int from, int to) {
        long out = 0;
        int part = 0;
        int digits = 0;
        int value = 0;
        for (int i = from; i <= to; i++) {
            char c = i < to ? s.charAt(i) : '.';
            if (c >= '0' && c <= '9') {
                value = value * 10 + (c - '0');
                if (++digits > 3 || value > 255) {
                    return -1;
                }
            } else if (c == '.') {
                if (digits == 0 || part > 3) {
                    return -1;
                }
                out = out << 8 | value;
                part++;
                digits = 0;
                value = 0;
            } else {
                return -1;
            }
        }
        return part == 4 ? out : -1;
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
