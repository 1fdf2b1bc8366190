package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.altchaChallenge;
import static dev.abusegate.it.support.GateIt.assertCaptchaRequired;
import static dev.abusegate.it.support.GateIt.reachCaptchaBand;
import static dev.abusegate.it.support.GateIt.showsWrongSolution;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abusegate.captcha.Altcha;
import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.ComponentRepresentation;
import org.keycloak.representations.idm.EventRepresentation;

/**
 * Captcha, which solutions pass: the ALTCHA challenge the page carries, solved with the Java solver and verified by
 * the server; what it refuses (missing, garbage, replayed, expired, foreign-signed, another realm's). The band
 * itself is {@link CaptchaBandIT}, the vendors {@link CaptchaVendorIT}, the widget in a browser {@link CaptchaWidgetIT}.
 *
 * <p>The realm: {@link GateIt#captchaBandConfig()} (attempts 1-3 free, then the captcha), its own captcha secret,
 * {@code captcha.altcha.maxNumber} 5000. Each test uses its own X-Forwarded-For address.
 */
class CaptchaAltchaIT extends ServerTest {

    private static final String USER = "alice";
    private static final String PASSWORD = "alice-Secret-1";
    private static final String SECRET = "altcha-hmac-" + UUID.randomUUID();
    private static final Pattern SCRIPT_SRC = Pattern.compile("<script\\b[^>]*\\ssrc=\"([^\"]*)\"");
    private static final SecureRandom RANDOM = new SecureRandom();

    private static String realm;

    @BeforeAll
    static void importAltchaRealm() {
        realm = importClassRealm(altchaRealm("captcha-altcha"));
    }

    private static RealmBuilder altchaRealm(String prefix) {
        Map<String, String> config = GateIt.captchaBandConfig();
        config.put("captcha.secret", SECRET);
        config.put("captcha.altcha.maxNumber", "5000");
        return RealmBuilder.unique(prefix).user(USER, PASSWORD)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config);
    }

    /** The key the gate signs the realm's sign-in challenges with, from the configured secret (see Altcha#keyFor). */
    private static byte[] altchaKey() {
        return Altcha.keyFor(SECRET.getBytes(StandardCharsets.UTF_8), admin.realmId(realm), Altcha.SIGN_IN, 5000);
    }

    private static LoginResult submit(BrowserLogin browser, LoginResult page, String password, String address, Map<String, String> extra) {
        return browser.submit(page.nextPage(), USER, password, address, extra);
    }

    @CrossVersion
    @Test
    void altcha_challenge_from_the_page_solved_in_java_is_verified_by_the_server_and_lets_the_right_password_in() throws Exception {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);

        assertThat(BrowserLogin.attributeOfElement(page.body(), "abuse-gate-captcha", "data-provider")).contains("altcha");
        assertThat(BrowserLogin.attributeOfElement(page.body(), "username", "value")).contains(USER);
        String challengeJson = altchaChallenge(page.body());
        JsonNode challenge = Json.MAPPER.readTree(challengeJson);
        assertThat(challenge.path("algorithm").asText()).isEqualTo("SHA-256");
        assertThat(challenge.path("maxnumber").asLong()).isEqualTo(5000);
        assertThat(challenge.path("signature").asText()).hasSize(64);
        assertThat(challenge.path("salt").asText()).contains("?expires=");

        // the widget's script is served from the provider jar
        Matcher script = SCRIPT_SRC.matcher(page.body());
        String altchaJs = null;
        while (script.find()) {
            if (script.group(1).endsWith("/abuse-gate/altcha.js")) {
                altchaJs = BrowserLogin.unescape(script.group(1));
            }
        }
        assertThat(altchaJs).as("script src .../abuse-gate/altcha.js").isNotNull();
        HttpResponse<String> js = browser.rawGet(altchaJs.startsWith("/") ? server.baseUrl() + altchaJs : altchaJs, address);
        assertThat(js.statusCode()).isEqualTo(200);
        assertThat(js.body()).contains("customElements.define(\"altcha-widget\"");

        String payload = AltchaSolver.solve(challengeJson);
        assertThat(payload).isNotNull();
        LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", payload));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        EventRepresentation event = admin.awaitEvent(realm, e -> address.equals(e.getIpAddress())
                && "abuse_gate_captcha_required".equals(e.getError()), Duration.ofSeconds(10), "LOGIN_ERROR");
        Map<String, String> details = event.getDetails();
        assertThat(details).containsEntry("abuse_gate_layer", "per_ip_account");
        admin.awaitEvent(realm, e -> address.equals(e.getIpAddress()), Duration.ofSeconds(10), "LOGIN");
    }

    @Test
    void missing_or_garbage_altcha_solution_is_challenged_again_and_never_escalates_to_blocked() {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        assertThat(showsWrongSolution(page)).as("no error before anything was submitted").isFalse();

        // far more unsolved attempts than the threshold (6): the band counts nothing
        for (int i = 0; i < 4; i++) {
            page = submit(browser, page, PASSWORD, address, Map.of());
            assertCaptchaRequired(page);
            assertThat(showsWrongSolution(page)).as("nothing submitted: no 'wrong solution' message").isFalse();
        }
        for (String garbage : List.of("garbage", "eyJhbGdvcml0aG0iOiJTSEEtMjU2In0=", "%%%")) {
            page = submit(browser, page, PASSWORD, address, Map.of("altcha", garbage));
            assertCaptchaRequired(page);
            assertThat(showsWrongSolution(page)).as("garbage solution %s is reported as wrong", garbage).isTrue();
        }
        // and a real solution still works afterwards
        LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", AltchaSolver.solve(altchaChallenge(page.body()))));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
    }

    @Test
    void an_altcha_solution_is_accepted_once_in_its_own_realm_and_never_in_another_sharing_the_secret() {
        String t4 = importRealm(altchaRealm("captcha-altcha-t4"));
        String address = GateIt.freshAddress();
        BrowserLogin browser = server.newBrowser();
        String payload = AltchaSolver.solve(altchaChallenge(reachCaptchaBand(browser, realm, USER, address).body()));
        // the other realm, in its band for the same address, refuses the solution (before and after its use)
        BrowserLogin elsewhere = server.newBrowser();
        LoginResult band = reachCaptchaBand(elsewhere, t4, USER, address);
        LoginResult before = submit(elsewhere, band, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(before);
        assertThat(showsWrongSolution(before)).isTrue();

        LoginResult own = browser.login(realm, USER, PASSWORD, address, Map.of("altcha", payload));
        assertThat(own.loginSucceeded()).as("accepted in the realm that issued it: %s", own).isTrue();
        LoginResult again = server.newBrowser().login(realm, USER, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(again);

        LoginResult after = submit(elsewhere, before, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(after);
        // t4's own challenge still lets the right password in there
        LoginResult in = submit(elsewhere, after, PASSWORD, address, Map.of("altcha", AltchaSolver.solve(altchaChallenge(after.body()))));
        assertThat(in.loginSucceeded()).as("control: t4's own challenge: %s", in).isTrue();
    }

    @Test
    void replayed_altcha_solution_is_challenged_again() {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        String payload = AltchaSolver.solve(altchaChallenge(page.body()));

        LoginResult first = submit(browser, page, "still-wrong", address, Map.of("altcha", payload));
        assertThat(first.status()).as("solved captcha passes the band: %s", first).isEqualTo(200);
        assertThat(first.gateCode()).isEmpty();
        assertThat(first.keycloakError()).contains("Invalid username or password.");

        LoginResult replay = submit(browser, first, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(replay);
        assertThat(showsWrongSolution(replay)).isTrue();

        // from another browser (another session) the same payload is refused as well
        LoginResult elsewhere = server.newBrowser().login(realm, USER, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(elsewhere);
    }

    @Test
    void challenge_signed_by_the_test_with_the_configured_secret_is_accepted() {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        String own = Altcha.challengeJson(altchaKey(), 5000, System.currentTimeMillis() / 1000 + 600, RANDOM);
        LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", AltchaSolver.solve(own)));
        assertThat(in.loginSucceeded()).as("control: a self-signed, unexpired challenge passes: %s", in).isTrue();
    }

    @Test
    void expired_altcha_challenge_is_challenged_again() throws Exception {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        byte[] key = altchaKey();

        String past = Altcha.challengeJson(key, 5000, System.currentTimeMillis() / 1000 - 5, RANDOM);
        LoginResult r = submit(browser, page, PASSWORD, address, Map.of("altcha", AltchaSolver.solve(past)));
        assertCaptchaRequired(r);
        assertThat(showsWrongSolution(r)).isTrue();

        // solved while valid, submitted after its expiry
        long expires = System.currentTimeMillis() / 1000 + 2;
        String soon = Altcha.challengeJson(key, 5000, expires, RANDOM);
        String payload = AltchaSolver.solve(soon);
        assertThat(Altcha.verify(key, 5000, payload, System.currentTimeMillis() / 1000).ok()).as("valid when solved").isTrue();
        while (System.currentTimeMillis() / 1000 <= expires) {
            Thread.sleep(250); // let the 2 s lifetime run out
        }
        r = submit(browser, r, PASSWORD, address, Map.of("altcha", payload));
        assertCaptchaRequired(r);
        assertThat(showsWrongSolution(r)).isTrue();
    }

    @Test
    void altcha_solution_signed_with_another_key_is_challenged_again() {
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        String foreign = Altcha.challengeJson(("not-" + SECRET).getBytes(StandardCharsets.UTF_8), 5000,
                System.currentTimeMillis() / 1000 + 600, RANDOM);
        LoginResult r = submit(browser, page, PASSWORD, address, Map.of("altcha", AltchaSolver.solve(foreign)));
        assertCaptchaRequired(r);
        assertThat(showsWrongSolution(r)).isTrue();
        assertThat(r.body()).doesNotContain(SECRET);
        assertThat(server.logText()).doesNotContain(SECRET);
    }

    @Test
    void a_spliced_altcha_payload_of_a_genuinely_solved_challenge_is_refused_before_and_after_expiry() throws Exception {
        String secret = "altcha-hmac-" + UUID.randomUUID();
        String realm = importRealm(RealmBuilder.unique("splice").user(USER, PASSWORD)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.captchaBandConfig("captcha.secret", secret, "captcha.altcha.maxNumber", "5000")));
        String address = "198.51.100.171";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = GateIt.reachCaptchaBand(browser, realm, USER, address);

        // the page's own challenge, solved and spliced: refused while the challenge is still valid
        String challengeJson = GateIt.altchaChallenge(page.body());
        String splicedPayload = spliced(challengeJson);
        for (int i = 0; splicedPayload == null && i < 20; i++) {
            page = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of());
            challengeJson = GateIt.altchaChallenge(page.body());
            splicedPayload = spliced(challengeJson);
        }
        assertThat(splicedPayload).as("a challenge whose number has two digits").isNotNull();
        BrowserLogin.LoginResult r = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("altcha", splicedPayload));
        GateIt.assertCaptchaRequired(r);

        // a challenge that expired 5 s ago, genuinely solved, then spliced: refused
        byte[] key = Altcha.keyFor(secret.getBytes(StandardCharsets.UTF_8), admin.realmId(realm), Altcha.SIGN_IN, 5000);
        String expired = null;
        while (expired == null) {
            expired = spliced(Altcha.challengeJson(key, 5000, System.currentTimeMillis() / 1000 - 5, RANDOM));
        }
        r = browser.submit(r.nextPage(), USER, PASSWORD, address, Map.of("altcha", expired));
        GateIt.assertCaptchaRequired(r);

        // the genuine solution of the page's challenge is still accepted, once
        String genuine = AltchaSolver.solve(GateIt.altchaChallenge(r.body()));
        BrowserLogin.LoginResult in = browser.submit(r.nextPage(), USER, PASSWORD, address, Map.of("altcha", genuine));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
        BrowserLogin.LoginResult replay = server.newBrowser().login(realm, USER, PASSWORD, address, Map.of("altcha", genuine));
        GateIt.assertCaptchaRequired(replay);
    }

    /**
     * The payload with leading digits of its number moved to the end of the salt: {@code salt + number}
     * and so the hash stay the same. Solves again until the number has at least two digits.
     */
    private static String spliced(String challengeJson) throws Exception {
        for (int attempt = 0; attempt < 1000; attempt++) {
            ObjectNode p = (ObjectNode) Json.MAPPER.readTree(Base64.getDecoder().decode(AltchaSolver.solve(challengeJson)));
            String digits = String.valueOf(p.path("number").asLong());
            for (int moved = 1; moved < digits.length(); moved++) {
                String rest = digits.substring(moved);
                if (rest.length() == 1 || !rest.startsWith("0")) {
                    p.put("salt", p.path("salt").asText() + digits.substring(0, moved));
                    p.put("number", Long.parseLong(rest));
                    return Base64.getEncoder().encodeToString(Json.MAPPER.writeValueAsBytes(p));
                }
            }
            return null; // a one-digit number cannot be spliced; the caller uses another challenge
        }
        return null;
    }


    /**
     * Keycloak 26.7.3 answers a realm without an active HMAC key by generating a random "fallback-HS512"
     * key provider (DefaultKeyManager#getActiveKey), so disabling the realm's HMAC providers through the
     * admin API leaves the gate keyed by that private key. What must hold: nothing the gate signs can be
     * forged from public data; an ALTCHA challenge signed with a key derived from a public label and the
     * realm id (what the gate used to fall back to) is refused, and the gate keeps working.
     */
    @Test
    void with_the_realms_hmac_providers_disabled_nothing_can_be_forged_from_public_data() throws Exception {
        String realm = importRealm(RealmBuilder.unique("no-hmac").user(USER, PASSWORD)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.captchaBandConfig("captcha.altcha.maxNumber", "5000", "deviceCookie.enabled", "true")));
        String realmId = admin.realmId(realm);
        int disabled = 0;
        for (ComponentRepresentation k : admin.realm(realm).components().query(realmId, "org.keycloak.keys.KeyProvider")) {
            if ("hmac-generated".equals(k.getProviderId())) {
                k.getConfig().putSingle("enabled", "false");
                k.getConfig().putSingle("active", "false");
                admin.realm(realm).components().component(k.getId()).update(k);
                disabled++;
            }
        }
        assertThat(disabled).as("HMAC key providers disabled").isPositive();

        BrowserLogin owner = server.newBrowser();
        BrowserLogin.LoginResult login = owner.login(realm, USER, PASSWORD, "198.51.100.174");
        assertThat(login.loginSucceeded()).as(login.toString()).isTrue();

        String address = "198.51.100.175";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = GateIt.reachCaptchaBand(browser, realm, USER, address);
        byte[] publicKey = Altcha.keyFor(sha256("keycloak-abuse-gate altcha key v1", realmId), realmId, Altcha.SIGN_IN, 5000);
        String forged = AltchaSolver.solve(Altcha.challengeJson(publicKey, 5000, System.currentTimeMillis() / 1000 + 600, RANDOM));
        BrowserLogin.LoginResult r = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("altcha", forged));
        GateIt.assertCaptchaRequired(r);

        JsonNode offered = Json.MAPPER.readTree(GateIt.altchaChallenge(r.body()));
        assertThat(offered.path("salt").asText()).endsWith("&");
        BrowserLogin.LoginResult in = browser.submit(r.nextPage(), USER, PASSWORD, address,
                Map.of("altcha", AltchaSolver.solve(offered.toString())));
        assertThat(in.loginSucceeded()).as("the gate works with Keycloak's generated key: %s", in).isTrue();
    }

    private static byte[] sha256(String label, String realmId) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(label.getBytes(StandardCharsets.UTF_8));
        return md.digest(realmId.getBytes(StandardCharsets.UTF_8));
    }
}
