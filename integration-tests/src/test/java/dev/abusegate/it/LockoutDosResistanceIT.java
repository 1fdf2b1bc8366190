package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lockout-DoS resistance and smarter counting in a real Keycloak, through the browser flow: device
 * cookies, repeated identical wrong passwords, progressive lockout and the allowlist.
 */
class LockoutDosResistanceIT extends ServerTest {

    private static final String FORM = "abuse-gate-username-password-form";
    private static final String DEVICE_COOKIE = "KC_ABUSE_GATE_DEVICE";
    private static final String PASSWORD = "alice-secret-1";

    private String realm(String prefix, Map<String, String> config) {
        return importRealm(RealmBuilder.unique(prefix)
                .user("alice", PASSWORD)
                .user("bob", "bob-secret-1")
                .gatedBrowserFlow(FORM, config));
    }

    private static void lockAliceFromStrangers(String realm, int failures) {
        for (int i = 1; i <= failures; i++) {
            BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "guess-" + i, "198.51.100." + i);
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
        }
        BrowserLogin.LoginResult stranger = server.newBrowser().login(realm, "alice", PASSWORD, "198.51.100.99");
        assertThat(stranger.gateCode()).as("the account is locked for strangers").contains("blocked");
    }

    @Test
    void the_owner_with_a_device_cookie_logs_in_while_an_attacker_has_the_account_locked() {
        String realm = realm("device", Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                "deviceCookie.enabled", "true", "deviceCookie.threshold", "2"));
        BrowserLogin owner = server.newBrowser();
        assertThat(owner.login(realm, "alice", PASSWORD, "192.0.2.1").loginSucceeded()).isTrue();
        assertThat(owner.cookie(DEVICE_COOKIE)).as("a device cookie after a successful login").isPresent();
        assertThat(owner.cookie(DEVICE_COOKIE).orElseThrow()).doesNotContain("alice");
        owner.keepOnlyCookie(DEVICE_COOKIE);

        lockAliceFromStrangers(realm, 3);

        BrowserLogin.LoginResult r = owner.login(realm, "alice", PASSWORD, "192.0.2.1");
        assertThat(r.loginSucceeded()).as(r.toString()).isTrue();
    }

    @Test
    void a_device_cookie_gives_no_more_than_its_own_budget() {
        String realm = realm("device-budget", Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                "deviceCookie.enabled", "true", "deviceCookie.threshold", "2"));
        BrowserLogin thief = server.newBrowser();
        assertThat(thief.login(realm, "alice", PASSWORD, "192.0.2.2").loginSucceeded()).isTrue();
        thief.keepOnlyCookie(DEVICE_COOKIE);

        assertThat(thief.login(realm, "alice", "guess-1", "203.0.113.1").status()).isEqualTo(200);
        assertThat(thief.login(realm, "alice", "guess-2", "203.0.113.1").status()).isEqualTo(200);
        assertThat(thief.login(realm, "alice", PASSWORD, "203.0.113.1").gateCode())
                .as("the stolen cookie's own budget is spent").contains("blocked");
        assertThat(server.newBrowser().login(realm, "alice", PASSWORD, "192.0.2.3").loginSucceeded())
                .as("the account's shared budget is untouched").isTrue();
    }

    @Test
    void forged_and_other_account_cookies_give_nothing() {
        String realm = realm("device-forged", Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                "deviceCookie.enabled", "true"));
        BrowserLogin bobsBrowser = server.newBrowser();
        assertThat(bobsBrowser.login(realm, "bob", "bob-secret-1", "192.0.2.4").loginSucceeded()).isTrue();
        String bobsCookie = bobsBrowser.cookie(DEVICE_COOKIE).orElseThrow();

        lockAliceFromStrangers(realm, 3);

        BrowserLogin borrowed = server.newBrowser();
        borrowed.setCookie(DEVICE_COOKIE, bobsCookie);
        assertThat(borrowed.login(realm, "alice", PASSWORD, "192.0.2.4").gateCode())
                .as("bob's device cookie presented for alice").contains("blocked");

        BrowserLogin forged = server.newBrowser();
        String tampered = bobsCookie.replaceFirst("^v2\\.[^.]+", "v2.AAAAAAAAAAAAAAAAAAAAAA");
        forged.setCookie(DEVICE_COOKIE, tampered);
        assertThat(forged.login(realm, "alice", PASSWORD, "192.0.2.4").gateCode()).as("forged").contains("blocked");
    }

    /** A realm where users may log in with their e-mail too. */
    private String emailRealm(String prefix) {
        return importRealm(RealmBuilder.unique(prefix)
                .user("alice", PASSWORD)
                .user("bob", "bob-secret-1")
                .set("loginWithEmailAllowed", true)
                .gatedBrowserFlow(FORM, Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                        "deviceCookie.enabled", "true", "deviceCookie.threshold", "2")));
    }

    @Test
    void a_device_cookie_from_a_username_login_lets_the_owner_in_under_the_email_too() {
        String realm = emailRealm("device-email");
        BrowserLogin owner = server.newBrowser();
        assertThat(owner.login(realm, "alice", PASSWORD, "192.0.2.5").loginSucceeded()).isTrue();
        assertThat(owner.cookie(DEVICE_COOKIE).orElseThrow()).doesNotContain("alice").doesNotContain("example.com");
        owner.keepOnlyCookie(DEVICE_COOKIE);

        lockAliceFromStrangers(realm, 3);
        assertThat(server.newBrowser().login(realm, "alice@example.com", PASSWORD, "198.51.100.98").gateCode())
                .as("the lock holds under the e-mail for strangers").contains("blocked");

        BrowserLogin.LoginResult r = owner.login(realm, "alice@example.com", PASSWORD, "192.0.2.5");
        assertThat(r.loginSucceeded()).as("the owner's browser, typing the e-mail: " + r).isTrue();
    }

    @Test
    void a_device_cookie_does_not_follow_an_email_that_passed_to_another_account() {
        String realm = emailRealm("device-moved");
        BrowserLogin alicesBrowser = server.newBrowser();
        assertThat(alicesBrowser.login(realm, "alice@example.com", PASSWORD, "192.0.2.6").loginSucceeded()).isTrue();
        alicesBrowser.keepOnlyCookie(DEVICE_COOKIE);

        // the address passes from alice to bob
        setEmail(realm, "alice", "alice.new@example.com");
        setEmail(realm, "bob", "alice@example.com");
        for (int i = 1; i <= 3; i++) {
            assertThat(server.newBrowser().login(realm, "bob", "guess-" + i, "198.51.100." + i).status()).isEqualTo(200);
        }
        assertThat(server.newBrowser().login(realm, "alice@example.com", "bob-secret-1", "198.51.100.99").gateCode())
                .as("bob's account is locked, under his new e-mail too").contains("blocked");

        BrowserLogin.LoginResult r = alicesBrowser.login(realm, "alice@example.com", "bob-secret-1", "192.0.2.6");
        assertThat(r.gateCode()).as("alice's cookie, presented for the e-mail that is bob's now: " + r).contains("blocked");
        BrowserLogin.LoginResult own = alicesBrowser.login(realm, "alice", PASSWORD, "192.0.2.6");
        assertThat(own.loginSucceeded()).as("the cookie still serves alice: " + own).isTrue();
    }

    private static void setEmail(String realm, String username, String email) {
        admin.updateUser(realm, admin.findUserId(realm, username).orElseThrow(), u -> u.setEmail(email));
    }

    @Test
    void the_same_typo_repeated_never_locks() {
        String realm = realm("typo", Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                "accountLockout.ignoreRepeatedPasswords", "true", "perIpAccount.enabled", "false"));
        for (int i = 0; i < 6; i++) {
            BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "alice-secret-l", "192.0.2." + (10 + i));
            assertThat(r.status()).as("typo #" + (i + 1)).isEqualTo(200);
            assertThat(r.gateCode()).isEmpty();
        }
        assertThat(server.newBrowser().login(realm, "alice", PASSWORD, "192.0.2.30").loginSucceeded()).isTrue();
    }

    @Test
    void different_wrong_passwords_still_lock_with_repeats_ignored() {
        String realm = realm("typo-distinct", Map.of("captcha.enabled", "false", "accountLockout.threshold", "3",
                "accountLockout.ignoreRepeatedPasswords", "true"));
        lockAliceFromStrangers(realm, 3);
    }

    @Test
    void each_consecutive_lock_lasts_longer() throws InterruptedException {
        String realm = realm("progressive", Map.of("captcha.enabled", "false", "accountLockout.threshold", "2",
                "accountLockout.lockoutSeconds", "2", "accountLockout.progressiveFactor", "3",
                "accountLockout.maxLockoutSeconds", "60", "perIpAccount.enabled", "false", "perIp.enabled", "false",
                "credentialStuffing.enabled", "false"));
        long first = lockAndMeasure(realm);
        long second = lockAndMeasure(realm);
        assertThat(first).as("first lock, ms").isBetween(1_500L, 5_500L);
        assertThat(second).as("second lock (3x), ms").isBetween(5_500L, 12_000L);
        assertThat(server.newBrowser().login(realm, "alice", PASSWORD, "192.0.2.52").loginSucceeded()).isTrue();
        long afterSuccess = lockAndMeasure(realm);
        assertThat(afterSuccess).as("a success resets the progression, ms").isBetween(1_500L, 5_500L);
    }

    /**
     * Locks alice with two wrong passwords and polls the operator's view of her account until the lock is gone. (A
     * blank password checks nothing, so it does not run layer 3 and cannot tell a lock: the admin state can.) Once
     * it is gone, a blank password still reaches Keycloak's own page: neither a success (which would reset the
     * progression) nor a counted failure.
     */
    private static long lockAndMeasure(String realm) throws InterruptedException {
        server.newBrowser().login(realm, "alice", "wrong-a", "192.0.2.50");
        server.newBrowser().login(realm, "alice", "wrong-b", "192.0.2.51");
        long start = System.currentTimeMillis();
        assertThat(server.newBrowser().login(realm, "alice", PASSWORD, "192.0.2.52").gateCode()).contains("blocked");
        while (System.currentTimeMillis() - start < 30_000) {
            Thread.sleep(250);
            if (!Boolean.TRUE.equals(GateIt.stateValue(admin.gateState(realm, null, "alice"), "identifier", "locked"))) {
                long lasted = System.currentTimeMillis() - start;
                BrowserLogin.LoginResult r = server.newBrowser().login(realm, "alice", "", "192.0.2.52");
                assertThat(r.gateCode()).as(r.toString()).isEmpty();
                assertThat(r.status()).as(r.toString()).isEqualTo(200);
                return lasted;
            }
        }
        throw new AssertionError("the lock never expired");
    }

    @Test
    void an_allowlisted_address_is_never_blocked_by_layers_1_2_and_4() {
        String realm = realm("allowlist", Map.of("captcha.enabled", "false", "perIp.threshold", "3",
                "perIpAccount.threshold", "3", "credentialStuffing.threshold", "3", "accountLockout.enabled", "false",
                "allowlist.cidrs", "203.0.113.0/24, 2001:db8:77::/48, not-a-cidr"));
        for (int i = 0; i < 8; i++) {
            BrowserLogin.LoginResult r = server.newBrowser().login(realm, "user" + i, "x", "203.0.113.40");
            assertThat(r.gateCode()).as("allowlisted IPv4, attempt " + (i + 1)).isEmpty();
            BrowserLogin.LoginResult v6 = server.newBrowser().login(realm, "alice", "x", "2001:db8:77:1::5");
            assertThat(v6.gateCode()).as("allowlisted IPv6, attempt " + (i + 1)).isEmpty();
        }
        BrowserLogin.LoginResult outside = null;
        for (int i = 0; i < 4; i++) {
            outside = server.newBrowser().login(realm, "user" + i, "x", "198.51.100.40");
        }
        assertThat(outside.gateCode()).as("an address outside the allowlist").contains("blocked");
        assertThat(server.logText()).contains("has an invalid value for 'allowlist.cidrs' ('not-a-cidr' is not an IPv4 or IPv6 address or CIDR)");
    }

    @Test
    void layer_3_still_applies_to_an_allowlisted_address() {
        String realm = realm("allowlist-lock", Map.of("captcha.enabled", "false", "accountLockout.threshold", "2",
                "allowlist.cidrs", "203.0.113.0/24"));
        server.newBrowser().login(realm, "alice", "wrong-1", "203.0.113.60");
        server.newBrowser().login(realm, "alice", "wrong-2", "203.0.113.60");
        assertThat(server.newBrowser().login(realm, "alice", PASSWORD, "203.0.113.60").gateCode()).contains("blocked");
    }
}
