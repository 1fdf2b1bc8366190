package dev.abusegate.engine.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"). After a successful
 * login the browser gets a token that binds the account (as its keyed identifier tag, never the
 * username) to a random device id, signed with a per-realm key. An attempt that presents a valid token
 * for the identifier it submits is counted against that device's own small lockout budget instead of
 * the account's shared one, so the owner's known browser still gets in while strangers have the account
 * locked, and a stolen token gives no more than its own budget.
 *
 * <p>Format: {@code v1.<identifierTag>.<deviceId>.<expiresAtSeconds>.<signature>}, base64url parts.
 */
public final class DeviceTokens {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    static final int MAX_TOKEN_CHARS = 256;

    private DeviceTokens() {
    }

    /** A new token for a fresh random device id. */
    public static String issue(byte[] key, String identifierTag, long expiresAtSeconds, SecureRandom random) {
        byte[] device = new byte[16];
        random.nextBytes(device);
        return issue(key, identifierTag, B64.encodeToString(device), expiresAtSeconds);
    }

    /** A token for a known device id (re-issued after each successful login, so its lifetime slides). */
    public static String issue(byte[] key, String identifierTag, String deviceId, long expiresAtSeconds) {
        String body = "v1." + identifierTag + "." + deviceId + "." + expiresAtSeconds;
        return body + "." + sign(key, body);
    }

    /**
     * The device id when the token is genuine, unexpired and bound to {@code identifierTag}; otherwise
     * null. Never throws on bad input.
     */
    public static String verify(byte[] key, String token, String identifierTag, long nowSeconds) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS || identifierTag == null) {
            return null;
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 5 || !"v1".equals(parts[0])) {
            return null;
        }
        String body = parts[0] + "." + parts[1] + "." + parts[2] + "." + parts[3];
        if (!MessageDigest.isEqual(sign(key, body).getBytes(StandardCharsets.US_ASCII), parts[4].getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        if (!MessageDigest.isEqual(parts[1].getBytes(StandardCharsets.US_ASCII), identifierTag.getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        long expires;
        try {
            expires = Long.parseLong(parts[3]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (expires <= nowSeconds) {
            return null;
        }
        try {
            if (B64D.decode(parts[2]).length != 16) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        return parts[2];
    }

    private static String sign(byte[] key, String body) {
        return B64.encodeToString(Hmac.sha256(key, body.getBytes(StandardCharsets.UTF_8)));
    }
}
