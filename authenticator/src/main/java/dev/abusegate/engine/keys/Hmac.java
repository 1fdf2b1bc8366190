package dev.abusegate.engine.keys;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256, the one keyed hash every derived key, tag and signature in the gate uses. */
public final class Hmac {

    private Hmac() {
    }

    /** A {@link Mac} per thread (a Mac is not thread-safe), each initialised once with {@code key}. */
    public static ThreadLocal<Mac> perThread(byte[] key) {
        SecretKeySpec spec = new SecretKeySpec(key, "HmacSHA256");
        return ThreadLocal.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(spec);
                return m;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 unavailable", e);
            }
        });
    }

    /** HMAC-SHA256 of the concatenated parts under {@code key}. */
    public static byte[] sha256(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
