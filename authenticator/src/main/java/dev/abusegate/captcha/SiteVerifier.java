package dev.abusegate.captcha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Verifies a Turnstile, hCaptcha or reCAPTCHA token against the provider's siteverify API: a form
 * POST of the secret, the token and the client address ({@code remoteip}), answered with JSON whose
 * {@code success} says yes or no (reCAPTCHA v3 adds a {@code score}). Anything else, an unreachable
 * provider or an answer that is not such JSON, counts as unsolved. Never throws.
 */
public final class SiteVerifier {

    /** Sends one form POST; the Keycloak side uses Keycloak's HttpClientProvider. */
    @FunctionalInterface
    public interface FormPoster {
        /** Returns the HTTP status and body; throws IOException when the endpoint cannot be reached. */
        Reply post(String url, Map<String, String> form) throws IOException;
    }

    public record Reply(int status, String body) {
    }

    public enum Status { VERIFIED, REJECTED, LOW_SCORE, UNREACHABLE, GARBAGE }

    /** Tokens longer than this are not sent anywhere. */
    static final int MAX_TOKEN_CHARS = 8192;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SiteVerifier() {
    }

    public static Status verify(FormPoster poster, String url, String secret, String token, String remoteIp, double minScore) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
            return Status.REJECTED;
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("secret", secret == null ? "" : secret);
        form.put("response", token);
        if (remoteIp != null && !remoteIp.isEmpty()) {
            form.put("remoteip", remoteIp);
        }
        Reply reply;
        try {
            reply = poster.post(url, form);
        } catch (IOException | RuntimeException e) {
            return Status.UNREACHABLE;
        }
        if (reply == null || reply.status() / 100 != 2 || reply.body() == null) {
            return reply != null && reply.status() / 100 == 5 ? Status.UNREACHABLE : Status.GARBAGE;
        }
        JsonNode node;
        try {
            node = JSON.readTree(reply.body());
        } catch (IOException | RuntimeException e) {
            return Status.GARBAGE;
        }
        if (node == null || !node.isObject() || !node.path("success").isBoolean()) {
            return Status.GARBAGE;
        }
        if (!node.path("success").asBoolean()) {
            return Status.REJECTED;
        }
        JsonNode score = node.get("score");
        if (score != null && score.isNumber() && score.asDouble() < minScore) {
            return Status.LOW_SCORE;
        }
        return Status.VERIFIED;
    }
}
