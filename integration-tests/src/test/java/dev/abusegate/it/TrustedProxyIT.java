package dev.abusegate.it;

import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.DedicatedServer;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dedicated Keycloak that trusts X-Forwarded-For only from 192.0.2.1. The test client connects from
 * 127.0.0.1, an untrusted peer: rotating X-Forwarded-For values must not give it fresh addresses.
 */
@ProcessBackendOnly("the test client must reach Keycloak as the untrusted peer 127.0.0.1")
// the harness always passes --proxy-headers=xforwarded; only 192.0.2.1 may set the header
@DedicatedServer(name = "trusted-proxy", options = "--proxy-trusted-addresses=192.0.2.1")
class TrustedProxyIT extends ServerTest {

    private static String realm;

    @BeforeAll
    static void importGatedRealm() {
        Map<String, String> config = Map.of(
                "captcha.enabled", "false",
                "perIp.threshold", "3",
                "perIpAccount.enabled", "false",
                "accountLockout.enabled", "false",
                "credentialStuffing.enabled", "false");
        realm = importClassRealm(RealmBuilder.unique("trusted-proxy")
                .user("alice", "alice-secret-1")
                .gatedBrowserFlow("abuse-gate-username-password-form", config)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", config));
    }

    @Test
    @SuppressWarnings("unchecked")
    void an_untrusted_peer_rotating_x_forwarded_for_is_still_counted_as_its_own_address() {
        for (int i = 1; i <= 10; i++) {
            String xff = "198.51.100." + i;
            BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "wrong", xff);
            if (i <= 3) {
                assertThat(r.status()).as("attempt " + i + ": " + r).isEqualTo(200);
                assertThat(r.keycloakError()).contains("Invalid username or password.");
            } else {
                assertThat(r.status()).as("attempt " + i + ": " + r).isEqualTo(429);
                assertThat(r.gateCode()).as("attempt " + i).contains("blocked");
            }
        }
        // the right password from yet another claimed address: still the same (blocked) peer
        BrowserLogin.LoginResult right = server.newBrowser().login(realm, "alice", "alice-secret-1", "203.0.113.99");
        assertThat(right.status()).as(right.toString()).isEqualTo(429);
        // the token endpoint sees the same peer address
        TokenResponse direct = tokens.passwordGrant(realm, "alice", "alice-secret-1", null, "198.51.100.77");
        assertThat(direct.status()).as(direct.toString()).isEqualTo(429);
        assertThat(direct.json().get("error")).isEqualTo("blocked");

        List<EventRepresentation> events = admin.events(realm, "LOGIN_ERROR");
        assertThat(events).isNotEmpty();
        assertThat(events).allSatisfy(e -> assertThat(e.getIpAddress()).isEqualTo("127.0.0.1"));
        EventRepresentation blocked = admin.awaitEvent(realm, e -> "abuse_gate_blocked".equals(e.getError()),
                Duration.ofSeconds(15), "LOGIN_ERROR");
        assertThat(blocked.getIpAddress()).isEqualTo("127.0.0.1");
        assertThat(blocked.getDetails().get("abuse_gate_layer")).isEqualTo("per_ip");

        // the operator sees the peer's counter, and nothing under the claimed addresses
        assertThat(GateIt.stateNumber(admin.gateState(realm, "127.0.0.1", null), "address", "attempts")).isGreaterThanOrEqualTo(10);
        assertThat(GateIt.stateNumber(admin.gateState(realm, "198.51.100.1", null), "address", "attempts")).isZero();
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }
}
