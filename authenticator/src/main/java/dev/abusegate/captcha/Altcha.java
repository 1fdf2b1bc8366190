package dev.abusegate.captcha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import dev.abusegate.engine.Hmac;

/**
 * ALTCHA proof of work, server side (the classic SHA-256 challenge the altcha 2.x widget solves).
 *
 * <p>A challenge is {@code sha256(salt + n)} for a secret random {@code n} in {@code [0, maxNumber]};
 * the salt carries its expiry ({@code ?expires=<unix seconds>}) and the challenge is signed with an HMAC
 * key only the server holds, so the server needs no state to issue one. The browser finds {@code n} by
 * brute force and submits it base64-encoded as JSON. Verification checks the signature, the work, and
 * the expiry; the caller enforces single use with {@link Verified#challenge()}.
 */
public final class Altcha {

    public static final String ALGORITHM = "SHA-256";
    /** Payloads larger than this are garbage, not worth decoding. */
    static final int MAX_PAYLOAD_CHARS = 4096;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private Altcha() {
    }

    /**
     * The HMAC key challenges of one difficulty are signed with: derived from the realm's secret and bound
     * to {@code maxNumber}, so a challenge issued where solving is cheap does not verify where it is dear.
     */
    public static byte[] keyFor(byte[] secret, long maxNumber) {
        return Hmac.sha256(secret, ("altcha maxnumber=" + maxNumber).getBytes(StandardCharsets.UTF_8));
    }

    /** A new signed challenge as the JSON the widget's {@code challengejson} attribute takes. */
    public static String challengeJson(byte[] hmacKey, long maxNumber, long expiresAtSeconds, SecureRandom random) {
        byte[] saltBytes = new byte[12];
        random.nextBytes(saltBytes);
        String salt = HEX.formatHex(saltBytes) + "?expires=" + expiresAtSeconds;
        long number = (long) (random.nextDouble() * (maxNumber + 1));
        String challenge = sha256Hex(salt + number);
        ObjectNode node = JSON.createObjectNode();
        node.put("algorithm", ALGORITHM);
        node.put("challenge", challenge);
        node.put("maxnumber", maxNumber);
        node.put("salt", salt);
        node.put("signature", hmacHex(hmacKey, challenge));
        return node.toString();
    }

    /** Why a payload was not accepted, or that it was. */
    public enum Status { VERIFIED, MALFORMED, BAD_SIGNATURE, WRONG_SOLUTION, EXPIRED }

    /**
     * The verification result. {@code challenge} identifies the solved challenge, so the caller can
     * accept each one once; {@code expiresAtSeconds} says how long it must be remembered.
     */
    public record Verified(Status status, String challenge, long expiresAtSeconds) {
        public boolean ok() {
            return status == Status.VERIFIED;
        }
    }

    /** Verifies a submitted payload (base64 JSON). Never throws on bad input. */
    public static Verified verify(byte[] hmacKey, String payload, long nowSeconds) {
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
        if (!ALGORITHM.equals(algorithm) || challenge.length() != 64 || salt.isEmpty() || salt.length() > 200
                || numberNode == null || !numberNode.canConvertToLong() || numberNode.asLong() < 0) {
            return new Verified(Status.MALFORMED, null, 0);
        }
        if (!MessageDigest.isEqual(hmacHex(hmacKey, challenge).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII))) {
            return new Verified(Status.BAD_SIGNATURE, null, 0);
        }
        if (!MessageDigest.isEqual(sha256Hex(salt + numberNode.asLong()).getBytes(StandardCharsets.US_ASCII),
                challenge.getBytes(StandardCharsets.US_ASCII))) {
            return new Verified(Status.WRONG_SOLUTION, null, 0);
        }
        long expires = expiresOf(salt);
        if (expires <= nowSeconds) {
            return new Verified(Status.EXPIRED, challenge, expires);
        }
        return new Verified(Status.VERIFIED, challenge, expires);
    }

    /** The {@code expires} parameter of a salt, 0 when it has none (a challenge without expiry is refused). */
    static long expiresOf(String salt) {
        int q = salt.indexOf('?');
        if (q < 0) {
            return 0;
        }
        for (String param : salt.substring(q + 1).split("&")) {
            if (param.startsWith("expires=")) {
                try {
                    return Long.parseLong(param.substring("expires=".length()));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** Solves a challenge by brute force, as the widget does. For tests and API clients. */
    public static String solve(String challengeJson) {
        try {
            JsonNode c = JSON.readTree(challengeJson);
            String salt = c.path("salt").asText();
            String challenge = c.path("challenge").asText();
            long max = c.path("maxnumber").asLong();
            for (long n = 0; n <= max; n++) {
                if (sha256Hex(salt + n).equals(challenge)) {
                    ObjectNode p = JSON.createObjectNode();
                    p.put("algorithm", ALGORITHM);
                    p.put("challenge", challenge);
                    p.put("number", n);
                    p.put("salt", salt);
                    p.put("signature", c.path("signature").asText());
                    p.put("took", 1);
                    return Base64.getEncoder().encodeToString(p.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            return null;
        } catch (Exception e) {
            return null;
        }
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
