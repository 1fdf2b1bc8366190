package dev.abusegate.engine.keys;

import dev.abusegate.engine.config.Layer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The name of one entry in the {@link CounterStore}: a realm, a kind and a 128-bit subject. The subject is
 * either a keyed 128-bit tag (identifiers, devices, anything that must not be readable), a client address kept
 * as its bits (IPv4, or an IPv6 prefix), or, for a pair, an address word with the first 56 bits of an
 * identifier's keyed tag (see {@link GateKeys}): the address can be read back from it, the identifier cannot.
 *
 * <p>A store keys its entries by {@link #storeKey()}: a short tag of the realm, a letter for the kind and the
 * subject, built once per key. {@link #toString()} is the readable form, such as {@code realm/acct/<22
 * base64url chars>} or {@code realm/ip/203.0.113.7}. What each kind holds is in its entry type ({@code dev.abusegate.engine.store.AddressEntry}, {@code PairEntry}, {@code LockoutEntry}, {@code UsedEntry}).
 */
public final class CounterKey {

    /** What an entry holds. The label is part of the text form and never changes. */
    public enum Kind {
        /** Layers 1 and 4: an address's attempts and the distinct identifiers it tried. */
        ADDRESS("ip", 'a', false),
        /** Layer 2: attempts for one address and identifier. */
        PAIR("pair", 'p', false),
        /** Layer 3: an identifier's failures, lock, run of locks and recent wrong passwords. */
        ACCOUNT("acct", 'l', true),
        /** Layer 3 for a known device: its own failures and lock. */
        DEVICE("dev", 'd', true),
        /** A captcha solution already accepted (replay check). */
        USED("used", 'u', true),
        /** The password-spray layer: the distinct accounts one password bucket failed for, per realm. */
        BUCKET("bucket", 'b', true);

        private final String label;
        private final char code;
        private final boolean protective;

        Kind(String label, char code, boolean protective) {
            this.label = label;
            this.code = code;
            this.protective = protective;
        }

        public String label() {
            return label;
        }

        /**
         * Whether losing the entry would help an attacker (a lock, failures, a used captcha). Such entries grow
         * only with work the attacker pays for (a password hash, a solved captcha) and are never evicted to
         * make room for the cheap ones (addresses and pairs, which anyone creates at will).
         */
        public boolean protective() {
            return protective;
        }
    }

    /** The subject is a keyed 128-bit tag. */
    static final int OPAQUE = 0;
    /** The subject is an IPv4 address in the low 32 bits of {@code lo}. */
    public static final int IPV4 = 1;
    /** The subject is an IPv6 prefix of {@code shape - IPV6} bits, the rest zeroed. */
    public static final int IPV6 = 2;

    private final String realm;
    private final Kind kind;
    private final int shape;
    private final long hi;
    private final long lo;
    private String text;
    private String storeKey;
    private RealmTag tag;

    /** A key whose realm's tag is looked up when needed. */
    public CounterKey(String realm, Kind kind, int shape, long hi, long lo) {
        if (realm == null || kind == null) {
            throw new IllegalArgumentException("realm and kind are required");
        }
        this.realm = realm;
        this.kind = kind;
        this.shape = shape;
        this.hi = hi;
        this.lo = lo;
    }

    /** A key whose realm's tag is known already. */
    CounterKey(RealmTag tag, Kind kind, int shape, long hi, long lo) {
        this(tag.realm, kind, shape, hi, lo);
        this.tag = tag;
    }

    private RealmTag tag() {
        RealmTag t = tag;
        if (t == null) {
            t = RealmTag.of(realm);
            tag = t;
        }
        return t;
    }

    /** A key for a keyed 128-bit tag, e.g. a digest's first 16 bytes read big-endian as {@code hi, lo}. */
    public static CounterKey of(String realm, Kind kind, long hi, long lo) {
        return new CounterKey(realm, kind, OPAQUE, hi, lo);
    }

    /** A key for the first 16 bytes of a digest (at least 16 bytes long). */
    public static CounterKey ofDigest(String realm, Kind kind, byte[] digest) {
        return of(realm, kind, be64(digest, 0), be64(digest, 8));
    }

    public String realm() {
        return realm;
    }

    public Kind kind() {
        return kind;
    }

    /** How the subject reads: a keyed tag, an IPv4 address or an IPv6 prefix (a store may compare it, never interpret it). */
    public int shape() {
        return shape;
    }

    /** The subject's first 64 bits. */
    public long hi() {
        return hi;
    }

    /** The subject's last 64 bits. */
    public long lo() {
        return lo;
    }

    /**
     * The realm's 64-bit tag, the first 64 bits of SHA-256 of its id: with {@link #kind()}, {@link #shape()},
     * {@link #hi()} and {@link #lo()} it names the entry, so a store that keeps keys as numbers need not compare
     * realm ids (two realms share a tag by chance once in 2^64).
     */
    public long realmTag() {
        return tag().bits;
    }

    /** The tag of {@code realm}'s keys ({@link #realmTag()}), for what reports per realm (a metric's realm). */
    public static long realmTagOf(String realm) {
        return RealmTag.of(realm).bits;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CounterKey)) {
            return false;
        }
        CounterKey k = (CounterKey) o;
        return hi == k.hi && lo == k.lo && shape == k.shape && kind == k.kind && realm.equals(k.realm);
    }

    @Override
    public int hashCode() {
        long x = hi * 0x9E3779B97F4A7C15L ^ lo;
        return (int) (x ^ x >>> 32) * 31 + kind.ordinal();
    }

    /** The stable text form, e.g. {@code realm/pair/<tag>}, {@code realm/ip/203.0.113.7}, {@code realm/ip/2001:db8:0:1:0:0:0:0/64}. */
    @Override
    public String toString() {
        String t = text;
        if (t == null) {
            t = realm + '/' + kind.label + '/' + subjectText(shape, hi, lo);
            text = t;
        }
        return t;
    }

    /**
     * The key a store files the entry under: the realm's tag ({@value #REALM_TAG_CHARS} chars), the kind's letter
     * and the subject. Shorter than {@link #toString()} (a realm id is 36 chars), because every entry holds it.
     */
    public String storeKey() {
        String k = storeKey;
        if (k == null) {
            k = tag().text + kind.code + subjectText(shape, hi, lo);
            storeKey = k;
        }
        return k;
    }

    static final int REALM_TAG_CHARS = 11;

    /**
     * A realm's tag: the first 64 bits of SHA-256 of its id, and their first {@value #REALM_TAG_CHARS} base64url chars.
     * Computed once per realm key ({@link GateKeys}' hasher holds it) and for a key built without one.
     */
    static final class RealmTag {
        final String realm;
        final long bits;
        final String text;

        private RealmTag(String realm, long bits) {
            this.realm = realm;
            this.bits = bits;
            this.text = base64Url(bits, 0).substring(0, REALM_TAG_CHARS);
        }

        static RealmTag of(String realm) {
            try {
                return new RealmTag(realm, be64(MessageDigest.getInstance("SHA-256").digest(realm.getBytes(StandardCharsets.UTF_8)), 0));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The subject part of the text form. */
    static String subjectText(int shape, long hi, long lo) {
        if (shape == IPV4) {
            int a = (int) lo;
            return (a >>> 24) + "." + ((a >>> 16) & 0xff) + "." + ((a >>> 8) & 0xff) + "." + (a & 0xff);
        }
        if (shape >= IPV6) {
            return ipv6Text(hi, lo, shape - IPV6);
        }
        return base64Url(hi, lo);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] B64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

    /** Eight groups in lower-case hex without leading zeros, then {@code /prefix}. */
    private static String ipv6Text(long hi, long lo, int prefix) {
        StringBuilder out = new StringBuilder(48);
        for (int i = 0; i < 8; i++) {
            long word = i < 4 ? hi : lo;
            int g = (int) (word >>> (48 - 16 * (i & 3))) & 0xffff;
            if (i > 0) {
                out.append(':');
            }
            boolean started = false;
            for (int shift = 12; shift >= 0; shift -= 4) {
                int d = (g >>> shift) & 0xf;
                if (d != 0 || started || shift == 0) {
                    out.append(HEX[d]);
                    started = true;
                }
            }
        }
        return out.append('/').append(prefix).toString();
    }

    /** 16 bytes ({@code hi || lo}, big-endian) in unpadded URL-safe Base64: 22 chars. */
    static String base64Url(long hi, long lo) {
        char[] out = new char[22];
        int o = 0;
        // 128 bits = 21 groups of 6 bits + 2 bits
        for (int bit = 0; bit < 126; bit += 6) {
            out[o++] = B64_URL[(int) bits6(hi, lo, bit)];
        }
        out[o] = B64_URL[(int) ((lo & 3) << 4)];
        return new String(out);
    }

    private static long bits6(long hi, long lo, int bit) {
        if (bit + 6 <= 64) {
            return (hi >>> (58 - bit)) & 0x3f;
        }
        if (bit >= 64) {
            return (lo >>> (58 - (bit - 64))) & 0x3f;
        }
        int fromHi = 64 - bit; // 1..5 bits left in hi
        return ((hi & ((1L << fromHi) - 1)) << (6 - fromHi)) | (lo >>> (64 - (6 - fromHi)));
    }

    static long be64(byte[] b, int i) {
        long x = 0;
        for (int j = 0; j < 8; j++) {
            x = x << 8 | (b[i + j] & 0xff);
        }
        return x;
    }
}
