package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Re-authentication (prompt=login in a browser with a session): Keycloak already knows the user and ignores any
 * typed name, so the gate counts the session's user.
 */
class ReauthenticationIT extends ServerTest {

    private static final String ALICE_PW = "alice-secret-1";
    private static final String BOB_PW = "bob-secret-1";


    private static final Map<String, String> LOCKOUT_2 = Map.of("captcha.enabled", "false", "accountLockout.threshold", "2",
            "perIp.threshold", "1000", "perIpAccount.threshold", "1000", "credentialStuffing.threshold", "1000");

    /** A re-authentication (prompt=login) in a browser that already has a session: a password-only form. */
    private static BrowserLogin.LoginResult reauthenticate(BrowserLogin browser, String realm, Map<String, String> fields,
                                                           String address) {
        HttpResponse<String> page = browser.rawGet(browser.authUrl(realm) + "&prompt=login", address);
        String action = BrowserLogin.formAction(page.body());
        assertThat(action).as("a login form for re-authentication: %s", page.statusCode()).isNotNull();
        return browser.post(action, fields, address);
    }

    @Test
    void re_authentication_counts_the_known_user_whatever_username_is_posted() {
        String realm = importRealm(RealmBuilder.unique("reauth")
                .user("alice", ALICE_PW).user("bob", BOB_PW)
                .gatedBrowserFlow("abuse-gate-username-password-form", LOCKOUT_2));
        BrowserLogin alice = server.newBrowser();
        assertThat(alice.login(realm, "alice", ALICE_PW, "192.0.2.71").loginSucceeded()).isTrue();

        // Two wrong passwords on re-authentication, each posting a different made-up username.
        for (int i = 0; i < 2; i++) {
            BrowserLogin.LoginResult r = reauthenticate(alice, realm,
                    Map.of("username", "decoy-" + i, "password", "wrong-" + i, "credentialId", ""), "192.0.2.71");
            assertThat(r.gateCode()).as("attempt %d", i + 1).isEmpty();
        }
        BrowserLogin.LoginResult locked = reauthenticate(alice, realm, Map.of("password", ALICE_PW, "credentialId", ""),
                "192.0.2.71");
        assertThat(locked.gateCode()).as("alice's failures were counted for alice").contains("blocked");
        assertThat(locked.body()).as("the 429 page offers no username field to re-authentication")
                .doesNotContain("name=\"username\"");
        assertThat(server.newBrowser().login(realm, "alice", ALICE_PW, "198.51.100.71").gateCode())
                .as("alice is locked from anywhere").contains("blocked");

        // Nobody else's re-authentication is affected (no realm-wide empty identifier).
        BrowserLogin bob = server.newBrowser();
        assertThat(bob.login(realm, "bob", BOB_PW, "192.0.2.72").loginSucceeded()).isTrue();
        BrowserLogin.LoginResult bobAgain = reauthenticate(bob, realm, Map.of("password", BOB_PW, "credentialId", ""),
                "192.0.2.72");
        assertThat(bobAgain.loginSucceeded()).as(bobAgain.toString()).isTrue();
    }
}
