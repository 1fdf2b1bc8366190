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
    private static final long MAX = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecureRandom random = new SecureRandom();

    private String challenge(long expiresAt) {
        return Altcha.challengeJson(KEY, MAX, expiresAt, random);
    }

    @Test
    void a_solved_challenge_verifies_and_names_the_challenge_for_single_use() throws Exception {
        String json = challenge(NOW + 600);
        String payload = AltchaSolver.solve(json);

        Altcha.Verified v = Altcha.verify(KEY, MAX, payload, NOW);

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
        String payload = AltchaSolver.solve(challenge(NOW + 10));
        assertThat(Altcha.verify(KEY, MAX, payload, NOW + 10).status()).isEqualTo(Altcha.Status.EXPIRED);
        assertThat(Altcha.verify(KEY, MAX, payload, NOW + 9).status()).isEqualTo(Altcha.Status.VERIFIED);
    }

    @Test
    void a_challenge_signed_with_another_key_is_refused() {
        String foreign = Altcha.challengeJson("another-realm-key-xxxxxxxxxxxxxx".getBytes(StandardCharsets.UTF_8), 5_000, NOW + 60, random);
        assertThat(Altcha.verify(KEY, MAX, AltchaSolver.solve(foreign), NOW).status()).isEqualTo(Altcha.Status.BAD_SIGNATURE);
    }

    @Test
    void a_wrong_number_is_refused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode p = (ObjectNode) json.readTree(Base64.getDecoder().decode(AltchaSolver.solve(challenge(NOW + 60))));
        p.put("number", p.path("number").asLong() + 1);
        String tampered = Base64.getEncoder().encodeToString(json.writeValueAsBytes(p));
        assertThat(Altcha.verify(KEY, MAX, tampered, NOW).status()).isEqualTo(Altcha.Status.WRONG_SOLUTION);
    }

    @Test
    void a_salt_without_expiry_is_refused_because_it_could_be_replayed_forever() throws Exception {
        String salt = "0123456789abcdef01234567?";
        String challenge = Altcha.sha256Hex(salt + 42);
        String payload = payload(salt, 42, challenge, Altcha.hmacHex(KEY, Altcha.signed("SHA-256", MAX, salt, challenge)));
        assertThat(Altcha.verify(KEY, MAX, payload, NOW).status()).isEqualTo(Altcha.Status.MALFORMED);
    }

    @Test
    void the_salt_parameters_are_terminated_so_nothing_can_be_appended_to_them() throws Exception {
        String salt = JSON.readTree(challenge(NOW + 60)).path("salt").asText();
        assertThat(salt).matches("[0-9a-f]{24}\\?expires=" + (NOW + 60) + "&");
    }

    /**
     * Challenge splicing (GHSA-6gvq-jcmp-8959): leading digits of the number moved to the end of the salt
     * leave {@code salt + number} and so the hash unchanged, and turn {@code expires=E} into a date
     * centuries away. The spliced payload of a genuinely solved challenge is refused, before and long
     * after the challenge's real expiry.
     */
    @Test
    void a_spliced_payload_of_a_genuinely_solved_challenge_is_refused_before_and_after_its_expiry() throws Exception {
        String genuine = solvedWithAtLeastTwoDigits(NOW + 60);
        assertThat(Altcha.verify(KEY, MAX, genuine, NOW).ok()).as("control: the genuine payload").isTrue();
        ObjectNode p = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(genuine));
        String digits = String.valueOf(p.path("number").asLong());
        for (int moved = 1; moved < digits.length(); moved++) {
            String rest = digits.substring(moved);
            if (rest.length() > 1 && rest.startsWith("0")) {
                continue; // a JSON number has no leading zeros
            }
            String spliced = payload(p.path("salt").asText() + digits.substring(0, moved), Long.parseLong(rest),
                    p.path("challenge").asText(), p.path("signature").asText());
            assertThat(Altcha.sha256Hex(p.path("salt").asText() + digits.substring(0, moved) + rest))
                    .as("the splice keeps the hash").isEqualTo(p.path("challenge").asText());
            for (long at : new long[] {NOW, NOW + 61, NOW + 86_400L * 365 * 100}) {
                assertThat(Altcha.verify(KEY, MAX, spliced, at).ok()).as("%d digit(s) moved, verified at %d", moved, at).isFalse();
            }
        }
    }

    @Test
    void a_number_above_maxnumber_is_refused_even_with_a_valid_signature_and_hash() throws Exception {
        String salt = "0123456789abcdef01234567?expires=" + (NOW + 60) + "&";
        long number = MAX + 1;
        String challenge = Altcha.sha256Hex(salt + number);
        String payload = payload(salt, number, challenge, Altcha.hmacHex(KEY, Altcha.signed("SHA-256", MAX, salt, challenge)));
        assertThat(Altcha.verify(KEY, MAX, payload, NOW).status()).isEqualTo(Altcha.Status.MALFORMED);
        String within = payload(salt, MAX, Altcha.sha256Hex(salt + MAX),
                Altcha.hmacHex(KEY, Altcha.signed("SHA-256", MAX, salt, Altcha.sha256Hex(salt + MAX))));
        assertThat(Altcha.verify(KEY, MAX, within, NOW).ok()).as("control: maxnumber itself").isTrue();
    }

    @Test
    void the_signature_covers_salt_difficulty_and_algorithm_not_just_the_challenge() throws Exception {
        ObjectNode p = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(AltchaSolver.solve(challenge(NOW + 60))));
        String challenge = p.path("challenge").asText();
        String signedChallengeOnly = payload(p.path("salt").asText(), p.path("number").asLong(), challenge, Altcha.hmacHex(KEY, challenge));
        assertThat(Altcha.verify(KEY, MAX, signedChallengeOnly, NOW).status()).isEqualTo(Altcha.Status.BAD_SIGNATURE);
        String genuine = payload(p.path("salt").asText(), p.path("number").asLong(), challenge, p.path("signature").asText());
        assertThat(Altcha.verify(KEY, MAX * 2, genuine, NOW).status()).as("verified under another difficulty")
                .isEqualTo(Altcha.Status.BAD_SIGNATURE);
        assertThat(Altcha.verify(KEY, MAX, genuine, NOW).ok()).as("control").isTrue();
    }

    private String solvedWithAtLeastTwoDigits(long expiresAt) throws Exception {
        while (true) {
            String payload = AltchaSolver.solve(challenge(expiresAt));
            if (JSON.readTree(Base64.getDecoder().decode(payload)).path("number").asLong() >= 10) {
                return payload;
            }
        }
    }

    private static String payload(String salt, long number, String challenge, String signature) throws Exception {
        ObjectNode p = JSON.createObjectNode().put("algorithm", "SHA-256").put("challenge", challenge).put("number", number)
                .put("salt", salt).put("signature", signature).put("took", 1);
        return Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(p));
    }

    @Test
    void a_challenge_of_an_easier_difficulty_does_not_verify_under_a_harder_one() {
        byte[] easy = Altcha.keyFor(KEY, "t3", Altcha.SIGN_IN, 1_000);
        byte[] hard = Altcha.keyFor(KEY, "t3", Altcha.SIGN_IN, 1_000_000);
        String payload = AltchaSolver.solve(Altcha.challengeJson(easy, 1_000, NOW + 60, random));
        assertThat(Altcha.verify(easy, 1_000, payload, NOW).ok()).isTrue();
        assertThat(Altcha.verify(hard, 1_000_000, payload, NOW).status()).isEqualTo(Altcha.Status.BAD_SIGNATURE);
    }

    @Test
    void a_challenge_verifies_only_in_the_realm_and_for_the_purpose_it_was_issued_for() {
        byte[] t3 = Altcha.keyFor(KEY, "t3", Altcha.SIGN_IN, MAX);
        String payload = AltchaSolver.solve(Altcha.challengeJson(t3, MAX, NOW + 60, random));
        assertThat(Altcha.verify(t3, MAX, payload, NOW).ok()).as("control: the realm that issued it").isTrue();
        assertThat(Altcha.verify(Altcha.keyFor(KEY, "t4", Altcha.SIGN_IN, MAX), MAX, payload, NOW).status())
                .as("another realm with the same secret").isEqualTo(Altcha.Status.BAD_SIGNATURE);
        assertThat(Altcha.verify(Altcha.keyFor(KEY, "t3", "register", MAX), MAX, payload, NOW).status())
                .as("another purpose").isEqualTo(Altcha.Status.BAD_SIGNATURE);
        // the parts are length-prefixed: moving characters between realm and purpose gives another key
        assertThat(Altcha.keyFor(KEY, "t3", "x" + Altcha.SIGN_IN, MAX)).isNotEqualTo(Altcha.keyFor(KEY, "t3x", Altcha.SIGN_IN, MAX));
        assertThat(Altcha.keyFor(KEY, "t3\n8:sign-in", "", MAX)).isNotEqualTo(Altcha.keyFor(KEY, "t3", Altcha.SIGN_IN, MAX));
        assertThat(Altcha.keyFor(KEY, "t3", Altcha.SIGN_IN, MAX)).as("deterministic").isEqualTo(t3);
    }

    @Test
    void garbage_never_throws_and_is_malformed() {
        for (String bad : new String[] {null, "", "not base64 !!", Base64.getEncoder().encodeToString("[1,2]".getBytes()),
                Base64.getEncoder().encodeToString("{\"algorithm\":\"SHA-1\"}".getBytes()), "x".repeat(100_000),
                Base64.getEncoder().encodeToString("{\"algorithm\":\"SHA-256\",\"challenge\":\"00\",\"number\":\"x\"}".getBytes())}) {
            assertThat(Altcha.verify(KEY, MAX, bad, NOW).status()).as(String.valueOf(bad).substring(0, Math.min(20, String.valueOf(bad).length())))
                    .isEqualTo(Altcha.Status.MALFORMED);
        }
    }

    @Test
    void the_challenge_fields_serialise_as_the_challenge_json_parsed_back_did() throws Exception {
        // The token endpoint's 429 body embeds these fields; it used to embed the JSON parsed back into a map.
        Altcha.Challenge c = Altcha.challenge(KEY, MAX, NOW + 60, random);
        java.util.Map<String, Object> before = new java.util.LinkedHashMap<>();
        before.put("captcha_challenge", JSON.readValue(c.json(), java.util.Map.class));
        java.util.Map<String, Object> after = new java.util.LinkedHashMap<>();
        after.put("captcha_challenge", c.fields());
        assertThat(JSON.writeValueAsString(after))
                .isEqualTo(JSON.writeValueAsString(before))
                .contains("\"algorithm\":\"SHA-256\",\"challenge\":\"");
        assertThat(AltchaSolver.solve(c.json())).satisfies(p -> assertThat(Altcha.verify(KEY, MAX, p, NOW).ok()).isTrue());
    }
}
