package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.DedicatedServer;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Http;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The docker protocol (a server of its own, started with {@code --features=docker}): the registry token endpoint with
 * HTTP Basic. With "Docker Authenticator (abuse gate)" in the realm's bound docker authentication flow, wrong passwords
 * count on the gate's layers; past the threshold the endpoint answers 429 with Retry-After and the registry's error
 * JSON ({@code TOOMANYREQUESTS}) without checking the password. The start-up WARN names the realms still ungated.
 * The server runs the SAML HTTP Basic gated step disabled, so the coverage report is seen to know the JAR's steps, not
 * only the enabled ones.
 */
@DedicatedServer(name = "docker", options = {"--features=docker", "--spi-authenticator--abuse-gate-http-basic--enabled=false"})
class DockerHttpBasicIT extends ServerTest {

    private static final String PASSWORD = "docker-Passw0rd!";
    private final HttpClient http = Http.client();

    @Test
    void the_start_up_warning_names_the_realm_the_flow_and_the_ungated_step() {
        assertThat(server.logLines("WARN", "dev.abusegate")).anySatisfy(line -> assertThat(line)
                .contains("realm 'master' still checks passwords with ungated steps")
                .contains("flow 'docker auth' (docker authentication flow): Docker Authenticator [docker-http-basic-authenticator], "
                        + "use abuse-gate-docker-http-basic")
                .contains("flow 'browser' (browser flow)"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_stock_step_whose_gated_step_the_server_runs_disabled_is_still_reported() {
        String realm = importRealm(RealmBuilder.unique("docker-ecp")
                .user("alice", PASSWORD)
                .set("clients", List.of(Map.of("clientId", "ecp-sp", "protocol", "saml", "enabled", true,
                        "attributes", Map.of("saml.allow.ecp.flow", "true")))));
        assertThat(admin.keycloak().serverInfo().getInfo().getProviders().get("authenticator").getProviders())
                .containsKey("abuse-gate-docker-http-basic").doesNotContainKey("abuse-gate-http-basic");

        List<Map<String, Object>> flows = (List<Map<String, Object>>) admin.coverage(realm).get("ungatedFlows");
        assertThat(flows).filteredOn(f -> "saml ecp".equals(f.get("flow"))).singleElement()
                .satisfies(f -> assertThat((List<Map<String, Object>>) f.get("ungatedSteps")).singleElement().satisfies(s -> {
                    assertThat(s.get("providerId")).isEqualTo("http-basic-authenticator");
                    assertThat(s.get("gatedStep")).isEqualTo("abuse-gate-http-basic");
                }));
    }

    @Test
    void wrong_passwords_are_gated_with_the_registry_error_json() {
        String realm = gatedRegistryRealm("docker", GateIt.quietConfig("accountLockout.threshold", "3", "accountLockout.lockoutSeconds", "600"));

        HttpResponse<String> ok = token(realm, "alice", PASSWORD, "198.51.100.101");
        assertThat(ok.statusCode()).as("control: %s", ok.body()).isEqualTo(200);
        assertThat(Json.parseMap(ok.body())).containsKey("token");
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> r = token(realm, "alice", "wrong-" + i, "198.51.100.101");
            assertThat(r.statusCode()).as("attempt %d: %s", i, r.body()).isEqualTo(401);
            assertThat(r.body()).contains("UNAUTHORIZED");
        }
        GateIt.await("3 password checks", Duration.ofSeconds(10), () -> passwordChecks(realm) >= 3);

        HttpResponse<String> blocked = token(realm, "alice", PASSWORD, "203.0.113.102");
        assertThat(blocked.statusCode()).as(blocked.body()).isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> errors = (List<Map<String, Object>>) Json.parseMap(blocked.body()).get("errors");
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.get("code")).isEqualTo("TOOMANYREQUESTS");
            assertThat((String) e.get("message")).contains("Too many sign-in attempts");
        });
        assertThat(blocked.body()).doesNotContain("\"token\"");
        assertThat(passwordChecks(realm)).as("no password was checked after the lock").isEqualTo(3);
    }

    /**
     * Keycloak's docker step hashes nothing for a name it cannot find; the gated step spends the dummy hash, so an
     * unknown name is counted like a wrong password and takes about as long (medians over interleaved rounds, a
     * generous ratio: no faster than half a known name).
     */
    @Test
    void an_unknown_name_is_counted_and_costs_about_what_a_known_one_costs() {
        String realm = gatedRegistryRealm("docker-time", GateIt.quietConfig());
        assertThat(token(realm, "alice", PASSWORD, "10.8.0.1").statusCode()).as("control: the right password").isEqualTo(200);
        int rounds = 20;
        List<Long> unknown = new ArrayList<>();
        List<Long> known = new ArrayList<>();
        for (int i = -3; i < rounds; i++) { // three rounds to warm up, not measured
            String address = "10.8.1." + (i + 4);
            String ghost = "ghost-" + UUID.randomUUID();
            long start = System.nanoTime();
            HttpResponse<String> u = token(realm, ghost, "wrong", address);
            long mid = System.nanoTime();
            HttpResponse<String> k = token(realm, "alice", "wrong-" + i, address);
            long end = System.nanoTime();
            assertThat(u.statusCode()).as(u.body()).isEqualTo(401);
            assertThat(k.statusCode()).as(k.body()).isEqualTo(401);
            if (i >= 0) {
                unknown.add(mid - start);
                known.add(end - mid);
            }
            if (i == 0) {
                assertThat(GateIt.stateNumber(admin.gateState(realm, null, ghost), "identifier", "failures"))
                        .as("an unknown name is counted as a failed check").isEqualTo(1);
            }
        }
        double mu = GateIt.medianMillis(unknown);
        double mk = GateIt.medianMillis(known);
        System.out.printf("DockerHttpBasicIT medians over %d interleaved rounds (ms): unknown name %.1f, known name %.1f%n", rounds, mu, mk);
        assertThat(mu).as("an unknown name (median %.1f ms) is no faster than half a known one (median %.1f ms)", mu, mk)
                .isGreaterThanOrEqualTo(mk / 2);
    }

    /** A realm whose docker registry client logs in through the gated docker step with {@code config}. */
    private String gatedRegistryRealm(String prefix, Map<String, String> config) {
        String realm = importRealm(RealmBuilder.unique(prefix)
                .user("alice", PASSWORD)
                .set("clients", List.of(Map.of("clientId", "registry", "protocol", "docker-v2", "enabled", true))));
        assertThat(admin.ungatedFlows(realm)).contains("docker auth");
        admin.copyWithGatedStep(realm, "docker auth", "gated docker auth", "docker-http-basic-authenticator",
                "abuse-gate-docker-http-basic", config);
        admin.updateRealm(realm, r -> r.setDockerAuthenticationFlow("gated docker auth"));
        assertThat(admin.ungatedFlows(realm)).doesNotContain("docker auth", "gated docker auth");
        return realm;
    }

    /**
     * The realm-wide layer only ever asks for a captcha, which an HTTP Basic client cannot give: the docker step
     * does not apply it (layers 1 to 4 still do), so a registry login with the right password goes through while
     * the realm is under attack, where the token endpoint asks for a captcha.
     */
    @Test
    void a_realm_under_attack_does_not_shut_out_registry_logins() {
        String[] layer = {"realm.enabled", "true", "realm.threshold", "4", "realm.windowSeconds", "60",
                "realm.minNetworks", "4", "realm.baselineMultiple", "0", "captcha.enabled", "true"};
        String realm = importRealm(RealmBuilder.unique("docker-attacked")
                .user("alice", PASSWORD)
                .set("clients", List.of(Map.of("clientId", "registry", "protocol", "docker-v2", "enabled", true),
                        Map.of("clientId", RealmBuilder.CLIENT_ID, "protocol", "openid-connect", "enabled", true,
                                "publicClient", true, "directAccessGrantsEnabled", true)))
                .gatedDirectGrantFlow("abuse-gate-direct-grant", GateIt.quietConfig(layer)));
        admin.copyWithGatedStep(realm, "docker auth", "gated docker auth", "docker-http-basic-authenticator",
                "abuse-gate-docker-http-basic", GateIt.quietConfig(layer));
        admin.updateRealm(realm, r -> r.setDockerAuthenticationFlow("gated docker auth"));
        for (int i = 0; i < 4; i++) {
            // each from a /24 of its own: a crowd of realm.minNetworks networks
            TokenClient.TokenResponse r = tokens.passwordGrant(realm, "nobody-" + i, "guess-" + i, null, "10.41." + i + ".120");
            assertThat(r.isKeycloakInvalidGrant()).as(r.toString()).isTrue();
        }
        GateIt.await("the realm under attack", Duration.ofSeconds(10),
                () -> Boolean.TRUE.equals(admin.realmUnderAttack(realm).get("underAttack")));
        assertThat(tokens.passwordGrant(realm, "alice", PASSWORD, null, "198.51.100.130").json())
                .as("the token endpoint asks for a captcha").containsEntry("error", "captcha_required");

        HttpResponse<String> ok = token(realm, "alice", PASSWORD, "198.51.100.131");
        assertThat(ok.statusCode()).as("a registry login while the realm is under attack: %s", ok.body()).isEqualTo(200);
        assertThat(Json.parseMap(ok.body())).containsKey("token");
        HttpResponse<String> wrong = token(realm, "alice", "wrong", "198.51.100.132");
        assertThat(wrong.statusCode()).as("a wrong password: checked, and refused as usual: %s", wrong.body()).isEqualTo(401);
    }

    private long passwordChecks(String realm) {
        String id = admin.findUserId(realm, "alice").orElseThrow();
        return admin.events(realm, "LOGIN_ERROR").stream()
                .filter(e -> "invalid_user_credentials".equals(e.getError()) && (id.equals(e.getUserId()) || "alice".equals(e.getUserId())))
                .count();
    }

    private HttpResponse<String> token(String realm, String username, String password, String address) {
        String basic = Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/realms/" + realm
                        + "/protocol/docker-v2/auth?service=registry&scope=repository:team/app:pull&account=" + username))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + basic)
                .header("X-Forwarded-For", address)
                .GET()
                .build();
        return Http.send(http, req);
    }
}
