package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.stateNumber;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * IPv6 networks beyond /64 on a real Keycloak, through the gated login form: one host with a /48 that sends each
 * attempt from a fresh /64 (X-Forwarded-For) meets layer 1's network threshold, first the captcha band, then the
 * block, while a login from another /48 goes through untouched. The operators' state lookup shows the /48's count.
 */
class Ipv6NetworkIT extends ServerTest {

    private static final String PW = "alice-Secret-1";
    /** Layer 1 at 1000 per /64 and 6 per /48 (the default network prefix), band from 3; the other layers quiet. */
    private static final Map<String, String> CONFIG = GateIt.quietConfig("perIp.ipv6NetworkThreshold", "6",
            "captcha.enabled", "true", "captcha.factor", "0.5");

    private static String fresh64(int i) {
        return "2001:db8:4801:" + Integer.toHexString(0x100 + i) + "::" + Integer.toHexString(i + 1);
    }

    @Test
    void a_48_spread_over_fresh_64s_is_asked_for_a_captcha_then_blocked_while_another_48_logs_in() throws Exception {
        String realm = importRealm(RealmBuilder.unique("v6net")
                .user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, CONFIG));
        // below the band: Keycloak's own answer to a wrong password, each from a /64 never seen before
        for (int i = 0; i < 3; i++) {
            GateIt.assertWrongPassword(attempt(realm, "alice", "wrong-" + i, fresh64(i)));
        }
        // in the band: every fresh /64 is asked for a captcha; a solved one gets to the password check (and counts)
        for (int i = 3; i < 6; i++) {
            BrowserLogin browser = server.newBrowser();
            LoginResult page = browser.login(realm, "alice", "wrong-" + i, fresh64(i));
            GateIt.assertCaptchaRequired(page);
            String solution = AltchaSolver.solve(GateIt.altchaChallenge(page.body()));
            GateIt.assertWrongPassword(browser.submit(page.nextPage(), "alice", "wrong-" + i, fresh64(i), Map.of("altcha", solution)));
        }
        // past the network's threshold: blocked from any /64 of the /48, the right password included
        LoginResult blocked = attempt(realm, "alice", PW, fresh64(6));
        GateIt.assertGate(blocked, "blocked");
        assertThat(blocked.loginSucceeded()).isFalse();

        // another /48: no captcha, logged in
        LoginResult other = attempt(realm, "alice", PW, "2001:db8:4802:1::1");
        assertThat(other.loginSucceeded()).as(other.toString()).isTrue();
        assertThat(other.body() == null ? "" : other.body()).doesNotContain("altcha-widget");

        // the operators' lookup: the /48's count (3 free, 3 solved, the blocked one; captcha answers count nothing),
        // next to the (unused) /64 the address lies in
        Map<String, Object> state = admin.gateState(realm, "2001:db8:4801:ffff::1", null);
        assertThat(GateIt.stateValue(state, "network", "key")).isEqualTo("2001:db8:4801:0:0:0:0:0/48");
        assertThat(stateNumber(state, "network", "attempts")).isEqualTo(7);
        assertThat(stateNumber(state, "address", "attempts")).isZero();
        assertThat(admin.gateState(realm, "192.0.2.77", null)).as("IPv4: no network").doesNotContainKey("network");
    }
}
