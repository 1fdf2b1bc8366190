package dev.abusegate.engine;

/**
 * Turns a client address into the key the address layers count under. IPv4 is kept whole; IPv6 is
 * aggregated to a prefix (/64 by default, so one host cannot rotate through its own subnet); an
 * IPv4-mapped IPv6 address counts as the IPv4 address. Parsing is textual only: no name is ever
 * resolved. An address that cannot be parsed is keyed as itself (see {@link GateKeys}), never as
 * "everyone".
 */
public final class AddressKeys {

    private AddressKeys() {
    }

    /** The canonical key for a parseable address, or {@code null} when it is not an IP literal. */
    public static String canonical(String raw, int ipv6PrefixLength) {
        if (raw == null) {
            return null;
        }
        String s = raw.trim();
        if (s.isEmpty() || s.length() > 64) {
            return null;
        }
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.indexOf(':') < 0) {
            int[] v4 = parseIpv4(s);
            if (v4 == null) {
                return null;
            }
            // Already canonical (no leading zeros): the input is the key, no new string needed.
            return hasLeadingZero(s) ? ipv4String(v4) : s;
        }
        int zone = s.indexOf('%');
        if (zone >= 0) {
            s = s.substring(0, zone);
        }
        int[] groups = parseIpv6(s);
        if (groups == null) {
            return null;
        }
        if (isIpv4Mapped(groups)) {
            return ipv4String(new int[] {groups[6] >>> 8, groups[6] & 0xff, groups[7] >>> 8, groups[7] & 0xff});
        }
        return ipv6Prefix(groups, ipv6PrefixLength);
    }

    private static boolean isIpv4Mapped(int[] g) {
        for (int i = 0; i < 5; i++) {
            if (g[i] != 0) {
                return false;
            }
        }
        return g[5] == 0xffff;
    }

    /** Whether a parsed dotted quad has a part written with a leading zero ("01"). */
    private static boolean hasLeadingZero(String s) {
        for (int i = 0; i < s.length() - 1; i++) {
            if (s.charAt(i) == '0' && (i == 0 || s.charAt(i - 1) == '.') && s.charAt(i + 1) != '.') {
                return true;
            }
        }
        return false;
    }

    private static String ipv4String(int[] v4) {
        return v4[0] + "." + v4[1] + "." + v4[2] + "." + v4[3];
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static String ipv6Prefix(int[] groups, int prefix) {
        // eight groups in lower-case hex without leading zeros, then "/prefix": at most 39 + 4 chars
        char[] out = new char[48];
        int n = 0;
        int bitsLeft = prefix;
        for (int i = 0; i < 8; i++) {
            int g;
            if (bitsLeft >= 16) {
                g = groups[i];
            } else if (bitsLeft <= 0) {
                g = 0;
            } else {
                g = groups[i] & (0xffff << (16 - bitsLeft)) & 0xffff;
            }
            bitsLeft -= 16;
            if (i > 0) {
                out[n++] = ':';
            }
            boolean started = false;
            for (int shift = 12; shift >= 0; shift -= 4) {
                int d = (g >>> shift) & 0xf;
                if (d != 0 || started || shift == 0) {
                    out[n++] = HEX[d];
                    started = true;
                }
            }
        }
        out[n++] = '/';
        if (prefix >= 100) {
            out[n++] = (char) ('0' + prefix / 100);
        }
        if (prefix >= 10) {
            out[n++] = (char) ('0' + (prefix / 10) % 10);
        }
        out[n++] = (char) ('0' + prefix % 10);
        return new String(out, 0, n);
    }

    /** Strict dotted quad: four decimal parts of one to three digits, each at most 255. */
    static int[] parseIpv4(String s) {
        int[] out = new int[4];
        int part = 0;
        int digits = 0;
        int value = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : '.';
            if (c >= '0' && c <= '9') {
                value = value * 10 + (c - '0');
                if (++digits > 3 || value > 255) {
                    return null;
                }
            } else if (c == '.') {
                if (digits == 0 || part > 3) {
                    return null;
                }
                out[part++] = value;
                digits = 0;
                value = 0;
            } else {
                return null;
            }
        }
        return part == 4 ? out : null;
    }

    /** RFC 4291 text form, with "::" and an optional trailing dotted quad. Returns eight 16-bit groups. */
    static int[] parseIpv6(String s) {
        int dc = s.indexOf("::");
        if (dc >= 0 && s.indexOf("::", dc + 1) >= 0) {
            return null;
        }
        int[] head;
        int[] tail;
        if (dc >= 0) {
            head = parseGroups(s.substring(0, dc), false);
            tail = parseGroups(s.substring(dc + 2), true);
            if (head == null || tail == null || head.length + tail.length > 7) {
                return null;
            }
        } else {
            head = parseGroups(s, true);
            tail = new int[0];
            if (head == null || head.length != 8) {
                return null;
            }
        }
        int[] out = new int[8];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(tail, 0, out, 8 - tail.length, tail.length);
        return out;
    }

    private static int[] parseGroups(String s, boolean allowTrailingIpv4) {
        if (s.isEmpty()) {
            return new int[0];
        }
        String[] parts = s.split(":", -1);
        int[] tmp = new int[parts.length + 1];
        int n = 0;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (allowTrailingIpv4 && i == parts.length - 1 && p.indexOf('.') >= 0) {
                int[] v4 = parseIpv4(p);
                if (v4 == null) {
                    return null;
                }
                tmp[n++] = (v4[0] << 8) | v4[1];
                tmp[n++] = (v4[2] << 8) | v4[3];
                continue;
            }
            if (p.isEmpty() || p.length() > 4) {
                return null;
            }
            int v = 0;
            for (int j = 0; j < p.length(); j++) {
                int d = hexDigit(p.charAt(j));
                if (d < 0) {
                    return null;
                }
                v = (v << 4) | d;
            }
            tmp[n++] = v;
        }
        if (n > 8) {
            return null;
        }
        int[] out = new int[n];
        System.arraycopy(tmp, 0, out, 0, n);
        return out;
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
