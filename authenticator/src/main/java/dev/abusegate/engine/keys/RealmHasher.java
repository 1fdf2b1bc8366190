package dev.abusegate.engine.keys;

import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;

/** One realm's hashing key, derived once from its secret. */
final class RealmHasher {
    final String realm;
    final CounterKey.RealmTag tag;
    final byte[] secret;
    /** The array the secret came in: the same array again means the same secret, without comparing. */
    final byte[] source;
    /** A Mac per thread (a Mac is not thread-safe), initialised once with this realm's key. */
    private final ThreadLocal<Mac> mac;

    RealmHasher(String realm, byte[] secret) {
        this.realm = realm;
        this.tag = CounterKey.RealmTag.of(realm);
        this.secret = secret.clone();
        this.source = secret;
        this.mac = Hmac.perThread(Hmac.sha256(secret, "abuse-gate/identifier-key/v2".getBytes(StandardCharsets.UTF_8)));
    }

    CounterKey key(CounterKey.Kind kind, long hi, long lo) {
        return new CounterKey(tag, kind, CounterKey.OPAQUE, hi, lo);
    }

    /** The keyed tag of the normalized identifier in UTF-8. */
    long[] identifier(String raw) {
        byte[] ascii = GateKeys.normalizedAscii(raw);
        return tag(ascii != null ? ascii : GateKeys.normalizeIdentifier(raw).getBytes(StandardCharsets.UTF_8));
    }

    long[] hash(String value) {
        return tag(value.getBytes(StandardCharsets.UTF_8));
    }

    /** The tag of 64-bit words, big-endian. */
    long[] hashWords(long... words) {
        byte[] b = new byte[words.length * 8];
        for (int i = 0; i < words.length; i++) {
            for (int j = 0; j < 8; j++) {
                b[i * 8 + j] = (byte) (words[i] >>> (56 - 8 * j));
            }
        }
        return tag(b);
    }

    /** HMAC-SHA256 of {@code bytes}, its first 128 bits as two big-endian words. */
    private long[] tag(byte[] bytes) {
        byte[] d = mac.get().doFinal(bytes);
        return new long[] {CounterKey.be64(d, 0), CounterKey.be64(d, 8)};
    }
}
