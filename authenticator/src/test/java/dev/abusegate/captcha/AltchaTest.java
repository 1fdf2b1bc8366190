package dev.abusegate.captcha;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class AltchaTest {

    private static final byte[] KEY = "realm-derived-key-for-tests-0001".getBytes(StandardCharsets.UTF_8);
    private static final long NOW = 1_800_000_000L;
    private final SecureRandom random = new SecureRandom();

    private String challenge(long expiresAt) {
        return Altcha.challengeJson(KEY, 5_000, expiresAt, random);
    }

    @Test
    void a_solved_challenge_verifies_and_names_the_challenge_for_single_use() throws Exception {
        String json = challenge(NOW + 600);
        String payload = Altcha.solve(json);

        Altcha.Verified v = Altcha.verify(KEY, payload, NOW);

        assertThat(v.ok()).isTrue();
        assertThat(v.challenge()).isEqualTo(new ObjectMapper().readTree(json).path("challenge").asText());
        assertThat(v.expiresAtSeconds()).isEqualTo(NOW + 600);
    }

    @Test
    void the_challenge_json_has_what_the_widget_needs_and_hides_the_number() throws Exception {
        var node = new ObjectMapper().readTree(challenge(NOW + 60));
        assertThat(node.path("algorithm").asText()).isEqualTo("SHA-256");
        assertThat(node.path("challenge").asText()).hasSize(64);
        assertThat(node.path("maxnumber").asLong()).isEqualTo(5_000);
        assertThat(node.path("salt").asText()).contains("?expires=" + (NOW + 60));
        assertThat(node.path("signature").asText()).hasSize(64);
        assertThat(node.has("number")).isFalse();
    }

    @Test
    void an_expired_challenge_is_refused_even_when_solved() {
        String payload = Altcha.solve(challenge(NOW + 10));
        assertThat(Altcha.verify(KEY, payload, NOW + 10).status()).isEqualTo(Altcha.Status.EXPIRED);
        assertThat(Altcha.verify(KEY, payload, NOW + 9).status()).isEqualTo(Altcha.Status.VERIFIED);
    }

    @Test
    void a_challenge_signed_with_another_key_is_refused() {
        String foreign = Altcha.challengeJson("another-realm-key-xxxxxxxxxxxxxx".getBytes(StandardCharsets.UTF_8), 5_000, NOW + 60, random);
        assertThat(Altcha.verify(KEY, Altcha.solve(foreign), NOW).status()).isEqualTo(Altcha.Status.BAD_SIGNATURE);
    }

    @Test
    void a_wrong_number_is_refused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode p = (ObjectNode) json.readTree(Base64.getDecoder().decode(Altcha.solve(challenge(NOW + 60))));
        p.put("number", p.path("number").asLong() + 1);
        String tampered = Base64.getEncoder().encodeToString(json.writeValueAsBytes(p));
        assertThat(Altcha.verify(KEY, tampered, NOW).status()).isEqualTo(Altcha.Status.WRONG_SOLUTION);
    }

    @Test
    void a_salt_without_expiry_is_refused_because_it_could_be_replayed_forever() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String salt = "abcdef";
        String challenge = Altcha.sha256Hex(salt + 42);
        ObjectNode p = json.createObjectNode().put("algorithm", "SHA-256").put("challenge", challenge).put("number", 42)
                .put("salt", salt).put("signature", Altcha.hmacHex(KEY, challenge));
        String payload = Base64.getEncoder().encodeToString(json.writeValueAsBytes(p));
        assertThat(Altcha.verify(KEY, payload, NOW).status()).isEqualTo(Altcha.Status.EXPIRED);
    }

    @Test
    void a_challenge_of_an_easier_difficulty_does_not_verify_under_a_harder_one() {
        byte[] easy = Altcha.keyFor(KEY, 1_000);
        byte[] hard = Altcha.keyFor(KEY, 1_000_000);
        String payload = Altcha.solve(Altcha.challengeJson(easy, 1_000, NOW + 60, random));
        assertThat(Altcha.verify(easy, payload, NOW).ok()).isTrue();
        assertThat(Altcha.verify(hard, payload, NOW).status()).isEqualTo(Altcha.Status.BAD_SIGNATURE);
    }

    @Test
    void garbage_never_throws_and_is_malformed() {
        for (String bad : new String[] {null, "", "not base64 !!", Base64.getEncoder().encodeToString("[1,2]".getBytes()),
                Base64.getEncoder().encodeToString("{\"algorithm\":\"SHA-1\"}".getBytes()), "x".repeat(100_000),
                Base64.getEncoder().encodeToString("{\"algorithm\":\"SHA-256\",\"challenge\":\"00\",\"number\":\"x\"}".getBytes())}) {
            assertThat(Altcha.verify(KEY, bad, NOW).status()).as(String.valueOf(bad).substring(0, Math.min(20, String.valueOf(bad).length())))
                    .isEqualTo(Altcha.Status.MALFORMED);
        }
    }
}
