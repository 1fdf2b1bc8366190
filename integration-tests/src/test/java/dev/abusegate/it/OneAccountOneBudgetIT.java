package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An account that can log in by username or e-mail has one lockout budget: wrong passwords typed under either
 * name count together, and the lock holds for both, on every gated step that takes a username (the browser's
 * Username Password Form, identity-first's username and password pages, the token endpoint). An unknown name
 * keeps its own counter.
 */
class OneAccountOneBudgetIT extends ServerTest {

    private static final String PASSWORD = "budget-Passw0rd!";
    /** Layer 3 alone, threshold 3, no captcha band: the third failure locks. */
    private static final Map<String, String> LAYER_3_AT_3 = Map.of(
            "captcha.enabled", "false",
            "accountLockout.threshold", "3",
            "accountLockout.lockoutSeconds", "600",
            "perIp.enabled", "false",
            "perIpAccount.enabled", "false",
            "credentialStuffing.enabled", "false");
    private static String realm;

    @BeforeAll
    static void createRealm() {
        realm = importClassRealm(RealmBuilder.unique("one-budget")
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

    /** A gated step that takes a username, and how a client meets it. */
    enum Step {
        USERNAME_PASSWORD_FORM {
            @Override
            RealmBuilder flow(RealmBuilder b) {
                return b.gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, LAYER_3_AT_3);
            }

            @Override
            String attempt(String realm, String name, String password, String address) {
                return browser(ServerTest.attempt(realm, name, password, address));
            }
        },
        IDENTITY_FIRST {
            @Override
            RealmBuilder flow(RealmBuilder b) {
                return b.identityFirstGatedBrowserFlow(GateIt.USERNAME_FORM, GateIt.PASSWORD_FORM, LAYER_3_AT_3);
            }

            @Override
            String attempt(String realm, String name, String password, String address) {
                BrowserLogin b = server.newBrowser();
                BrowserLogin.LoginResult page = b.submit(b.openLoginPage(realm, address), name, null, address, Map.of());
                assertThat(page.status()).as(page.toString()).isEqualTo(200);
                assertThat(page.body()).as("the password page").contains("name=\"password\"");
                return browser(b.submit(page.nextPage(), null, password, address, Map.of()));
            }
        },
        DIRECT_GRANT {
            @Override
            RealmBuilder flow(RealmBuilder b) {
                return b.gatedDirectGrantFlow("abuse-gate-direct-grant", LAYER_3_AT_3);
            }

            @Override
            String attempt(String realm, String name, String password, String address) {
                TokenClient.TokenResponse r = tokens.passwordGrant(realm, name, password, null, address);
                if (r.status() == 200) {
                    return SIGNED_IN;
                }
                if (r.isKeycloakInvalidGrant()) {
                    return REFUSED;
                }
                return r.status() + " " + r.json().get("error");
            }
        };

        abstract RealmBuilder flow(RealmBuilder b);

        /** {@value #SIGNED_IN}, {@value #REFUSED} (Keycloak's wrong-credentials answer) or the gate's status and code. */
        abstract String attempt(String realm, String name, String password, String address);

        static final String SIGNED_IN = "signed in";
        static final String REFUSED = "refused by Keycloak";

        private static String browser(BrowserLogin.LoginResult r) {
            if (r.loginSucceeded()) {
                return SIGNED_IN;
            }
            if (r.status() == 200 && r.gateCode().isEmpty() && r.keycloakError().isPresent()) {
                return REFUSED;
            }
            return r.status() + " " + r.gateCode().orElse("?");
        }
    }

    private static String realmFor(Step step) {
        return importClassRealm(step.flow(RealmBuilder.named(RealmBuilder.uniqueName("one-budget-" + step.ordinal()))
                .user("alice", PASSWORD).user("bob", PASSWORD).set("loginWithEmailAllowed", true)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Step.class)
    void two_wrong_passwords_under_each_name_lock_the_account_under_both(Step step) {
        String realm = realmFor(step);
        // username first, then e-mail; the right password under the username is refused
        List<String> seen = new ArrayList<>();
        seen.add(step.attempt(realm, "alice", "wrong-1", "198.51.100.61"));
        seen.add(step.attempt(realm, "alice", "wrong-2", "198.51.100.62"));
        seen.add(step.attempt(realm, "alice@example.com", "wrong-3", "198.51.100.63"));
        seen.add(step.attempt(realm, "alice@example.com", "wrong-4", "198.51.100.64"));
        seen.add(step.attempt(realm, "alice", PASSWORD, "203.0.113.65"));
        // the third failure (the first under the e-mail) reaches the account's threshold of 3: both names lock
        assertThat(seen).containsExactly(Step.REFUSED, Step.REFUSED, Step.REFUSED, "429 blocked", "429 blocked");
        assertLocked(realm, "alice", "alice@example.com");

        // e-mail first, then username; the right password under the e-mail is refused
        seen.clear();
        seen.add(step.attempt(realm, "bob@example.com", "wrong-1", "198.51.100.71"));
        seen.add(step.attempt(realm, "bob@example.com", "wrong-2", "198.51.100.72"));
        seen.add(step.attempt(realm, "bob", "wrong-3", "198.51.100.73"));
        seen.add(step.attempt(realm, "bob", "wrong-4", "198.51.100.74"));
        seen.add(step.attempt(realm, "bob@example.com", PASSWORD, "203.0.113.75"));
        assertThat(seen).containsExactly(Step.REFUSED, Step.REFUSED, Step.REFUSED, "429 blocked", "429 blocked");
        assertLocked(realm, "bob", "bob@example.com");

        // Keycloak checked exactly the three passwords the gate let through for each account
        GateIt.await("the login errors", Duration.ofSeconds(15), () -> checked(realm) >= 6);
        assertThat(checked(realm)).isEqualTo(6);
    }

    private static void assertLocked(String realm, String... names) {
        for (String name : names) {
            assertThat(GateIt.stateValue(admin.gateState(realm, null, name), "identifier", "locked")).as(name).isEqualTo(true);
        }
    }

    /** Wrong passwords Keycloak checked: its invalid_user_credentials login errors. */
    private static int checked(String realm) {
        return admin.eventsWithError(realm, "LOGIN_ERROR", "invalid_user_credentials").size();
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
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked")).isEqualTo(true);
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice@example.com"), "identifier", "locked")).isEqualTo(true);
    }

    @Test
    void an_operators_clear_under_one_name_lifts_the_lock_under_both() {
        String realm = realmFor(Step.DIRECT_GRANT);
        for (int i = 0; i < 3; i++) {
            tokens.passwordGrant(realm, i == 0 ? "alice" : "alice@example.com", "wrong-" + i, null, "198.51.100." + (80 + i));
        }
        assertLocked(realm, "alice", "alice@example.com");
        admin.clearGateState(realm, null, "alice");
        // the lock is gone under the account's e-mail too: the right password typed as the e-mail signs in
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice@example.com"), "identifier", "locked")).isEqualTo(false);
        assertThat(Step.DIRECT_GRANT.attempt(realm, "alice@example.com", PASSWORD, "203.0.113.85")).isEqualTo(Step.SIGNED_IN);
    }

    @Test
    void an_unknown_name_keeps_its_own_counter() {
        for (int i = 0; i < 3; i++) {
            tokens.passwordGrant(realm, "nobody", "wrong-" + i, null, "198.51.100." + (50 + i));
        }
        assertThat(GateIt.stateNumber(admin.gateState(realm, null, "nobody"), "identifier", "failures")).isEqualTo(3);
        assertThat(GateIt.stateNumber(admin.gateState(realm, null, "nobody@example.com"), "identifier", "failures")).isZero();
    }
}
