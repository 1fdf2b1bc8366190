package dev.abusegate.it;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.AuthenticatorConfigRepresentation;
import org.keycloak.representations.idm.EventRepresentation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate on the token endpoint's password grant ({@code abuse-gate-direct-grant} alone in the realm's
 * direct grant flow): every layer, the exact 429 JSON answers, the ALTCHA round trip with
 * {@code captcha_token}, and Keycloak's own answer for wrong credentials (compared with a stock realm).
 */
class DirectGrantIT extends ServerTest {

    private static final String GATED_PROVIDER = "abuse-gate-direct-grant";
    /** Layer labels and config prefixes that must never appear in an answer. */
    private static final List<String> LAYER_WORDS = List.of("layer", "per_ip", "perIp", "account_lockout", "accountLockout",
            "credential_stuffing", "credentialStuffing", "per_ip_account");
    private static final int LOCKOUT_SECONDS = 6;

    /** Gated, captcha off: per address 5, per pair 2, lockout 2 (6 s), distinct identifiers 3. */
    private static String layersRealm;
    /** Gated, only per address (threshold 4) and the captcha band (from 2 attempts). */
    private static String captchaRealm;
    /** Keycloak's default direct grant flow. */
    private static String stockRealm;
    /** The stock realm's answer to a wrong password (what the gated realms must give too). */
    private static TokenResponse stockRejection;

    @BeforeAll
    static void createRealms() {
        layersRealm = importClassRealm(RealmBuilder.unique("dg-layers")
                .user("alice", "alice-secret-1")
                .user("bob", "bob-secret-1")
                .user("carol", "carol-secret-1")
                .user("dave", "dave-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, Map.of(
                        "captcha.enabled", "false",
                        "perIp.threshold", "5",
                        "perIpAccount.threshold", "2",
                        "accountLockout.threshold", "2",
                        "accountLockout.lockoutSeconds", Integer.toString(LOCKOUT_SECONDS),
                        "credentialStuffing.threshold", "3",
                        // the tests try "wrong" for more accounts than the password-spray layer's threshold: it would
                        // ask for a captcha before layers 1 to 4 answer (PasswordSprayIT tests that layer)
                        "passwordSpray.enabled", "false")));
        captchaRealm = importClassRealm(RealmBuilder.unique("dg-captcha")
                .user("alice", "alice-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, Map.of(
                        "captcha.enabled", "true",
                        "captcha.factor", "0.5",
                        "perIp.threshold", "4",
                        "perIpAccount.enabled", "false",
                        "accountLockout.enabled", "false",
                        "credentialStuffing.enabled", "false")));
        stockRealm = importClassRealm(RealmBuilder.unique("dg-stock")
                .user("alice", "alice-secret-1"));
        stockRejection = tokens.passwordGrant(stockRealm, "alice", "wrong", null, "192.0.2.99");
        assertThat(stockRejection.isKeycloakInvalidGrant()).as(stockRejection.toString()).isTrue();
    }

    // ------------------------------------------------------------------------------------------
    // Layers

    @Test
    void layer1_blocks_an_address_after_its_threshold_even_with_the_right_password() {
        String ip = "192.0.2.101";
        // 5 attempts from one address: two identifiers twice each (under the pair and distinct limits), then alice
        for (String user : List.of("l1-ghost-a", "l1-ghost-a", "l1-ghost-b", "l1-ghost-b")) {
            assertKeycloakRejected(grant(layersRealm, user, "wrong", ip));
        }
        assertStatus(grant(layersRealm, "alice", "alice-secret-1", ip), 200);

        TokenResponse sixth = grant(layersRealm, "alice", "alice-secret-1", ip);
        assertBlocked(sixth);
        assertThat(blockedLayer(layersRealm, ip)).isEqualTo("per_ip");
        // another address is not affected
        assertStatus(grant(layersRealm, "alice", "alice-secret-1", "192.0.2.201"), 200);
    }

    @CrossVersion
    @Test
    void layer2_blocks_one_account_from_one_address_after_the_pair_threshold() {
        String ip = "192.0.2.102";
        assertStatus(grant(layersRealm, "bob", "bob-secret-1", ip), 200);
        assertStatus(grant(layersRealm, "bob", "bob-secret-1", ip), 200);

        TokenResponse third = grant(layersRealm, "bob", "bob-secret-1", ip);
        assertBlocked(third);
        assertThat(blockedLayer(layersRealm, ip)).isEqualTo("per_ip_account");
        // the same account from another address, and another account from this address, still pass
        assertStatus(grant(layersRealm, "bob", "bob-secret-1", "192.0.2.202"), 200);
        assertStatus(grant(layersRealm, "dave", "dave-secret-1", ip), 200);
    }

    @Test
    void layer3_locks_the_account_across_all_addresses_and_expires_by_clock() throws Exception {
        assertKeycloakRejected(grant(layersRealm, "carol", "wrong-1", "192.0.2.103"));
        assertKeycloakRejected(grant(layersRealm, "carol", "wrong-2", "192.0.2.104"));
        long lockedBy = System.nanoTime();

        TokenResponse fromNewAddress = grant(layersRealm, "carol", "carol-secret-1", "192.0.2.105");
        assertBlocked(fromNewAddress);
        assertThat(blockedLayer(layersRealm, "192.0.2.105")).isEqualTo("account_lockout");

        // an unknown account is locked the same way and gets the identical answer
        assertKeycloakRejected(grant(layersRealm, "l3-ghost", "wrong-1", "192.0.2.113"));
        assertKeycloakRejected(grant(layersRealm, "l3-ghost", "wrong-2", "192.0.2.114"));
        TokenResponse ghost = grant(layersRealm, "l3-ghost", "anything", "192.0.2.115");
        assertBlocked(ghost);
        assertThat(ghost.body()).isEqualTo(fromNewAddress.body());

        // the lock expires by itself (lockoutSeconds); a short sleep lets the TTL run out
        long waitMillis = Duration.ofSeconds(LOCKOUT_SECONDS + 1).toMillis() - Duration.ofNanos(System.nanoTime() - lockedBy).toMillis();
        if (waitMillis > 0) {
            Thread.sleep(waitMillis);
        }
        TokenResponse after = grant(layersRealm, "carol", "carol-secret-1", "192.0.2.106");
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
        assertThat(after.accessToken()).isNotBlank();
    }

    @Test
    void layer4_blocks_an_address_trying_too_many_distinct_identifiers() {
        String ip = "192.0.2.107";
        for (String user : List.of("l4-ghost-a", "l4-ghost-b", "l4-ghost-c")) {
            assertKeycloakRejected(grant(layersRealm, user, "wrong", ip));
        }
        // retrying an identifier already seen from this address is not a new one: Keycloak answers again
        assertKeycloakRejected(grant(layersRealm, "l4-ghost-a", "wrong-again", ip));

        TokenResponse fourthIdentifier = grant(layersRealm, "dave", "dave-secret-1", ip);
        assertBlocked(fourthIdentifier);
        assertThat(blockedLayer(layersRealm, ip)).isEqualTo("credential_stuffing");
        // dave himself is fine from elsewhere
        assertStatus(grant(layersRealm, "dave", "dave-secret-1", "192.0.2.207"), 200);
    }

    @Test
    void blocked_answers_are_identical_for_every_layer_and_for_unknown_accounts() {
        // one block per layer, each from its own addresses and identifiers
        String l1 = "192.0.2.131";
        for (String user : List.of("same-a", "same-a", "same-b", "same-b", "same-c")) {
            grant(layersRealm, user, "wrong", l1);
        }
        TokenResponse layer1 = grant(layersRealm, "ghost-same-1", "wrong", l1);

        String l2 = "192.0.2.132";
        grant(layersRealm, "alice", "alice-secret-1", l2);
        grant(layersRealm, "alice", "alice-secret-1", l2);
        TokenResponse layer2Known = grant(layersRealm, "alice", "alice-secret-1", l2);
        String l2b = "192.0.2.133";
        grant(layersRealm, "ghost-same-2", "wrong", l2b);
        grant(layersRealm, "ghost-same-2", "wrong", l2b);
        TokenResponse layer2Unknown = grant(layersRealm, "ghost-same-2", "wrong", l2b);

        grant(layersRealm, "ghost-same-3", "wrong", "192.0.2.134");
        grant(layersRealm, "ghost-same-3", "wrong", "192.0.2.135");
        TokenResponse layer3 = grant(layersRealm, "ghost-same-3", "wrong", "192.0.2.136");

        String l4 = "192.0.2.137";
        for (String user : List.of("same-d", "same-e", "same-f")) {
            grant(layersRealm, user, "wrong", l4);
        }
        TokenResponse layer4 = grant(layersRealm, "ghost-same-4", "wrong", l4);

        for (TokenResponse r : List.of(layer1, layer2Known, layer2Unknown, layer3, layer4)) {
            assertBlocked(r);
        }
        assertThat(List.of(layer2Known.body(), layer2Unknown.body(), layer3.body(), layer4.body()))
                .allSatisfy(body -> assertThat(body).isEqualTo(layer1.body()));
        assertThat(blockedLayer(layersRealm, l1)).isEqualTo("per_ip");
        assertThat(blockedLayer(layersRealm, l2)).isEqualTo("per_ip_account");
        assertThat(blockedLayer(layersRealm, "192.0.2.136")).isEqualTo("account_lockout");
        assertThat(blockedLayer(layersRealm, l4)).isEqualTo("credential_stuffing");
    }

    // ------------------------------------------------------------------------------------------
    // Captcha

    @CrossVersion
    @Test
    void captcha_required_answer_has_the_altcha_challenge_and_the_solution_gets_tokens() {
        String ip = "198.51.100.21";
        assertKeycloakRejected(grant(captchaRealm, "alice", "wrong", ip));
        assertKeycloakRejected(grant(captchaRealm, "alice", "wrong", ip));

        TokenResponse challenged = grant(captchaRealm, "alice", "alice-secret-1", ip);
        Map<String, Object> challenge = assertCaptchaRequired(challenged);

        String solution = AltchaSolver.solve(Json.write(challenge));
        assertThat(solution).as("ALTCHA solution for %s", challenge).isNotNull();
        TokenResponse solved = tokens.passwordGrant(captchaRealm, "alice", "alice-secret-1", solution, ip);
        assertThat(solved.status()).as(solved.toString()).isEqualTo(200);
        assertThat(solved.accessToken()).isNotBlank();
        assertThat(solved.json()).containsKeys("refresh_token", "token_type", "expires_in");

        // the same solution again: challenged again (single use), nothing counted
        TokenResponse replay = tokens.passwordGrant(captchaRealm, "alice", "alice-secret-1", solution, ip);
        assertCaptchaRequired(replay);
        admin.awaitEvent(captchaRealm, e -> ip.equals(e.getIpAddress()) && "abuse_gate_captcha_required".equals(e.getError()),
                Duration.ofSeconds(10), "LOGIN_ERROR");

        // garbage: challenged again
        TokenResponse garbage = tokens.passwordGrant(captchaRealm, "alice", "alice-secret-1", "bm90LWEtc29sdXRpb24=", ip);
        assertCaptchaRequired(garbage);
        TokenResponse junk = tokens.passwordGrant(captchaRealm, "alice", "alice-secret-1", "%%% not base64 {", ip);
        assertCaptchaRequired(junk);

        // a fresh solution works once more (attempt 4 of 4), then the address is past its threshold: blocked, captcha or not
        TokenResponse again = tokens.passwordGrant(captchaRealm, "alice", "alice-secret-1",
                AltchaSolver.solve(Json.write(assertCaptchaRequired(grant(captchaRealm, "alice", "alice-secret-1", ip)))), ip);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertBlocked(grant(captchaRealm, "alice", "alice-secret-1", ip));
    }

    @Test
    void captcha_required_answer_is_the_same_for_unknown_accounts() {
        String known = "198.51.100.22";
        grant(captchaRealm, "alice", "wrong", known);
        grant(captchaRealm, "alice", "wrong", known);
        TokenResponse a = grant(captchaRealm, "alice", "alice-secret-1", known);

        String unknown = "198.51.100.23";
        grant(captchaRealm, "nobody-here", "wrong", unknown);
        grant(captchaRealm, "nobody-here", "wrong", unknown);
        TokenResponse b = grant(captchaRealm, "nobody-here", "wrong", unknown);

        Map<String, Object> ca = assertCaptchaRequired(a);
        Map<String, Object> cb = assertCaptchaRequired(b);
        Map<String, Object> ja = a.json();
        Map<String, Object> jb = b.json();
        assertThat(jb.keySet()).isEqualTo(ja.keySet());
        for (String k : List.of("error", "error_description", "captcha_provider", "captcha_site_key")) {
            assertThat(jb.get(k)).as(k).isEqualTo(ja.get(k));
        }
        assertThat(cb.keySet()).isEqualTo(ca.keySet());
        assertThat(cb.get("algorithm")).isEqualTo(ca.get("algorithm"));
        assertThat(cb.get("maxnumber")).isEqualTo(ca.get("maxnumber"));
        // each answer has its own challenge
        assertThat(cb.get("challenge")).isNotEqualTo(ca.get("challenge"));
    }

    // ------------------------------------------------------------------------------------------
    // Refusal events within the realm's budget (events.refusalsPerMinute)

    @Test
    @SuppressWarnings("unchecked")
    void refusal_events_stay_within_the_realms_budget_the_metric_counts_every_refusal_and_the_next_event_counts_those_left_out()
            throws Exception {
        Map<String, String> config = new java.util.HashMap<>(Map.of(
                "captcha.enabled", "false",
                "perIp.threshold", "1",
                "perIpAccount.enabled", "false",
                "accountLockout.enabled", "false",
                "credentialStuffing.enabled", "false",
                "events.refusalsPerMinute", "3"));
        String realm = importRealm(RealmBuilder.unique("dg-events").user("alice", "alice-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, config));
        String ip = "192.0.2.140";
        Map<String, String> blockedLabels = Map.of("realm", realm, "outcome", "blocked");
        double before = Metrics.sum(server.metrics(), "abuse_gate_decisions_total", blockedLabels);
        assertStatus(grant(realm, "alice", "alice-secret-1", ip), 200);
        for (int i = 0; i < 10; i++) {
            assertBlocked(grant(realm, "alice", "alice-secret-1", ip));
        }
        assertThat(Metrics.sum(server.metrics(), "abuse_gate_decisions_total", blockedLabels) - before)
                .as("the metric counts every refusal").isEqualTo(10.0);
        // events are stored when each request's transaction ends: wait for the third, then give stragglers a moment
        GateIt.awaitValue("3 abuse_gate_blocked events", Duration.ofSeconds(15),
                () -> Optional.of(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")).filter(l -> l.size() >= 3),
                () -> "events: " + Json.write(admin.events(realm, "LOGIN_ERROR")));
        Thread.sleep(1_000);
        List<EventRepresentation> errors = admin.events(realm, "LOGIN_ERROR");
        assertThat(errors).as("3 refusal events; for the 7 left out Keycloak records nothing of its own either")
                .hasSize(3)
                .allSatisfy(e -> {
                    assertThat(e.getError()).isEqualTo("abuse_gate_blocked");
                    assertThat(e.getDetails()).containsEntry("abuse_gate_layer", "per_ip")
                            .doesNotContainKey("abuse_gate_refusals_not_recorded");
                });

        // 0 records every refusal: the next one is recorded at once and says how many were left out
        String configId = admin.executions(realm, RealmBuilder.GATED_DIRECT_GRANT_FLOW).stream()
                .filter(e -> GATED_PROVIDER.equals(e.getProviderId())).findFirst().orElseThrow().getAuthenticationConfig();
        AuthenticatorConfigRepresentation stepConfig = admin.realm(realm).flows().getAuthenticatorConfig(configId);
        config.put("events.refusalsPerMinute", "0");
        stepConfig.setConfig(config);
        admin.realm(realm).flows().updateAuthenticatorConfig(configId, stepConfig);
        assertBlocked(grant(realm, "alice", "alice-secret-1", ip));
        assertBlocked(grant(realm, "alice", "alice-secret-1", ip));
        List<EventRepresentation> blocked = GateIt.awaitValue("5 abuse_gate_blocked events", Duration.ofSeconds(15),
                () -> Optional.of(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")).filter(l -> l.size() >= 5),
                () -> "events: " + Json.write(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")));
        assertThat(blocked).hasSize(5);
        assertThat(blocked.stream().map(e -> e.getDetails().get("abuse_gate_refusals_not_recorded")))
                .as("the first event after the left-out refusals carries their count, once")
                .containsExactlyInAnyOrder("7", null, null, null, null);
        assertThat(Metrics.sum(server.metrics(), "abuse_gate_decisions_total", blockedLabels) - before).isEqualTo(12.0);
    }

    // ------------------------------------------------------------------------------------------
    // Keycloak's own answers

    @CrossVersion
    @Test
    void wrong_credentials_keep_keycloaks_own_answer_identical_to_a_stock_realm() {
        String ip = "192.0.2.120";
        TokenResponse stockWrong = grant(stockRealm, "alice", "not-the-password", ip);
        TokenResponse gatedWrong = grant(layersRealm, "alice", "not-the-password", ip);
        TokenResponse stockUnknown = grant(stockRealm, "no-such-user-x", "whatever", ip);
        TokenResponse gatedUnknown = grant(layersRealm, "no-such-user-x", "whatever", ip);

        assertThat(stockWrong.isKeycloakInvalidGrant()).as(stockWrong.toString()).isTrue();
        assertThat(gatedWrong.status()).as(gatedWrong.toString()).isEqualTo(stockWrong.status());
        assertThat(gatedWrong.json()).isEqualTo(stockWrong.json());
        assertThat(gatedUnknown.status()).as(gatedUnknown.toString()).isEqualTo(stockUnknown.status());
        assertThat(gatedUnknown.json()).isEqualTo(stockUnknown.json());
        assertThat(gatedWrong.json().get("error")).isEqualTo("invalid_grant");

        // and the right password gets tokens in both
        assertStatus(grant(stockRealm, "alice", "alice-secret-1", ip), 200);
        assertStatus(grant(layersRealm, "alice", "alice-secret-1", "192.0.2.121"), 200);
    }

    // ------------------------------------------------------------------------------------------

    private static TokenResponse grant(String realm, String username, String password, String ip) {
        TokenResponse r = tokens.passwordGrant(realm, username, password, null, ip);
        assertThat(r.status()).as(r.toString()).isLessThan(500);
        return r;
    }

    /** 429, JSON, exactly {"error":"blocked","error_description":"<non-empty>"}, no layer named. */
    private static void assertBlocked(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.header("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
        Map<String, Object> json = r.json();
        assertThat(json.keySet()).containsExactlyInAnyOrder("error", "error_description");
        assertThat(json.get("error")).isEqualTo("blocked");
        assertThat(json.get("error_description")).isInstanceOf(String.class);
        assertThat((String) json.get("error_description")).isNotBlank();
        assertNoLayerNamed(r.body());
    }

    /** 429 captcha_required with the ALTCHA fields; returns the challenge object. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> assertCaptchaRequired(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.header("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
        Map<String, Object> json = r.json();
        assertThat(json.keySet()).containsExactlyInAnyOrder(
                "error", "error_description", "captcha_provider", "captcha_site_key", "captcha_challenge");
        assertThat(json.get("error")).isEqualTo("captcha_required");
        assertThat((String) json.get("error_description")).isNotBlank();
        assertThat(json.get("captcha_provider")).isEqualTo("altcha");
        assertThat(json.get("captcha_site_key")).isInstanceOf(String.class);
        assertThat(json.get("captcha_challenge")).isInstanceOf(Map.class);
        Map<String, Object> challenge = (Map<String, Object>) json.get("captcha_challenge");
        assertThat(challenge.keySet()).containsExactlyInAnyOrder("algorithm", "challenge", "maxnumber", "salt", "signature");
        assertThat(challenge.get("algorithm")).isEqualTo("SHA-256");
        assertThat((String) challenge.get("challenge")).matches("[0-9a-f]{64}");
        assertThat(((Number) challenge.get("maxnumber")).longValue()).isPositive();
        assertThat((String) challenge.get("salt")).isNotBlank();
        assertThat((String) challenge.get("signature")).matches("[0-9a-f]{64}");
        assertNoLayerNamed(r.body());
        return challenge;
    }

    private static void assertNoLayerNamed(String body) {
        for (String word : LAYER_WORDS) {
            assertThat(body).as("answer must not name the layer").doesNotContainIgnoringCase(word);
        }
    }

    /** The abuse_gate_layer detail of the abuse_gate_blocked event recorded for {@code ip} (the operator's view). */
    @SuppressWarnings("unchecked")
    private static String blockedLayer(String realm, String ip) {
        EventRepresentation e = admin.awaitEvent(realm,
                ev -> ip.equals(ev.getIpAddress()) && "abuse_gate_blocked".equals(ev.getError()),
                Duration.ofSeconds(15), "LOGIN_ERROR");
        Map<String, String> details = e.getDetails();
        return details == null ? null : details.get("abuse_gate_layer");
    }

    private static void assertStatus(TokenResponse r, int status) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
    }

    /** Keycloak's own answer to wrong credentials, exactly as the stock realm gives it. */
    private static void assertKeycloakRejected(TokenResponse r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(stockRejection.status());
        assertThat(r.json()).as(r.toString()).isEqualTo(stockRejection.json());
    }

    @Test
    void password_grant_counts_wrong_passwords_for_a_disabled_account_and_not_empty_passwords() {
        String realm = importRealm(RealmBuilder.unique("dg-disabled-empty")
                .user("alice", "alice-secret-1").user("carol", "carol-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, Map.of("captcha.enabled", "false", "accountLockout.threshold", "2",
                        "perIp.threshold", "1000", "perIpAccount.threshold", "1000", "credentialStuffing.threshold", "1000")));

        for (int i = 0; i < 5; i++) {
            TokenClient.TokenResponse empty = tokens.passwordGrant(realm, "alice", "", null, "192.0.2.81");
            assertThat(empty.status()).as("empty password %d: Keycloak's own answer", i + 1).isNotEqualTo(429);
        }
        assertThat(tokens.passwordGrant(realm, "alice", "alice-secret-1", null, "192.0.2.81").status())
                .as("empty passwords never counted as failures").isEqualTo(200);

        String carol = admin.findUserId(realm, "carol").orElseThrow();
        admin.updateUser(realm, carol, u -> u.setEnabled(false));
        tokens.passwordGrant(realm, "carol", "guess-1", null, "192.0.2.82");
        tokens.passwordGrant(realm, "carol", "guess-2", null, "192.0.2.83");
        TokenClient.TokenResponse third = tokens.passwordGrant(realm, "carol", "carol-secret-1", null, "192.0.2.84");
        assertThat(third.status()).as("a disabled account's guesses count: %s", third).isEqualTo(429);
        assertThat(third.json()).containsEntry("error", "blocked");
    }
}
