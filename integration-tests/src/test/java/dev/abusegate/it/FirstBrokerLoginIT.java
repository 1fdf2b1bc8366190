package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.IdentityProviderRepresentation;

/**
 * First broker login: a second realm of the same server is the consumer realm's OIDC identity provider. The attacker
 * logs in at the provider as someone with the victim's username and e-mail, chooses "Add to existing account", and
 * gets Keycloak's "Authenticate to link your account" page. With the gated step in a copy of the first broker login
 * flow, wrong passwords there count on the gate's layers; past the threshold the page answers 429 without checking the
 * password (Keycloak's events show no more password checks), and an account the gate holds locked cannot be linked.
 */
class FirstBrokerLoginIT extends ServerTest {

    private static final String VICTIM_PW = "victim-Passw0rd!";
    private static final String ATTACKER_PW = "attacker-at-idp-1";
    private static final String IDP = "upstream";
    private static final String FLOW = "gated first broker login";
    private static final Map<String, String> LOCKOUT_3 = GateIt.quietConfig("accountLockout.threshold", "3",
            "accountLockout.lockoutSeconds", "600");

    private String provider;
    private String consumer;

    @BeforeEach
    void realms() {
        consumer = RealmBuilder.uniqueName("fbl");
        provider = importRealm(RealmBuilder.unique("fbl-idp")
                .user("alice", ATTACKER_PW)
                .set("clients", List.of(brokerClient())));
        Map<String, Object> idp = new LinkedHashMap<>();
        idp.put("alias", IDP);
        idp.put("providerId", "oidc");
        idp.put("enabled", true);
        idp.put("trustEmail", false);
        idp.put("config", idpConfig());
        importRealm(RealmBuilder.named(consumer)
                .user("alice", VICTIM_PW)
                .eventTypes("LOGIN", "LOGIN_ERROR", "IDENTITY_PROVIDER_FIRST_LOGIN", "IDENTITY_PROVIDER_FIRST_LOGIN_ERROR",
                        "IDENTITY_PROVIDER_LOGIN", "IDENTITY_PROVIDER_LOGIN_ERROR", "IDENTITY_PROVIDER_LINK_ACCOUNT",
                        "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR", "FEDERATED_IDENTITY_LINK")
                .gatedDirectGrantFlow("abuse-gate-direct-grant", LOCKOUT_3)
                .set("identityProviders", List.of(idp)));
        assertThat(admin.ungatedFlows(consumer)).as("the stock first broker login flow checks passwords ungated")
                .contains("first broker login");
        admin.copyWithGatedStep(consumer, "first broker login", FLOW, "idp-username-password-form",
                "abuse-gate-idp-username-password", LOCKOUT_3);
        IdentityProviderRepresentation rep = admin.realm(consumer).identityProviders().get(IDP).toRepresentation();
        rep.setFirstBrokerLoginFlowAlias(FLOW);
        admin.realm(consumer).identityProviders().get(IDP).update(rep);
        assertThat(admin.ungatedFlows(consumer)).as("the identity provider's flow is gated now")
                .doesNotContain(FLOW, "first broker login");
    }

    @Test
    void wrong_passwords_on_the_link_page_are_gated_and_a_locked_account_is_not_linked() {
        String address = "198.51.100.61";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult link = linkPage(browser, address);
        assertThat(link.body()).as("Keycloak's link page").contains("name=\"password\"");
        for (int i = 1; i <= 3; i++) {
            BrowserLogin.LoginResult r = browser.submit(link, "alice", "wrong-" + i, address, Map.of());
            assertThat(r.status()).as("attempt %d: %s", i, r).isEqualTo(200);
            assertThat(r.gateCode()).as("attempt %d", i).isEmpty();
            assertThat(r.keycloakError()).as("attempt %d: Keycloak checked and refused it", i).isPresent();
            link = r.nextPage();
        }
        long checked = awaitPasswordChecks(3);

        // The threshold is reached: the right password is not even checked.
        BrowserLogin.LoginResult blocked = browser.submit(link, "alice", VICTIM_PW, address, Map.of());
        assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
        assertThat(blocked.gateCode()).contains("blocked");
        assertThat(admin.eventsWithError(consumer, "IDENTITY_PROVIDER_FIRST_LOGIN_ERROR", "abuse_gate_blocked")
                .size() + admin.eventsWithError(consumer, "LOGIN_ERROR", "abuse_gate_blocked").size())
                .as("the gate's event").isPositive();
        // and from anywhere else, in a new login at the identity provider
        BrowserLogin other = server.newBrowser();
        BrowserLogin.LoginResult elsewhere = other.submit(linkPage(other, "203.0.113.62"), "alice", VICTIM_PW, "203.0.113.62", Map.of());
        assertThat(elsewhere.status()).as(elsewhere.toString()).isEqualTo(429);
        assertThat(passwordChecks()).as("no password was checked after the lock").isEqualTo(checked);
        assertThat(linked()).as("the attacker's identity is not linked to the locked account").isFalse();

        // Control: once an operator clears the lock, the right password links the account.
        admin.clearGateState(consumer, null, "alice");
        BrowserLogin again = server.newBrowser();
        BrowserLogin.LoginResult page = linkPage(again, address);
        HttpResponse<String> ok = follow(again, again.rawPost(page.requireFormAction(),
                Map.of("username", "alice", "password", VICTIM_PW, "credentialId", ""), address), address);
        assertThat(ok.headers().firstValue("Location").orElse("")).as("back at the client: %s", ok.body())
                .startsWith(RealmBuilder.REDIRECT_URI);
        assertThat(linked()).isTrue();
    }

    @Test
    void an_account_the_gate_locked_on_another_path_cannot_be_linked() {
        for (int i = 1; i <= 3; i++) {
            assertThat(tokens.passwordGrant(consumer, "alice", "guess-" + i, null, "192.0.2.6" + i).isKeycloakInvalidGrant()).isTrue();
        }
        assertThat(GateIt.stateValue(admin.gateState(consumer, null, "alice"), "identifier", "locked")).isEqualTo(true);
        long checked = awaitPasswordChecks(3);

        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult r = browser.submit(linkPage(browser, "198.51.100.66"), "alice", VICTIM_PW, "198.51.100.66", Map.of());
        assertThat(r.status()).as(r.toString()).isEqualTo(429);
        assertThat(r.gateCode()).contains("blocked");
        assertThat(passwordChecks()).as("the link page checked no password").isEqualTo(checked);
        assertThat(linked()).isFalse();
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Logs in at the provider realm as its alice, comes back to the consumer realm, answers "Account already exists"
     * with "Add to existing account", and returns the "Authenticate to link your account" page.
     */
    private BrowserLogin.LoginResult linkPage(BrowserLogin browser, String address) {
        HttpResponse<String> r = follow(browser, browser.rawGet(browser.authUrl(consumer) + "&kc_idp_hint=" + IDP, address), address);
        String providerLogin = BrowserLogin.formAction(r.body());
        assertThat(providerLogin).as("the provider realm's login page: %s", r.body()).contains("/realms/" + provider + "/");
        r = follow(browser, browser.rawPost(providerLogin, Map.of("username", "alice", "password", ATTACKER_PW, "credentialId", ""),
                address), address);
        if (r.body().contains("linkAccount")) {
            r = follow(browser, browser.rawPost(BrowserLogin.formAction(r.body()), Map.of("submitAction", "linkAccount"), address), address);
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return new BrowserLogin.LoginResult(r.statusCode(), r.body(), null);
    }

    private static HttpResponse<String> follow(BrowserLogin browser, HttpResponse<String> r, String address) {
        for (int i = 0; i < 15 && (r.statusCode() == 302 || r.statusCode() == 303); i++) {
            String location = URI.create(r.uri().toString()).resolve(r.headers().firstValue("Location").orElseThrow()).toString();
            if (!location.startsWith(server.baseUrl() + "/")) {
                return r; // back at the client: the redirect is not followed
            }
            r = browser.rawGet(location, address);
        }
        return r;
    }

    /**
     * Keycloak's events of refused passwords for the consumer's alice (error invalid_user_credentials). On the link page
     * Keycloak records two per refused password (the form's and the flow's), on the token endpoint one.
     */
    private long passwordChecks() {
        String alice = admin.findUserId(consumer, "alice").orElseThrow();
        return admin.events(consumer).stream()
                .filter(e -> "invalid_user_credentials".equals(e.getError()) && alice.equals(e.getUserId()))
                .count();
    }

    /** Waits for at least {@code attempts} such events (events are stored asynchronously) and returns the count. */
    private long awaitPasswordChecks(long attempts) {
        GateIt.await(attempts + " refused passwords in the events", Duration.ofSeconds(10), () -> passwordChecks() >= attempts);
        GateIt.sleep(1000);
        return passwordChecks();
    }

    private boolean linked() {
        String alice = admin.findUserId(consumer, "alice").orElseThrow();
        return admin.realm(consumer).users().get(alice).getFederatedIdentity().stream()
                .anyMatch(f -> IDP.equals(f.getIdentityProvider()));
    }

    private Map<String, Object> brokerClient() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("clientId", "broker");
        c.put("enabled", true);
        c.put("protocol", "openid-connect");
        c.put("publicClient", false);
        c.put("secret", "broker-secret-1");
        c.put("standardFlowEnabled", true);
        c.put("directAccessGrantsEnabled", false);
        c.put("redirectUris", List.of(server.baseUrl() + "/realms/" + consumer + "/broker/" + IDP + "/endpoint*"));
        return c;
    }

    private Map<String, String> idpConfig() {
        String base = server.baseUrl() + "/realms/" + provider + "/protocol/openid-connect";
        Map<String, String> c = new LinkedHashMap<>();
        c.put("authorizationUrl", base + "/auth");
        c.put("tokenUrl", base + "/token");
        c.put("userInfoUrl", base + "/userinfo");
        c.put("clientId", "broker");
        c.put("clientSecret", "broker-secret-1");
        c.put("clientAuthMethod", "client_secret_post");
        c.put("defaultScope", "openid email profile");
        c.put("syncMode", "IMPORT");
        c.put("validateSignature", "false");
        c.put("pkceEnabled", "false");
        return c;
    }
}
