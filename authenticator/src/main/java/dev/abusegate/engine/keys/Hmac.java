package dev.abusegate.engine.keys;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256, the one keyed hash every derived key, tag and signature in the gate uses. */
public final class Hmac {

    private Hmac() {
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
