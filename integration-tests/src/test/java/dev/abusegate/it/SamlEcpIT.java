package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.SamlEcp;
import dev.abusegate.it.support.ServerTest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
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
    private static final String SUCCESS = SamlEcp.SUCCESS;
    private final SamlEcp ecp = new SamlEcp(server.baseUrl(), SP);
    private String realm;

    @BeforeEach
    void gatedEcpRealm() {
        realm = importRealm(RealmBuilder.unique("ecp")
                .user("alice", PASSWORD)
                .set("clients", List.of(ecp.client())));
        assertThat(admin.ungatedFlows(realm)).as("Keycloak's own ECP flow checks passwords ungated").contains("saml ecp");
        // README, Enable: the ECP endpoint runs the flow named "saml ecp"; a gated copy takes that name.
        SamlEcp.gate(admin, realm, GateIt.quietConfig("accountLockout.threshold", "3", "accountLockout.lockoutSeconds", "600"));
        assertThat(admin.ungatedFlows(realm)).as("the flow the ECP endpoint runs is gated (the browser and direct "
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
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")).hasSize(2);
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked")).isEqualTo(true);
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
        return ecp.login(realm, username, password, address);
    }

    private HttpResponse<String> send(String credentials, String address) {
        return ecp.send(realm, credentials, address);
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
}
