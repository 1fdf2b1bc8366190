package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Http;
import dev.abusegate.it.support.GatedFlows;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SAML ECP: a SAML client with ECP allowed, an AuthnRequest in a SOAP envelope and the credentials as HTTP Basic. With
 * "HTTP Basic Authentication (abuse gate)" in the flow Keycloak's ECP endpoint runs (the one named "saml ecp"), wrong
 * passwords count on the gate's layers (Keycloak refuses them with its own passive SAML error answer); past the threshold
 * the endpoint answers 429 with Retry-After and a SOAP fault,
 * without checking the password, and the lock holds for the right password from anywhere.
 */
class SamlEcpIT extends ServerTest {

    private static final String PASSWORD = "ecp-Passw0rd!";
    private static final String SP = "ecp-sp";
    private static final String ACS = "http://localhost/ecp-acs";
    private static final String SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
    private final HttpClient http = Http.client();
    private String realm;

    @BeforeEach
    void gatedEcpRealm() {
        realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("ecp"))
                .user("alice", PASSWORD)
                .set("clients", List.of(ecpClient())));
        assertThat(GatedFlows.ungatedFlows(admin, realm)).as("Keycloak's own ECP flow checks passwords ungated").contains("saml ecp");
        gateEcp(admin, realm, GateIt.quietConfig("accountLockout.threshold", "3", "accountLockout.lockoutSeconds", "600"));
        assertThat(GatedFlows.ungatedFlows(admin, realm)).as("the flow the ECP endpoint runs is gated (the browser and direct "
                + "grant flows are left stock here)").containsExactly("browser", "direct grant");
    }

    @Test
    void wrong_passwords_are_gated_with_a_soap_fault_and_the_lock_holds() {
        assertThat(ecp("alice", PASSWORD, "198.51.100.81").body()).as("control: the right password").contains(SUCCESS);
        for (int i = 1; i <= 3; i++) {
            assertRefusedByKeycloak(ecp("alice", "wrong-" + i, "198.51.100.81"));
        }
        awaitPasswordChecks("alice", 3);

        HttpResponse<String> blocked = ecp("alice", PASSWORD, "198.51.100.81");
        assertThat(blocked.statusCode()).as(blocked.body()).isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(blocked.headers().firstValue("Content-Type").orElse("")).startsWith("text/xml");
        assertThat(blocked.body()).contains("Fault").contains("faultcode").contains("blocked")
                .contains("Too many sign-in attempts").doesNotContain(SUCCESS).doesNotContain("Assertion");
        HttpResponse<String> elsewhere = ecp("alice", PASSWORD, "203.0.113.82");
        assertThat(elsewhere.statusCode()).as("the lock holds from another address").isEqualTo(429);
        assertThat(elsewhere.body()).doesNotContain(SUCCESS);
        assertThat(passwordChecks("alice")).as("no password was checked after the lock").isEqualTo(3);
        assertThat(GateIt.eventsWithError(admin, realm, "LOGIN_ERROR", "abuse_gate_blocked")).hasSize(2);
        assertThat(GateIt.stateValue(GateIt.state(admin, realm, null, "alice"), "identifier", "locked")).isEqualTo(true);
    }

    @Test
    void an_unknown_name_is_counted_like_an_account_and_a_header_without_password_is_refused_plainly() {
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> r = ecp("nobody", "wrong-" + i, "198.51.100.91");
            // Keycloak's own answer to an unknown name on ECP: HTTP 400, "Invalid username or password."
            assertThat(r.statusCode()).as("attempt %d: %s", i, r.body()).isEqualTo(400);
            assertThat(r.body()).contains("Invalid username or password").doesNotContain(SUCCESS);
        }
        assertThat(ecp("nobody", "wrong-4", "198.51.100.92").statusCode()).isEqualTo(429);

        HttpResponse<String> noPassword = send(Base64.getEncoder().encodeToString("alice".getBytes(StandardCharsets.UTF_8)),
                "198.51.100.93");
        assertRefusedByKeycloak(noPassword);
        HttpResponse<String> notBase64 = send("%%%not-base64", "198.51.100.93");
        assertRefusedByKeycloak(notBase64);
        assertThat(ecp("alice", PASSWORD, "198.51.100.93").body()).as("neither counted against alice").contains(SUCCESS);
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Keycloak's own answer to refused credentials on the ECP endpoint: the request is passive, so Keycloak answers
     * HTTP 200 with a SOAP message holding a SAML Response whose status is not Success (no assertion).
     */
    private static void assertRefusedByKeycloak(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("StatusCode").doesNotContain(SUCCESS).doesNotContain("Assertion");
    }

    private HttpResponse<String> ecp(String username, String password, String address) {
        return send(basic(username, password), address);
    }

    /** POSTs an ECP AuthnRequest (SOAP, PAOS binding) with {@code Authorization: Basic <credentials>}. */
    private HttpResponse<String> send(String credentials, String address) {
        return Http.send(http, request(server.baseUrl(), realm, credentials, address));
    }

    /** An ECP AuthnRequest for {@link #ecpClient()} in {@code realm}, with HTTP Basic {@code credentials}, from {@code address}. */
    static HttpRequest request(String baseUrl, String realm, String credentials, String address) {
        String envelope = "<S:Envelope xmlns:S=\"http://schemas.xmlsoap.org/soap/envelope/\"><S:Body>"
                + "<samlp:AuthnRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\""
                + " ID=\"_" + UUID.randomUUID() + "\" Version=\"2.0\" IssueInstant=\"" + Instant.now() + "\""
                + " AssertionConsumerServiceURL=\"" + ACS + "\" ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:PAOS\">"
                + "<saml:Issuer>" + SP + "</saml:Issuer></samlp:AuthnRequest></S:Body></S:Envelope>";
        return HttpRequest.newBuilder(URI.create(baseUrl + "/realms/" + realm + "/protocol/saml"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("Authorization", "Basic " + credentials)
                .header("X-Forwarded-For", address)
                .POST(HttpRequest.BodyPublishers.ofString(envelope))
                .build();
    }

    /** HTTP Basic credentials for {@code username:password}. */
    static String basic(String username, String password) {
        return Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private long passwordChecks(String username) {
        String id = admin.findUserId(realm, username).orElseThrow();
        return admin.events(realm, "LOGIN_ERROR").stream()
                .filter(e -> "invalid_user_credentials".equals(e.getError()) && id.equals(e.getUserId())).count();
    }

    private void awaitPasswordChecks(String username, long n) {
        GateIt.await(n + " password checks", Duration.ofSeconds(10), () -> passwordChecks(username) >= n);
        assertThat(passwordChecks(username)).isEqualTo(n);
    }

    /** README, Enable: the ECP endpoint runs the flow named "saml ecp"; a gated copy (with {@code config}) takes that name. */
    static void gateEcp(AdminClient admin, String realm, Map<String, String> config) {
        GatedFlows.copyWithGatedStep(admin, realm, "saml ecp", "gated saml ecp", "http-basic-authenticator", "abuse-gate-http-basic", config);
        GatedFlows.rename(admin, realm, "saml ecp", "saml ecp stock");
        GatedFlows.rename(admin, realm, "gated saml ecp", "saml ecp");
    }

    /** A SAML client that may use ECP. */
    static Map<String, Object> ecpClient() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("saml.allow.ecp.flow", "true");
        attributes.put("saml.client.signature", "false");
        attributes.put("saml.server.signature", "true");
        attributes.put("saml.authnstatement", "true");
        attributes.put("saml_name_id_format", "username");
        attributes.put("saml_assertion_consumer_url_post", ACS);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("clientId", SP);
        c.put("protocol", "saml");
        c.put("enabled", true);
        c.put("redirectUris", List.of(ACS));
        c.put("attributes", attributes);
        return c;
    }
}
