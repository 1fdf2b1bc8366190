package dev.abusegate.engine;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.text.Normalizer;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Derives the counter keys for an attempt. Keys start with the realm, so realms never share a counter.
 * Identifiers are normalized (trim, NFKC, lower case in the root locale, capped) and then hashed with
 * HMAC-SHA256 under the realm's secret.
 */
public final class GateKeys {

    /** Identifiers longer than this (in chars, after normalization) are cut. */
    public static final int MAX_IDENTIFIER_LENGTH = 255;
    /** Raw input beyond this is not even looked at: bounds the cost of normalizing hostile input. */
    static final int MAX_RAW_LENGTH = 4 * MAX_IDENTIFIER_LENGTH;

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final SecretSource secrets;
    private final Map<String, RealmHasher> hashers = new ConcurrentHashMap<>();

    public GateKeys(SecretSource secrets) {
        this.secrets = secrets;
    }

    /** Trim, Unicode NFKC, lower case (root locale), capped. Null becomes the empty string. */
    public static String normalizeIdentifier(String raw) {
        if (raw == null) {
            return "";
        }
        // Skip leading whitespace (what String.trim drops, as Keycloak does before the user lookup) before
        // capping, so padding cannot push the real name out of the capped window.
        int start = 0;
        while (start < raw.length() && raw.charAt(start) <= ' ') {
            start++;
        }
        String s = raw.length() - start > MAX_RAW_LENGTH ? raw.substring(start, start + MAX_RAW_LENGTH) : raw.substring(start);
        s = s.trim();
        if (!Normalizer.isNormalized(s, Normalizer.Form.NFKC)) {
            s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        }
        s = s.toLowerCase(Locale.ROOT).trim();
        if (s.length() > MAX_IDENTIFIER_LENGTH) {
            int end = MAX_IDENTIFIER_LENGTH;
            if (Character.isHighSurrogate(s.charAt(end - 1))) {
                end--;
            }
            s = s.substring(0, end);
        }
        return s;
    }

    /** Everything the layers need for one attempt. */
    public Keys forAttempt(Attempt attempt, int ipv6PrefixLength) {
        return forAttempt(attempt.realm(), attempt.address(), attempt.identifier(), ipv6PrefixLength);
    }

    public Keys forAttempt(String realm, String address, String identifier, int ipv6PrefixLength) {
        RealmHasher hasher = hasher(realm);
        String addr = addressKey(hasher, address, ipv6PrefixLength);
        byte[] digest = hasher.digest(normalizeIdentifier(identifier));
        String id = base64Url16(digest);
        long member = 0;
        for (int i = 0; i < 8; i++) {
            member = (member << 8) | (digest[i] & 0xffL);
        }
        return new Keys(
                hasher.ipPrefix + addr,
                hasher.pairPrefix + addr + '/' + id,
                hasher.failPrefix + id,
                hasher.lockPrefix + id,
                hasher.idsPrefix + addr,
                member,
                id,
                hasher.realmPrefix);
    }

    /** The keyed tag of an identifier (what device cookies bind to): never the identifier itself. */
    public String identifierTag(String realm, String identifier) {
        return base64Url16(hasher(realm).digest(normalizeIdentifier(identifier)));
    }

    private static final char[] B64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

    /** The first 16 bytes in unpadded URL-safe Base64 (22 chars), as {@code Base64.getUrlEncoder().withoutPadding()}. */
    static String base64Url16(byte[] b) {
        char[] out = new char[22];
        int o = 0;
        for (int i = 0; i < 15; i += 3) {
            int v = (b[i] & 0xff) << 16 | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff);
            out[o++] = B64_URL[v >>> 18];
            out[o++] = B64_URL[(v >>> 12) & 0x3f];
            out[o++] = B64_URL[(v >>> 6) & 0x3f];
            out[o++] = B64_URL[v & 0x3f];
        }
        int last = b[15] & 0xff;
        out[o++] = B64_URL[last >>> 2];
        out[o] = B64_URL[(last << 4) & 0x3f];
        return new String(out);
    }

    private static String addressKey(RealmHasher hasher, String address, int ipv6PrefixLength) {
        String canonical = AddressKeys.canonical(address, ipv6PrefixLength);
        if (canonical != null) {
            return canonical;
        }
        // Not an IP literal: keyed as itself, hashed so the key stays short and printable.
        String raw = address == null ? "" : address;
        if (raw.length() > MAX_RAW_LENGTH) {
            raw = raw.substring(0, MAX_RAW_LENGTH);
        }
        return "?" + B64.encodeToString(java.util.Arrays.copyOf(hasher.digest("addr:" + raw), 12));
    }

    private RealmHasher hasher(String realm) {
        byte[] secret = secrets.secretFor(realm);
        if (secret == null || secret.length == 0) {
            throw new IllegalStateException("no identifier-hashing secret for realm " + realm);
        }
        RealmHasher h = hashers.get(realm);
        if (h == null || !MessageDigest.isEqual(h.secret, secret)) {
            h = new RealmHasher(realm, secret.clone());
            hashers.put(realm, h);
        }
        return h;
    }

    /**
     * The keys of one attempt. {@code member} is the identifier's 64-bit tag in the distinct set,
     * {@code identifierTag} its keyed 128-bit tag.
     */
    public record Keys(String perIp, String perIpAccount, String failures, String lock, String identifiers, long member,
                       String identifierTag, String realmPrefix) {

        /** Layer 3 counted against a device's own budget instead of the account's shared one. */
        public Keys forDevice(String deviceId) {
            return new Keys(perIp, perIpAccount, realmPrefix + "devfail/" + deviceId, realmPrefix + "devlock/" + deviceId,
                    identifiers, member, identifierTag, realmPrefix);
        }

        /** How many times in a row the identifier has been locked (progressive lockout). */
        public String lockCount() {
            return realmPrefix + "locks/" + identifierTag;
        }

        /** Keyed tags of the identifier's recent wrong passwords. */
        public String recentWrongPasswords() {
            return realmPrefix + "typos/" + identifierTag;
        }
    }

    private static final class RealmHasher {
        final byte[] secret;
        final ThreadLocal<Mac> mac;
        // the realm's key prefixes, built once: every key starts with the realm
        final String realmPrefix;
        final String ipPrefix;
        final String pairPrefix;
        final String failPrefix;
        final String lockPrefix;
        final String idsPrefix;

        RealmHasher(String realm, byte[] secret) {
            this.secret = secret;
            this.realmPrefix = realm + "/";
            this.ipPrefix = realm + "/ip/";
            this.pairPrefix = realm + "/pair/";
            this.failPrefix = realm + "/fail/";
            this.lockPrefix = realm + "/lock/";
            this.idsPrefix = realm + "/ids/";
            SecretKeySpec key = new SecretKeySpec(secret, "HmacSHA256");
            this.mac = ThreadLocal.withInitial(() -> {
                try {
                    Mac m = Mac.getInstance("HmacSHA256");
                    m.init(key);
                    return m;
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("HmacSHA256 unavailable", e);
                }
            });
        }

        byte[] digest(String value) {
            return mac.get().doFinal(value.getBytes(StandardCharsets.UTF_8));
        }
    }
}
