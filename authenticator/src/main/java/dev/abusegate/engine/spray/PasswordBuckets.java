package dev.abusegate.engine.spray;

import dev.abusegate.engine.keys.Hmac;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;

/**
 * A password's bucket: HMAC-SHA256 of the password's UTF-8 bytes under the realm's spray key, cut to its first
 * {@value #BITS} bits. One HMAC per attempt, with a {@link Mac} per thread and realm initialised once. The bucket is
 * all that is ever kept: with 2^{@value #BITS} buckets, each holds about a millionth of any dictionary, so neither the
 * bucket nor the bucket with the key names a password (see docs/security.md).
 */
public final class PasswordBuckets {

    /** The bits of the HMAC kept. */
    public static final int BITS = 20;
    /** No bucket: no password, or the layer is off. */
    public static final long NONE = -1;

    private final Map<String, RealmMac> byRealm = new ConcurrentHashMap<>();

    /**
     * The bucket of {@code password} in {@code realm} under {@code key} (the realm's spray key: a new key, a new
     * array, as {@link dev.abusegate.engine.keys.SecretSource} says). The password is present: the gate asks for no
     * bucket of a missing one ({@code Passwords.missing}), whose attempt checks no password and is never counted.
     */
    public long bucket(String realm, byte[] key, String password) {
        RealmMac m = byRealm.get(realm);
        if (m == null || m.source != key && !MessageDigest.isEqual(m.key, key)) {
            m = new RealmMac(key);
            byRealm.put(realm, m);
        }
        return bucketOf(m.mac.get().doFinal(password.getBytes(StandardCharsets.UTF_8)));
    }

    /** The first {@value #BITS} bits of a digest, big-endian. */
    static long bucketOf(byte[] digest) {
        return ((digest[0] & 0xffL) << 12 | (digest[1] & 0xffL) << 4 | (digest[2] & 0xffL) >>> 4);
    }

    private static final class RealmMac {
        final byte[] source;
        final byte[] key;
        final ThreadLocal<Mac> mac;

        RealmMac(byte[] key) {
            this.source = key;
            this.key = key.clone();
            this.mac = Hmac.perThread(this.key);
        }
    }
}
