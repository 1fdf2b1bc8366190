package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.TokenClient;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An account that can log in by username or e-mail has one lockout budget: wrong passwords typed under either
 * name count together, and the lock holds for both. An unknown name keeps its own counter.
 */
class OneAccountOneBudgetIT {

    private static final String PASSWORD = "budget-Passw0rd!";
    private static KeycloakServer server;
    private static AdminClient admin;
    private static TokenClient tokens;
    private static String realm;

    @BeforeAll
    static void createRealm() {
        server = KeycloakServer.shared();
        admin = server.admin();
        tokens = new TokenClient(server.baseUrl());
        realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("one-budget"))
                .user("alice", PASSWORD)
                .set("loginWithEmailAllowed", true)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", Map.of(
                        "captcha.enabled", "false",
                        "accountLockout.threshold", "4",
                        "accountLockout.lockoutSeconds", "600",
                        "perIp.enabled", "false",
                        "perIpAccount.enabled", "false",
                        "credentialStuffing.enabled", "false")));
    }

    @AfterAll
    static void deleteRealm() {
        if (admin != null && realm != null) {
            admin.deleteRealm(realm);
        }
    }

    @Test
    void wrong_passwords_under_the_username_and_the_email_share_one_budget_and_one_lock() {
        for (int i = 0; i < 2; i++) {
            assertThat(tokens.passwordGrant(realm, "alice", "wrong-a" + i, null, "198.51.100." + (20 + i)).isKeycloakInvalidGrant()).isTrue();
            assertThat(tokens.passwordGrant(realm, "alice@example.com", "wrong-e" + i, null, "198.51.100." + (30 + i)).isKeycloakInvalidGrant())
                    .isTrue();
        }
        // four failures in all reach the threshold of 4: both names are locked, the right password too is refused
        TokenClient.TokenResponse byName = tokens.passwordGrant(realm, "alice", PASSWORD, null, "203.0.113.40");
        assertThat(byName.status()).as(byName.toString()).isEqualTo(429);
        TokenClient.TokenResponse byEmail = tokens.passwordGrant(realm, "alice@example.com", PASSWORD, null, "203.0.113.41");
        assertThat(byEmail.status()).as(byEmail.toString()).isEqualTo(429);
        assertThat(GateIt.stateValue(GateIt.state(admin, realm, null, "alice"), "identifier", "locked")).isEqualTo(true);
        assertThat(GateIt.stateValue(GateIt.state(admin, realm, null, "alice@example.com"), "identifier", "locked")).isEqualTo(true);
    }

    @Test
    void an_unknown_name_keeps_its_own_counter() {
        for (int i = 0; i < 3; i++) {
            tokens.passwordGrant(realm, "nobody", "wrong-" + i, null, "198.51.100." + (50 + i));
        }
        assertThat(GateIt.stateNumber(GateIt.state(admin, realm, null, "nobody"), "identifier", "failures")).isEqualTo(3);
        assertThat(GateIt.stateNumber(GateIt.state(admin, realm, null, "nobody@example.com"), "identifier", "failures")).isZero();
    }
}
