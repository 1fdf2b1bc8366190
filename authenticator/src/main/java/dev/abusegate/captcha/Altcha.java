package dev.abusegate.captcha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.abusegate.engine.keys.Hmac;

/**
 * ALTCHA proof of work, server side (the classic SHA-256 challenge the altcha 2.x widget solves).
 *
 * <p>A challenge is {@code sha256(salt + n)} for a secret random {@code n} in {@code [0, maxNumber]}. The
 * salt carries its expiry as a parameter list terminated by {@code '&'} ({@code <hex>?expires=<unix
 * seconds>&}), as the ALTCHA project's fix for challenge splicing (GHSA-6gvq-jcmp-8959, CVE-2025-68113)
 * prescribes: without the terminator, leading digits of {@code n} could be moved into {@code expires} and
 * the hash would stay the same. The server needs no state to issue a challenge: an HMAC with a key only
 * the server holds covers everything verification later trusts (algorithm, difficulty, salt with its
 * parameters, challenge). The browser finds {@code n} by brute force and submits it base64-encoded as
 * JSON. Verification checks the salt's form, {@code n <= maxNumber}, the signature, the work, and the
 * expiry; the caller enforces single use with {@link Verified#challenge()} until {@link
 * Verified#expiresAtSeconds()}, which is signed and so real.
 */
public final class Altcha {

    public static final String ALGORITHM = "SHA-256";
    /** Payloads larger than this are garbage, not worth decoding. */
    static final int MAX_PAYLOAD_CHARS = 4096;
    /** The only salt this server issues: 12 random bytes in hex, then the terminated parameter list. */
    private static final Pattern SALT = Pattern.compile("[0-9a-f]{24}\\?expires=([0-9]{1,12})&");
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private Altcha() {
    }

    /** The purpose of the challenges the gate's captcha band offers on sign-in (browser forms and the token endpoint). */
    public static final String SIGN_IN = "sign-in";

    /**
     * The HMAC key challenges are signed with: derived from the realm's secret and bound to the realm, the
     * purpose and the difficulty. So a challenge is valid only in the realm and for the purpose it was issued
     * for (realms that share a {@code captcha.secret} still accept only their own), and one issued where solving
     * is cheap does not verify where it is dear. Each part is length-prefixed, so no two bindings collide.
     */
    public static byte[] keyFor(byte[] secret, String realmId, String purpose, long maxNumber) {
        String binding = "altcha key v2\n" + realmId.length() + ':' + realmId + '\n' + purpose.length() + ':' + purpose
                + "\nmaxnumber=" + maxNumber;
        return Hmac.sha256(secret, binding.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A signed challenge's fields, as the widget and API clients get them: in this order, under these names
     * ({@code algorithm}, {@code challenge}, {@code maxnumber}, {@code salt}, {@code signature}).
     */
    public record Challenge(String algorithm, String challenge, long maxNumber, String salt, String signature) {

        /** The fields by name, in order: for a JSON body that embeds the challenge as an object. */
        public Map<String, Object> fields() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("algorithm", algorithm);
            m.put("challenge", challenge);
            m.put("maxnumber", maxNumber);
            m.put("salt", salt);
            m.put("signature", signature);
            return m;
        }

        /** The JSON the widget's {@code challengejson} attribute takes. */
        public String json() {
            return JSON.valueToTree(fields()).toString();
        }
    }

    /** A new signed challenge. */
    public static Challenge challenge(byte[] hmacKey, long maxNumber, long expiresAtSeconds, SecureRandom random) {
        byte[] saltBytes = new byte[12];
        random.nextBytes(saltBytes);
        String salt = HEX.formatHex(saltBytes) + "?expires=" + expiresAtSeconds + "&";
        long number = (long) (random.nextDouble() * (maxNumber + 1));
        String challenge = sha256Hex(salt + number);
        return new Challenge(ALGORITHM, challenge, maxNumber, salt, hmacHex(hmacKey, signed(ALGORITHM, maxNumber, salt, challenge)));
    }

    /** A new signed challenge as the JSON the widget's {@code challengejson} attribute takes. */
    public static String challengeJson(byte[] hmacKey, long maxNumber, long expiresAtSeconds, SecureRandom random) {
        return challenge(hmacKey, maxNumber, expiresAtSeconds, random).json();
    }

    /**
     * What the signature covers, one field per line. None of the fields can hold a line break (the salt
     * and challenge are checked against their exact forms before the signature is), so the fields cannot
     * be shifted against each other.
     */
    static String signed(String algorithm, long maxNumber, String salt, String challenge) {
        return "altcha-challenge v2\n" + algorithm + "\n" + maxNumber + "\n" + salt + "\n" + challenge;
    }

    /** Why a payload was not accepted, or that it was. */
    public enum Status { VERIFIED, MALFORMED, BAD_SIGNATURE, WRONG_SOLUTION, EXPIRED }

    /**
     * The verification result. {@code challenge} identifies the solved challenge, so the caller can
     * accept each one once; {@code expiresAtSeconds} (signed) says how long it must be remembered.
     */
    public record Verified(Status status, String challenge, long expiresAtSeconds) {
        public boolean ok() {
            return status == Status.VERIFIED;
        }
    }

    /**
     * Verifies a submitted payload (base64 JSON) against the difficulty the server issues, {@code
     * maxNumber}. Never throws on bad input.
     */
    public static Verified verify(byte[] hmacKey, long maxNumber, String payload, long nowSeconds) {
        if (payload == null || payload.isEmpty() || payload.length() > MAX_PAYLOAD_CHARS) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        JsonNode node;
        try {
            node = JSON.readTree(Base64.getDecoder().decode(payload.trim()));
        } catch (Exception e) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        if (node == null || !node.isObject()) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        String algorithm = node.path("algorithm").asText("");
        String challenge = node.path("challenge").asText("");
        String salt = node.path("salt").asText("");
        String signature = node.path("signature").asText("");
        JsonNode numberNode = node.get("number");
        Matcher saltForm = SALT.matcher(salt);
        if (!ALGORITHM.equals(algorithm) || !HEX64.matcher(challenge).matches() || !saltForm.matches()
                || numberNode == null || !numberNode.isIntegralNumber() || !numberNode.canConvertToLong()) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        long number = numberNode.asLong();
        if (number < 0 || number > maxNumber) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        if (!MessageDigest.isEqual(hmacHex(hmacKey, signed(algorithm, maxNumber, salt, challenge)).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII))) {
            return new Verified(Status.BAD_SIGNATURE, null, 0);
        }
        if (!MessageDigest.isEqual(sha256Hex(salt + number).getBytes(StandardCharsets.US_ASCII),
                challenge.getBytes(StandardCharsets.US_ASCII))) {
            return new Verified(Status.WRONG_SOLUTION, null, 0);
        }
        long expires = Long.parseLong(saltForm.group(1));
        if (expires <= nowSeconds) {
            return new Verified(Status.EXPIRED, challenge, expires);
        }
        return new Verified(Status.VERIFIED, challenge, expires);
    }

    static String sha256Hex(String s) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hmacHex(byte[] key, String s) {
        return HEX.formatHex(Hmac.sha256(key, s.getBytes(StandardCharsets.UTF_8)));
    }
}
