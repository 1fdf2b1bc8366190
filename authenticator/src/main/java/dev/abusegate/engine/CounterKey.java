package dev.abusegate.engine;

/**
 * The name of one counter, lock or distinct set in the {@link CounterStore}: a realm, a kind and a
 * 128-bit subject. The subject is either a keyed 128-bit tag (identifiers, devices, anything that must
 * not be readable), a client address kept as its bits (IPv4, or an IPv6 prefix), or, for a pair, an
 * address word with the first 56 bits of an identifier's keyed tag (see {@link GateKeys}): the address
 * can be read back from it, the identifier cannot.
 *
 * <p>Keys compare by value and cost nothing to hash, so a store can use them directly; a store that
 * needs text (a cache shared by a cluster) uses {@link #toString()}, a stable form such as
 * {@code realm/fail/<22 base64url chars>} or {@code realm/ip/203.0.113.7}, built once per key.
 *
 * <p>Keys of one subject (the counter and the distinct set of one address; the failures, the lock and
 * the lock run of one identifier) share {@link #subjectHash()}, so a store may keep them side by side.
 */
public final class CounterKey {

    /** What a key counts. The label is part of the text form and never changes. */
    public enum Kind {
        /** Layer 1: attempts from an address. */
        IP("ip"),
        /** Layer 4: the distinct identifiers one address tried. */
        IDS("ids"),
        /** Layer 2: attempts for one address and identifier. */
        PAIR("pair"),
        /** Layer 3: failed verifications of an identifier. */
        FAIL("fail"),
        /** Layer 3: the identifier's lock. */
        LOCK("lock"),
        /** Progressive lockout: how many times in a row the identifier was locked. */
        LOCKS("locks"),
        /** Keyed tags of the identifier's recent wrong passwords. */
        TYPOS("typos"),
        /** Layer 3 for a known device: its own failures. */
        DEVICE_FAIL("devfail"),
        /** Layer 3 for a known device: its own lock. */
        DEVICE_LOCK("devlock"),
        /** Captcha solutions already accepted (replay check). */
        USED("used");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The subject is a keyed 128-bit tag. */
    static final int OPAQUE = 0;
    /** The subject is an IPv4 address in the low 32 bits of {@code lo}. */
    static final int IPV4 = 1;
    /** The subject is an IPv6 prefix of {@code shape - IPV6} bits, the rest zeroed. */
    static final int IPV6 = 2;

    private final String realm;
    private final Kind kind;
    private final int shape;
    private final long hi;
    private final long lo;
    private final int realmNumber;
    /** Realm number, shape and kind in one word (never 0): with {@code hi} and {@code lo}, the whole key. */
    private final long meta;
    /** A well-mixed 64-bit hash of realm and subject, the same for every kind. */
    private final long subjectHash;
    private String text;

    CounterKey(String realm, int realmNumber, Kind kind, int shape, long hi, long lo) {
        if (realm == null || kind == null) {
            throw new IllegalArgumentException("realm and kind are required");
        }
        this.realm = realm;
        this.realmNumber = realmNumber;
        this.kind = kind;
        this.shape = shape;
        this.hi = hi;
        this.lo = lo;
        long subject = (long) realmNumber << 16 | shape;
        this.meta = subject << 8 | kindByte(kind);
        this.subjectHash = hash(subject, hi, lo);
    }

    /** The same subject under another kind: its subject hash does not depend on the kind, so it is kept, not recomputed. */
    private CounterKey(CounterKey same, Kind kind) {
        this.realm = same.realm;
        this.realmNumber = same.realmNumber;
        this.kind = kind;
        this.shape = same.shape;
        this.hi = same.hi;
        this.lo = same.lo;
        this.meta = same.meta & ~0xFFL | kindByte(kind);
        this.subjectHash = same.subjectHash;
    }

    /** The kind's byte at the bottom of {@link #meta()}; never 0, which a store may take for an empty slot. */
    private static long kindByte(Kind kind) {
        return kind.ordinal() + 1;
    }

    /** A key for a keyed 128-bit tag, e.g. a digest's first 16 bytes read big-endian as {@code hi, lo}. */
    public static CounterKey of(String realm, Kind kind, long hi, long lo) {
        if (realm == null) {
            throw new IllegalArgumentException("realm and kind are required");
        }
        return new CounterKey(realm, realmNumber(realm), kind, OPAQUE, hi, lo);
    }

    private static final java.util.concurrent.ConcurrentHashMap<String, Integer> REALM_NUMBERS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.concurrent.atomic.AtomicInteger LAST_REALM_NUMBER = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * A small number for a realm, the same for the life of the JVM: it lets a store compare and hash a key as
     * three longs. One entry per realm ever seen (a few bytes each).
     */
    static int realmNumber(String realm) {
        Integer n = REALM_NUMBERS.get(realm);
        return n != null ? n : REALM_NUMBERS.computeIfAbsent(realm, r -> LAST_REALM_NUMBER.incrementAndGet());
    }

    /** Mixes a realm-and-shape word and a 128-bit subject into a well-distributed 64-bit hash. */
    static long hash(long subject, long hi, long lo) {
        long x = hi * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(lo * 0xC2B2AE3D27D4EB4FL, 31) ^ subject * 0x165667B19E3779F9L;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }

    /** A key for the first 16 bytes of a digest (at least 16 bytes long). */
    public static CounterKey ofDigest(String realm, Kind kind, byte[] digest) {
        return of(realm, kind, be64(digest, 0), be64(digest, 8));
    }

    /** The same subject counted as another kind. */
    public CounterKey as(Kind other) {
        return other == kind ? this : new CounterKey(this, other);
    }

    public String realm() {
        return realm;
    }

    public Kind kind() {
        return kind;
    }

    int shape() {
        return shape;
    }

    long hi() {
        return hi;
    }

    long lo() {
        return lo;
    }

    /** Equal for every key of the same realm and subject, whatever the kind; well mixed. */
    public long subjectHash() {
        return subjectHash;
    }

    /**
     * Realm number, shape and kind: equal metas and equal {@code hi}, {@code lo} mean equal keys. Below 2^56
     * (a positive realm number, a shape below 2^16, the kind's byte), so a store may keep flags above it.
     */
    long meta() {
        return meta;
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
        return hi == k.hi && lo == k.lo && meta == k.meta;
    }

    @Override
    public int hashCode() {
        return (int) (subjectHash ^ subjectHash >>> 32) * 31 + kind.ordinal();
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
        return Long.reverseBytes(SipHash.le64(b, i));
    }
}
