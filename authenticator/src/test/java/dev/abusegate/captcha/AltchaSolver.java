package dev.abusegate.captcha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Test support (shared with integration-tests/ through the test jar): solves an {@link Altcha} challenge by brute
 * force, as the widget does, and answers with the widget's payload. The server never solves, so the provider JAR
 * does not ship it.
 */
public final class AltchaSolver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AltchaSolver() {
    }

    /** The widget's payload (base64 of its JSON) for the challenge, or null when the challenge cannot be read or solved. */
    public static String solve(String challengeJson) {
        try {
            JsonNode c = JSON.readTree(challengeJson);
            String salt = c.path("salt").asText();
            String challenge = c.path("challenge").asText();
            long max = c.path("maxnumber").asLong();
            for (long n = 0; n <= max; n++) {
                if (Altcha.sha256Hex(salt + n).equals(challenge)) {
                    ObjectNode p = JSON.createObjectNode();
                    p.put("algorithm", Altcha.ALGORITHM);
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
}
