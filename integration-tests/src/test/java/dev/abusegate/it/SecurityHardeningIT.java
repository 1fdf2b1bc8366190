package dev.abusegate.it;

import static dev.abusegate.it.support.AdminClient.seg;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abusegate.captcha.Altcha;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.SiteVerifyStub;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 against the real Keycloak: ALTCHA challenge splicing, the bounded vendor verification, and a
 * realm whose HMAC key providers are disabled.
 */
class SecurityHardeningIT extends ServerTest {

    private static final String USER = "alice";
    private static final String PASSWORD = "alice-Secret-1";
    private static final String FORM = "abuse-gate-username-password-form";
    private static final Pattern ALTCHA_WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");
    private static final Pattern CHALLENGE_JSON = Pattern.compile("\\schallengejson=\"([^\"]*)\"");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Per address+account threshold 6, captcha factor 0.5: attempts 1-3 free, then the captcha band. */
    private static Map<String, String> bandConfig(String... extra) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("perIp.threshold", "1000");
        c.put("perIpAccount.threshold", "6");
        c.put("accountLockout.threshold", "1000");
        c.put("credentialStuffing.threshold", "1000");
        c.put("captcha.enabled", "true");
        c.put("captcha.factor", "0.5");
        for (int i = 0; i < extra.length; i += 2) {
            c.put(extra[i], extra[i + 1]);
        }
        return c;
    }

    private String realm(String prefix, Map<String, String> config) {
        return importRealm(RealmBuilder.named(RealmBuilder.uniqueName(prefix)).user(USER, PASSWORD).gatedBrowserFlow(FORM, config));
    }

    private static BrowserLogin.LoginResult reachBand(BrowserLogin browser, String realm, String address) {
        for (int i = 1; i <= 3; i++) {
            BrowserLogin.LoginResult free = browser.login(realm, USER, "wrong-" + i, address);
            assertThat(free.status()).as("free attempt %d: %s", i, free).isEqualTo(200);
        }
        BrowserLogin.LoginResult r = browser.login(realm, USER, "wrong-4", address);
        GateIt.assertCaptchaRequired(r);
        return r;
    }


    private static String challengeJsonOf(String html) {
        Matcher w = ALTCHA_WIDGET.matcher(html);
        assertThat(w.find()).as("an <altcha-widget> on the page").isTrue();
        Matcher c = CHALLENGE_JSON.matcher(w.group());
        assertThat(c.find()).as("challengejson on the widget: %s", w.group()).isTrue();
        return BrowserLogin.unescape(c.group(1));
    }

    /**
     * The payload with leading digits of its number moved to the end of the salt: {@code salt + number}
     * and so the hash stay the same. Solves again until the number has at least two digits.
     */
    private static String spliced(String challengeJson) throws Exception {
        for (int attempt = 0; attempt < 1000; attempt++) {
            ObjectNode p = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(Altcha.solve(challengeJson)));
            String digits = String.valueOf(p.path("number").asLong());
            for (int moved = 1; moved < digits.length(); moved++) {
                String rest = digits.substring(moved);
                if (rest.length() == 1 || !rest.startsWith("0")) {
                    p.put("salt", p.path("salt").asText() + digits.substring(0, moved));
                    p.put("number", Long.parseLong(rest));
                    return Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(p));
                }
            }
            return null; // a one-digit number cannot be spliced; the caller uses another challenge
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------
    // 2. ALTCHA challenge splicing

    @Test
    void a_spliced_altcha_payload_of_a_genuinely_solved_challenge_is_refused_before_and_after_expiry() throws Exception {
        String secret = "altcha-hmac-" + UUID.randomUUID();
        String realm = realm("splice", bandConfig("captcha.secret", secret, "captcha.altcha.maxNumber", "5000"));
        String address = "198.51.100.171";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);

        // the page's own challenge, solved and spliced: refused while the challenge is still valid
        String challengeJson = challengeJsonOf(page.body());
        String splicedPayload = spliced(challengeJson);
        for (int i = 0; splicedPayload == null && i < 20; i++) {
            page = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of());
            challengeJson = challengeJsonOf(page.body());
            splicedPayload = spliced(challengeJson);
        }
        assertThat(splicedPayload).as("a challenge whose number has two digits").isNotNull();
        BrowserLogin.LoginResult r = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("altcha", splicedPayload));
        GateIt.assertCaptchaRequired(r);

        // a challenge that expired 5 s ago, genuinely solved, then spliced: refused
        byte[] key = Altcha.keyFor(secret.getBytes(StandardCharsets.UTF_8), String.valueOf(admin.realm(realm).get("id")), Altcha.SIGN_IN, 5000);
        String expired = null;
        while (expired == null) {
            expired = spliced(Altcha.challengeJson(key, 5000, System.currentTimeMillis() / 1000 - 5, RANDOM));
        }
        r = browser.submit(r.nextPage(), USER, PASSWORD, address, Map.of("altcha", expired));
        GateIt.assertCaptchaRequired(r);

        // the genuine solution of the page's challenge is still accepted, once
        String genuine = Altcha.solve(challengeJsonOf(r.body()));
        BrowserLogin.LoginResult in = browser.submit(r.nextPage(), USER, PASSWORD, address, Map.of("altcha", genuine));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
        BrowserLogin.LoginResult replay = server.newBrowser().login(realm, USER, PASSWORD, address, Map.of("altcha", genuine));
        GateIt.assertCaptchaRequired(replay);
    }

    // ------------------------------------------------------------------------------------------
    // 5. Bounded vendor verification

    @Test
    void bogus_vendor_tokens_from_one_address_make_at_most_the_budget_of_siteverify_calls_and_never_block() {
        try (SiteVerifyStub stub = SiteVerifyStub.start()) {
            String realm = realm("verify-budget", bandConfig("captcha.provider", "turnstile",
                    "captcha.siteKey", "site-key-0x4AAAAAAA", "captcha.secret", "turnstile-secret-" + UUID.randomUUID(),
                    "captcha.verifyUrl", stub.url(), "captcha.verifyBudget", "3"));
            String address = "198.51.100.172";
            BrowserLogin browser = server.newBrowser();
            BrowserLogin.LoginResult page = reachBand(browser, realm, address);

            List<String> bogus = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String token = "bad-" + UUID.randomUUID();
                bogus.add(token);
                page = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("cf-turnstile-response", token));
                GateIt.assertCaptchaRequired(page); // never blocked because of them
            }
            long calls = stub.received().stream().filter(req -> bogus.contains(req.token())).count();
            assertThat(calls).as("siteverify calls for 8 bogus tokens with a budget of 3").isEqualTo(3);

            // the budget is spent: even a good token from this address is not sent (and does not pass)
            String good = "ok-" + UUID.randomUUID();
            GateIt.assertCaptchaRequired(browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("cf-turnstile-response", good)));
            assertThat(stub.requestsWithToken(good)).isEmpty();

            // another address has its own budget
            String other = "198.51.100.173";
            BrowserLogin second = server.newBrowser();
            BrowserLogin.LoginResult band = reachBand(second, realm, other);
            String ok = "ok-" + UUID.randomUUID();
            BrowserLogin.LoginResult in = second.submit(band.nextPage(), USER, PASSWORD, other, Map.of("cf-turnstile-response", ok));
            assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
            assertThat(stub.requestsWithToken(ok)).hasSize(1);
        }
    }

    // ------------------------------------------------------------------------------------------
    // 3. No public fallback key

    /**
     * Keycloak 26.7.3 answers a realm without an active HMAC key by generating a random "fallback-HS512"
     * key provider (DefaultKeyManager#getActiveKey), so disabling the realm's HMAC providers through the
     * admin API leaves the gate keyed by that private key. What must hold: nothing the gate signs can be
     * forged from public data; an ALTCHA challenge signed with a key derived from a public label and the
     * realm id (what the gate used to fall back to) is refused, and the gate keeps working.
     */
    @Test
    void with_the_realms_hmac_providers_disabled_nothing_can_be_forged_from_public_data() throws Exception {
        String realm = realm("no-hmac", bandConfig("captcha.altcha.maxNumber", "5000", "deviceCookie.enabled", "true"));
        String realmId = (String) admin.realm(realm).get("id");
        String components = "/admin/realms/" + seg(realm) + "/components?parent=" + seg(realmId) + "&type=org.keycloak.keys.KeyProvider";
        int disabled = 0;
        for (Map<String, Object> k : admin.getList(components)) {
            if ("hmac-generated".equals(k.get("providerId"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> config = (Map<String, Object>) k.get("config");
                config.put("enabled", List.of("false"));
                config.put("active", List.of("false"));
                admin.put("/admin/realms/" + seg(realm) + "/components/" + seg((String) k.get("id")), k);
                disabled++;
            }
        }
        assertThat(disabled).as("HMAC key providers disabled").isPositive();

        BrowserLogin owner = server.newBrowser();
        BrowserLogin.LoginResult login = owner.login(realm, USER, PASSWORD, "198.51.100.174");
        assertThat(login.loginSucceeded()).as(login.toString()).isTrue();

        String address = "198.51.100.175";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);
        byte[] publicKey = Altcha.keyFor(sha256("keycloak-abuse-gate altcha key v1", realmId), realmId, Altcha.SIGN_IN, 5000);
        String forged = Altcha.solve(Altcha.challengeJson(publicKey, 5000, System.currentTimeMillis() / 1000 + 600, RANDOM));
        BrowserLogin.LoginResult r = browser.submit(page.nextPage(), USER, PASSWORD, address, Map.of("altcha", forged));
        GateIt.assertCaptchaRequired(r);

        JsonNode offered = JSON.readTree(challengeJsonOf(r.body()));
        assertThat(offered.path("salt").asText()).endsWith("&");
        BrowserLogin.LoginResult in = browser.submit(r.nextPage(), USER, PASSWORD, address,
                Map.of("altcha", Altcha.solve(offered.toString())));
        assertThat(in.loginSucceeded()).as("the gate works with Keycloak's generated key: %s", in).isTrue();
    }

    private static byte[] sha256(String label, String realmId) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(label.getBytes(StandardCharsets.UTF_8));
        return md.digest(realmId.getBytes(StandardCharsets.UTF_8));
    }
}
