package dev.abusegate.engine.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"). After a successful login the
 * browser gets a token that binds one account to a random device id, signed with a per-realm key. An attempt that
 * presents a valid token for the account it names is counted against that device's own small lockout budget instead
 * of the account's shared one, so the owner's known browser still gets in while strangers have the account locked,
 * and a stolen token gives no more than its own budget.
 *
 * <p>The token binds the account twice, and never in the clear:
 * <ul>
 *   <li>the keyed tags of the account's login names when it was issued (its username, and its e-mail where the realm
 *       allows e-mail login), so that whichever of them the owner types, the token is recognised without a lookup,
 *       and a name outside the token costs nothing;</li>
 *   <li>a keyed tag of the account's id, which the caller compares with the account the typed name belongs to now:
 *       a name that has since passed to another account (an e-mail given to someone else) does not carry the token
 *       over to it.</li>
 * </ul>
 *
 * <p>Format: {@code v2.<accountTag>.<nameTag>[~<nameTag>].<deviceId>.<expiresAtSeconds>.<signature>}, base64url
 * parts; the signature covers the realm id as well as every part before it. Tokens of any other shape, including
 * the earlier {@code v1}, are not valid (the next successful login issues a new one).
 */
public final class DeviceTokens {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    static final int MAX_TOKEN_CHARS = 256;
    /** An account has at most two login names (its username and its e-mail). */
    static final int MAX_NAMES = 2;
    private static final String VERSION = "v2";
    private static final byte[] ACCOUNT_LABEL = "abuse-gate/device-account/v2".getBytes(StandardCharsets.US_ASCII);

    private DeviceTokens() {
    }

    /** A genuine, unexpired token presented for one of its names: its device id and the account tag it binds. */
    public record Verified(String deviceId, String accountTag) {

        /** Whether the token was issued for the account with this id (compared in constant time). */
        public boolean boundTo(byte[] key, String accountId) {
            return MessageDigest.isEqual(DeviceTokens.accountTag(key, accountId).getBytes(StandardCharsets.US_ASCII),
                    accountTag.getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** The keyed tag of an account's id (what a token binds the account by): never the id itself. */
    public static String accountTag(byte[] key, String accountId) {
        byte[] d = Hmac.sha256(key, ACCOUNT_LABEL, new byte[] {0}, accountId.getBytes(StandardCharsets.UTF_8));
        return B64.encodeToString(Arrays.copyOf(d, 16));
    }

    /** What a token binds: the account's keyed tag ({@link #accountTag}) and its login names' keyed tags (1 to 8). */
    public record Binding(String accountTag, List<String> nameTags) {
        public Binding {
            nameTags = List.copyOf(nameTags);
            if (nameTags.isEmpty() || nameTags.size() > MAX_NAMES) {
                throw new IllegalArgumentException("a device token names 1 to " + MAX_NAMES + " login names");
            }
        }
    }

    /** A new token for a fresh random device id. */
    public static String issue(byte[] key, String realmId, Binding binding, long expiresAtSeconds, SecureRandom random) {
        byte[] device = new byte[16];
        random.nextBytes(device);
        return issue(key, realmId, binding, B64.encodeToString(device), expiresAtSeconds);
    }

    /** A token for a known device id (re-issued after each successful login, so its lifetime slides). */
    public static String issue(byte[] key, String realmId, Binding binding, String deviceId, long expiresAtSeconds) {
        String body = VERSION + "." + binding.accountTag() + "." + String.join("~", binding.nameTags()) + "." + deviceId + "."
                + expiresAtSeconds;
        return body + "." + sign(key, realmId, body);
    }

    /**
     * The device id and account tag when the token is genuine (signed for this realm), unexpired, and names
     * {@code nameTag} among its login names; otherwise null. Whether the account tag is the named account's now is
     * the caller's check. Never throws on bad input.
     */
    public static Verified verify(byte[] key, String realmId, String token, String nameTag, long nowSeconds) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS || nameTag == null || realmId == null) {
            return null;
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0])) {
            return null;
        }
        int sig = token.lastIndexOf('.');
        String body = token.substring(0, sig);
        if (!MessageDigest.isEqual(sign(key, realmId, body).getBytes(StandardCharsets.US_ASCII),
                parts[5].getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        if (!isTag(parts[1], 16) || !isTag(parts[3], 16) || !named(parts[2], nameTag)) {
            return null;
        }
        long expires;
        try {
            expires = Long.parseLong(parts[4]);
        } catch (NumberFormatException e) {
            return null;
        }
        return expires > nowSeconds ? new Verified(parts[3], parts[1]) : null;
    }

    /** Whether the {@code ~}-joined name tags hold {@code nameTag} (compared in constant time, each a 128-bit tag). */
    private static boolean named(String names, String nameTag) {
        String[] tags = names.split("~", -1);
        if (tags.length > MAX_NAMES) {
            return false;
        }
        boolean found = false;
        for (String tag : tags) {
            if (!isTag(tag, 16)) {
                return false;
            }
            found |= MessageDigest.isEqual(tag.getBytes(StandardCharsets.US_ASCII), nameTag.getBytes(StandardCharsets.US_ASCII));
        }
        return found;
    }

    /** Whether {@code part} is canonical unpadded base64url of exactly {@code bytes} bytes. */
    private static boolean isTag(String part, int bytes) {
        if (part.length() != (bytes * 4 + 2) / 3) {
            return false;
        }
        try {
            byte[] raw = B64D.decode(part);
            return raw.length == bytes && B64.encodeToString(raw).equals(part);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String sign(byte[] key, String realmId, String body) {
        return B64.encodeToString(Hmac.sha256(key, realmId.getBytes(StandardCharsets.UTF_8), new byte[] {0},
                body.getBytes(StandardCharsets.UTF_8)));
    }
}
