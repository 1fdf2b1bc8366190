package dev.abusegate.it;

import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.abusegate.it.support.GateIt.assertBlocked;
import static dev.abusegate.it.support.GateIt.quietConfig;
import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four layers of the gated browser form ({@code abuse-gate-username-password-form}) against the real
 * Keycloak, one layer at a time (the others set out of reach, captcha band off), addresses simulated with
 * X-Forwarded-For. Each attempt is a fresh browser: a new authentication session and no SSO cookie.
 */
class BrowserGateLayersIT extends ServerTest {

    private static final String ALICE_PW = "alice-Secret-1";
    private static final String BOB_PW = "bob-Secret-1";

    private String realm(String prefix, Map<String, String> config) {
        return importRealm(RealmBuilder.unique(prefix)
                .user("alice", ALICE_PW)
                .user("bob", BOB_PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config));
    }

    private static void assertLoggedIn(LoginResult r) {
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
        assertThat(r.gateCode()).isEmpty();
    }

    /** Reached Keycloak's password check and failed there: 200 with Keycloak's own error, no gate answer. */
    private static void assertWrongPassword(LoginResult r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.gateCode()).as(r.toString()).isEmpty();
        assertThat(r.keycloakError()).as(r.toString()).contains("Invalid username or password.");
    }

    @CrossVersion
    @Test
    void layer1_counts_successful_attempts_too_and_blocks_the_address_not_the_account() {
        String realm = realm("l1", quietConfig("perIp.threshold", "3"));
        String a = "192.0.2.11";
        // three successful logins from one address, two accounts: all let through and all counted
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, a));
        assertLoggedIn(attempt(realm, "bob", BOB_PW, a));
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, a));
        assertThat(stateNumber(admin.gateState(realm, a, null), "address", "attempts")).isEqualTo(3);

        // past the threshold the right password is answered 429 blocked, for either account
        assertBlocked(attempt(realm, "alice", ALICE_PW, a));
        assertBlocked(attempt(realm, "bob", BOB_PW, a));

        // the account is not blocked: same account from another address logs in
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, "192.0.2.12"));
        assertLoggedIn(attempt(realm, "bob", BOB_PW, "192.0.2.12"));
    }

    @Test
    void layer2_blocks_only_the_address_and_account_pair() {
        String realm = realm("l2", quietConfig("perIpAccount.threshold", "3"));
        String a = "192.0.2.21";
        assertWrongPassword(attempt(realm, "alice", "wrong-1", a));
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, a));
        assertWrongPassword(attempt(realm, "alice", "wrong-2", a));

        assertBlocked(attempt(realm, "alice", ALICE_PW, a));

        // another account from the same address, and the same account from another address, still log in
        assertLoggedIn(attempt(realm, "bob", BOB_PW, a));
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, "192.0.2.22"));
        // and the pair stays blocked
        assertBlocked(attempt(realm, "alice", ALICE_PW, a));
    }

    @CrossVersion
    @Test
    void layer3_failures_from_several_addresses_lock_the_account_everywhere_but_not_other_accounts() {
        String realm = realm("l3", quietConfig("accountLockout.threshold", "3", "accountLockout.lockoutSeconds", "600"));
        assertWrongPassword(attempt(realm, "alice", "wrong-1", "192.0.2.31"));
        assertWrongPassword(attempt(realm, "alice", "wrong-2", "192.0.2.32"));
        assertWrongPassword(attempt(realm, "alice", "wrong-3", "192.0.2.33"));

        // the right password, from addresses that never failed, is refused
        assertBlocked(attempt(realm, "alice", ALICE_PW, "192.0.2.34"));
        assertBlocked(attempt(realm, "alice", ALICE_PW, "192.0.2.31"));
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked")).isEqualTo(true);

        // another account, even from an address that failed for alice, is unaffected
        assertLoggedIn(attempt(realm, "bob", BOB_PW, "192.0.2.31"));
    }

    @Test
    void layer3_lockout_expires_after_lockout_seconds() {
        String realm = realm("l3exp", quietConfig("accountLockout.threshold", "2", "accountLockout.lockoutSeconds", "3"));
        assertWrongPassword(attempt(realm, "alice", "wrong-1", "192.0.2.41"));
        assertWrongPassword(attempt(realm, "alice", "wrong-2", "192.0.2.42"));
        long lockedBy = System.nanoTime(); // the lock was taken before this answer came back
        assertBlocked(attempt(realm, "alice", ALICE_PW, "192.0.2.43"));

        long waitMillis = 4_000 - (System.nanoTime() - lockedBy) / 1_000_000;
        if (waitMillis > 0) {
            GateIt.sleep(waitMillis); // let the 3 s lock run out
        }
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, "192.0.2.43"));
    }

    @Test
    void layer3_a_successful_login_clears_the_failures() {
        String realm = realm("l3clr", quietConfig("accountLockout.threshold", "3", "accountLockout.lockoutSeconds", "600"));
        assertWrongPassword(attempt(realm, "alice", "wrong-1", "192.0.2.51"));
        assertWrongPassword(attempt(realm, "alice", "wrong-2", "192.0.2.52"));
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, "192.0.2.53"));
        // without the reset, failure 3 (wrong-3) would have locked the account and wrong-4 would be a 429
        assertWrongPassword(attempt(realm, "alice", "wrong-3", "192.0.2.54"));
        assertWrongPassword(attempt(realm, "alice", "wrong-4", "192.0.2.55"));
        assertThat(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked")).isEqualTo(false);
        assertThat(stateNumber(admin.gateState(realm, null, "alice"), "identifier", "failures")).isEqualTo(2);
        // the 3rd failure since the success is checked by Keycloak, then locks the account
        assertWrongPassword(attempt(realm, "alice", "wrong-5", "192.0.2.56"));
        assertBlocked(attempt(realm, "alice", ALICE_PW, "192.0.2.57"));
    }

    @Test
    void layer4_counts_distinct_identifiers_per_address_and_a_retry_does_not_advance_it() {
        String realm = realm("l4", quietConfig("credentialStuffing.threshold", "3"));
        String a = "192.0.2.61";
        assertLoggedIn(attempt(realm, "alice", ALICE_PW, a));
        assertWrongPassword(attempt(realm, "bob", "wrong", a));
        assertWrongPassword(attempt(realm, "nobody-1", "wrong", a));
        assertThat(stateNumber(admin.gateState(realm, a, null), "address", "distinctIdentifiers")).isEqualTo(3);

        // identifiers already seen from this address are retried freely (normalized: case and spaces)
        assertWrongPassword(attempt(realm, "bob", "wrong-again", a));
        assertLoggedIn(attempt(realm, " ALICE ", ALICE_PW, a));
        assertWrongPassword(attempt(realm, "nobody-1", "wrong-again", a));
        assertThat(stateNumber(admin.gateState(realm, a, null), "address", "distinctIdentifiers")).isEqualTo(3);

        // the (T+1)th new identifier is blocked, whatever the password
        assertBlocked(attempt(realm, "nobody-2", "wrong", a));
        // another address is not affected
        assertWrongPassword(attempt(realm, "nobody-2", "wrong", "192.0.2.62"));
    }

    @Test
    void layer4_unknown_usernames_count_like_real_ones() {
        String realm = realm("l4unk", quietConfig("credentialStuffing.threshold", "2"));
        // only unknown usernames from one address
        String unknownOnly = "192.0.2.71";
        assertWrongPassword(attempt(realm, "ghost-1", "pw", unknownOnly));
        assertWrongPassword(attempt(realm, "ghost-2", "pw", unknownOnly));
        LoginResult unknownBlocked = attempt(realm, "ghost-3", "pw", unknownOnly);
        assertBlocked(unknownBlocked);

        // only real usernames from another address: the same counts, the same answer
        String realOnly = "192.0.2.72";
        assertWrongPassword(attempt(realm, "alice", "pw", realOnly));
        assertWrongPassword(attempt(realm, "bob", "pw", realOnly));
        createUser(realm, "carol");
        LoginResult realBlocked = attempt(realm, "carol", "carol-Secret-1", realOnly);
        assertBlocked(realBlocked);
        assertThat(realBlocked.gateMessage()).isEqualTo(unknownBlocked.gateMessage());
    }

    private static void createUser(String realm, String username) {
        admin.createUser(realm, username, username + "-Secret-1");
    }
}
