package dev.abusegate.engine;

/**
 * SipHash-2-4 with a 128-bit tag (Aumasson and Bernstein's keyed pseudo-random function, the variant
 * their reference code calls "siphash" with {@code outlen = 16}). It is the gate's per-attempt keyed hash:
 * a keyed PRF with a 128-bit key, so a dump of the counter store cannot be reversed by hashing a
 * dictionary without the realm's key, and it costs tens of nanoseconds where HMAC-SHA256 costs several
 * hundred. Checked against the reference test vectors in {@code SipHashTest}.
 *
 * <p>Keys and message words are read little-endian, as in the reference. The tag is returned as two
 * longs, {@code hi} (the first eight tag bytes read big-endian) and {@code lo} (the last eight), so that
 * {@code hi || lo} big-endian is exactly the reference's byte output.
 */
final class SipHash {

    private SipHash() {
    }

    /** The reference tag for {@code message}: {@code [hi, lo]}. */
    static long[] hash128(long k0, long k1, byte[] message) {
        Tag t = new Tag(k0, k1);
        int len = message.length;
        int end = len - (len & 7);
        for (int i = 0; i < end; i += 8) {
            t.word(le64(message, i));
        }
        long last = ((long) len & 0xff) << 56;
        for (int i = len & 7; i > 0; i--) {
            last |= (message[end + i - 1] & 0xffL) << (8 * (i - 1));
        }
        t.word(last);
        return t.finish();
    }

    /**
     * The tag of {@code s} lower-cased, read as bytes, for a string of printable ASCII only (the caller
     * checks): the same as {@code hash128(k0, k1, lowerCaseAscii(s).getBytes(US_ASCII))}, without the copy.
     */
    static long[] hash128LowerAscii(long k0, long k1, String s) {
        Tag t = new Tag(k0, k1);
        int len = s.length();
        int end = len - (len & 7);
        for (int i = 0; i < end; i += 8) {
            long w = 0;
            for (int j = 7; j >= 0; j--) {
                w = w << 8 | lower(s.charAt(i + j));
            }
            t.word(w);
        }
        long last = ((long) len & 0xff) << 56;
        for (int i = len & 7; i > 0; i--) {
            last |= (long) lower(s.charAt(end + i - 1)) << (8 * (i - 1));
        }
        t.word(last);
        return t.finish();
    }

    private static int lower(char c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** The tag of a message made of whole 64-bit words (already little-endian values), e.g. fixed-size keys. */
    static long[] hash128Words(long k0, long k1, long... words) {
        Tag t = new Tag(k0, k1);
        for (long w : words) {
            t.word(w);
        }
        t.word(((long) (words.length * 8) & 0xff) << 56);
        return t.finish();
    }

    static long le64(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48 | (b[i + 7] & 0xffL) << 56;
    }

    private static final class Tag {
        long v0;
        long v1;
        long v2;
        long v3;

        Tag(long k0, long k1) {
            v0 = k0 ^ 0x736f6d6570736575L;
            v1 = k1 ^ 0x646f72616e646f6dL ^ 0xeeL;
            v2 = k0 ^ 0x6c7967656e657261L;
            v3 = k1 ^ 0x7465646279746573L;
        }

        void word(long m) {
            v3 ^= m;
            round();
            round();
            v0 ^= m;
        }

        long[] finish() {
            v2 ^= 0xeeL;
            round();
            round();
            round();
            round();
            long first = v0 ^ v1 ^ v2 ^ v3;
            v1 ^= 0xddL;
            round();
            round();
            round();
            round();
            long second = v0 ^ v1 ^ v2 ^ v3;
            return new long[] {Long.reverseBytes(first), Long.reverseBytes(second)};
        }

        private void round() {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
        }
    }
}
