package dev.abusegate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abusegate.captcha.Altcha;
import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.SiteVerifyStub;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The captcha step at HTTP level against the real server: ALTCHA (challenge from the page, solved with
 * the Java solver, verified by the server; expiry, replay, foreign signature) and the third-party
 * providers (Turnstile, hCaptcha, reCAPTCHA) against a local siteverify stub in this JVM.
 *
 * <p>Every realm: per address+account threshold 6 and captcha factor 0.5 (attempts 1-3 free, then the
 * captcha band), the other layers out of the way. Each test uses its own X-Forwarded-For address.
 */
class CaptchaIT {

    private static final String USER = "alice";
    private static final String PASSWORD = "alice-Secret-1";
    private static final List<String> PROVIDERS = List.of("turnstile", "hcaptcha", "recaptcha");
    /** The field each vendor's widget fills in, and what the page must load / allow. */
    private static final Map<String, String> FIELD = Map.of(
            "turnstile", "cf-turnstile-response", "hcaptcha", "h-captcha-response", "recaptcha", "g-recaptcha-response");
    private static final Map<String, String> SCRIPT = Map.of(
            "turnstile", "https://challenges.cloudflare.com/turnstile/v0/api.js",
            "hcaptcha", "https://js.hcaptcha.com/1/api.js",
            "recaptcha", "https://www.google.com/recaptcha/api.js");
    /** Where each vendor's widget frames come from (its documentation's CSP advice). */
    private static final Map<String, List<String>> FRAME_ORIGINS = Map.of(
            "turnstile", List.of("https://challenges.cloudflare.com"),
            "hcaptcha", List.of("https://hcaptcha.com", "https://*.hcaptcha.com"),
            "recaptcha", List.of("https://www.google.com", "https://www.recaptcha.net", "https://recaptcha.google.com"));
    private static final Pattern ALTCHA_WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");
    private static final Pattern CHALLENGE_JSON = Pattern.compile("\\schallengejson=\"([^\"]*)\"");
    private static final Pattern SCRIPT_SRC = Pattern.compile("<script\\b[^>]*\\ssrc=\"([^\"]*)\"");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger NEXT_ADDRESS = new AtomicInteger(1);

    /** Why the vendor tests need the process backend. */
    private static final String SITEVERIFY_STUB_IS_LOCAL = "Keycloak calls the siteverify stub on the test machine's 127.0.0.1";

    private static KeycloakServer server;
    private static AdminClient admin;
    private static SiteVerifyStub stub;
    private static String altchaRealm;
    private static final String ALTCHA_SECRET = "altcha-hmac-" + UUID.randomUUID();
    private static final Map<String, String> providerRealm = new ConcurrentHashMap<>();
    private static final Map<String, String> providerSecret = new ConcurrentHashMap<>();

    @BeforeAll
    static void startStubAndImportRealms() {
        server = KeycloakServer.shared();
        admin = server.admin();
        stub = SiteVerifyStub.start();
        Map<String, String> altcha = gateConfig();
        altcha.put("captcha.secret", ALTCHA_SECRET);
        altcha.put("captcha.altcha.maxNumber", "5000");
        altchaRealm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("captcha-altcha"))
                .user(USER, PASSWORD)
                .gatedBrowserFlow("abuse-gate-username-password-form", altcha));
        for (String provider : PROVIDERS) {
            String secret = provider + "-secret-" + UUID.randomUUID();
            Map<String, String> cfg = gateConfig();
            cfg.put("captcha.provider", provider);
            cfg.put("captcha.siteKey", provider + "-site-key-0x4AAAAAAA");
            cfg.put("captcha.secret", secret);
            cfg.put("captcha.verifyUrl", stub.url());
            providerSecret.put(provider, secret);
            providerRealm.put(provider, admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("captcha-" + provider))
                    .user(USER, PASSWORD)
                    .gatedBrowserFlow("abuse-gate-username-password-form", cfg)));
        }
    }

    @AfterAll
    static void cleanUp() {
        if (admin != null) {
            if (altchaRealm != null) {
                admin.deleteRealm(altchaRealm);
            }
            providerRealm.values().forEach(admin::deleteRealm);
        }
        if (stub != null) {
            stub.close();
        }
    }

    private static Map<String, String> gateConfig() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("perIp.threshold", "1000");
        c.put("perIpAccount.threshold", "6");
        c.put("accountLockout.threshold", "1000");
        c.put("credentialStuffing.threshold", "1000");
        c.put("captcha.enabled", "true");
        c.put("captcha.factor", "0.5");
        return c;
    }

    /** A fresh documentation-range client address for one test. */
    private static String nextAddress() {
        int n = NEXT_ADDRESS.getAndIncrement();
        assertThat(n).isLessThan(255);
        return "198.51.100." + n;
    }

    /** Three free wrong attempts, then the fourth is answered with the captcha: that answer. */
    private static BrowserLogin.LoginResult reachBand(BrowserLogin browser, String realm, String address) {
        for (int i = 1; i <= 3; i++) {
            BrowserLogin.LoginResult free = browser.login(realm, USER, "wrong-" + i, address);
            assertThat(free.status()).as("free attempt %d: %s", i, free).isEqualTo(200);
            assertThat(free.gateCode()).as("free attempt %d", i).isEmpty();
            assertThat(free.keycloakError()).contains("Invalid username or password.");
        }
        BrowserLogin.LoginResult r = browser.login(realm, USER, "wrong-4", address);
        GateIt.assertCaptchaRequired(r);
        return r;
    }


    /** The key the gate signs a realm's sign-in challenges with, from the configured secret (see Altcha#keyFor). */
    private static byte[] altchaKey(String realm) {
        return Altcha.keyFor(ALTCHA_SECRET.getBytes(StandardCharsets.UTF_8), String.valueOf(admin.realm(realm).get("id")), Altcha.SIGN_IN, 5000);
    }

    private static boolean showsCaptchaError(BrowserLogin.LoginResult r) {
        return BrowserLogin.attributeOfElement(r.body(), "abuse-gate-captcha-error", "role").filter("alert"::equals).isPresent();
    }

    private static String challengeJsonOf(String html) {
        Matcher w = ALTCHA_WIDGET.matcher(html);
        assertThat(w.find()).as("an <altcha-widget> on the page").isTrue();
        Matcher c = CHALLENGE_JSON.matcher(w.group());
        assertThat(c.find()).as("challengejson on the widget: %s", w.group()).isTrue();
        return BrowserLogin.unescape(c.group(1));
    }

    private static BrowserLogin.LoginResult submit(BrowserLogin browser, BrowserLogin.LoginResult page, String password,
                                                   String address, Map<String, String> extra) {
        return browser.submit(page.nextPage(), USER, password, address, extra);
    }

    // ------------------------------------------------------------------------------------------
    // ALTCHA

    @CrossVersion
    @Test
    void altcha_challenge_from_the_page_solved_in_java_is_verified_by_the_server_and_lets_the_right_password_in() throws Exception {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);

        assertThat(BrowserLogin.attributeOfElement(page.body(), "abuse-gate-captcha", "data-provider")).contains("altcha");
        assertThat(BrowserLogin.attributeOfElement(page.body(), "username", "value")).contains(USER);
        String challengeJson = challengeJsonOf(page.body());
        JsonNode challenge = JSON.readTree(challengeJson);
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

        String payload = Altcha.solve(challengeJson);
        assertThat(payload).isNotNull();
        BrowserLogin.LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", payload));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        Map<String, Object> event = admin.awaitEvent(altchaRealm, e -> address.equals(e.get("ipAddress"))
                && "abuse_gate_captcha_required".equals(e.get("error")), Duration.ofSeconds(10), "LOGIN_ERROR");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) event.get("details");
        assertThat(details).containsEntry("abuse_gate_layer", "per_ip_account");
        admin.awaitEvent(altchaRealm, e -> address.equals(e.get("ipAddress")), Duration.ofSeconds(10), "LOGIN");
    }

    @Test
    void missing_or_garbage_altcha_solution_is_challenged_again_and_never_escalates_to_blocked() {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);
        assertThat(showsCaptchaError(page)).as("no error before anything was submitted").isFalse();

        // far more unsolved attempts than the threshold (6): the band counts nothing
        for (int i = 0; i < 4; i++) {
            page = submit(browser, page, PASSWORD, address, Map.of());
            GateIt.assertCaptchaRequired(page);
            assertThat(showsCaptchaError(page)).as("nothing submitted: no 'wrong solution' message").isFalse();
        }
        for (String garbage : List.of("garbage", "eyJhbGdvcml0aG0iOiJTSEEtMjU2In0=", "%%%")) {
            page = submit(browser, page, PASSWORD, address, Map.of("altcha", garbage));
            GateIt.assertCaptchaRequired(page);
            assertThat(showsCaptchaError(page)).as("garbage solution %s is reported as wrong", garbage).isTrue();
        }
        // and a real solution still works afterwards
        BrowserLogin.LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", Altcha.solve(challengeJsonOf(page.body()))));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
    }

    @Test
    void an_altcha_solution_is_accepted_once_in_its_own_realm_and_never_in_another_sharing_the_secret() {
        Map<String, String> shared = gateConfig();
        shared.put("captcha.secret", ALTCHA_SECRET);
        shared.put("captcha.altcha.maxNumber", "5000");
        String t4 = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("captcha-altcha-t4")).user(USER, PASSWORD)
                .gatedBrowserFlow("abuse-gate-username-password-form", shared));
        try {
            String address = nextAddress();
            BrowserLogin browser = server.newBrowser();
            String payload = Altcha.solve(challengeJsonOf(reachBand(browser, altchaRealm, address).body()));
            // the other realm, in its band for the same address, refuses the solution (before and after its use)
            BrowserLogin elsewhere = server.newBrowser();
            BrowserLogin.LoginResult band = reachBand(elsewhere, t4, address);
            BrowserLogin.LoginResult before = submit(elsewhere, band, PASSWORD, address, Map.of("altcha", payload));
            GateIt.assertCaptchaRequired(before);
            assertThat(showsCaptchaError(before)).isTrue();

            BrowserLogin.LoginResult own = browser.login(altchaRealm, USER, PASSWORD, address, Map.of("altcha", payload));
            assertThat(own.loginSucceeded()).as("accepted in the realm that issued it: %s", own).isTrue();
            BrowserLogin.LoginResult again = server.newBrowser().login(altchaRealm, USER, PASSWORD, address, Map.of("altcha", payload));
            GateIt.assertCaptchaRequired(again);

            BrowserLogin.LoginResult after = submit(elsewhere, before, PASSWORD, address, Map.of("altcha", payload));
            GateIt.assertCaptchaRequired(after);
            // t4's own challenge still lets the right password in there
            BrowserLogin.LoginResult in = submit(elsewhere, after, PASSWORD, address, Map.of("altcha", Altcha.solve(challengeJsonOf(after.body()))));
            assertThat(in.loginSucceeded()).as("control: t4's own challenge: %s", in).isTrue();
        } finally {
            admin.deleteRealm(t4);
        }
    }

    @Test
    void replayed_altcha_solution_is_challenged_again() {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);
        String payload = Altcha.solve(challengeJsonOf(page.body()));

        BrowserLogin.LoginResult first = submit(browser, page, "still-wrong", address, Map.of("altcha", payload));
        assertThat(first.status()).as("solved captcha passes the band: %s", first).isEqualTo(200);
        assertThat(first.gateCode()).isEmpty();
        assertThat(first.keycloakError()).contains("Invalid username or password.");

        BrowserLogin.LoginResult replay = submit(browser, first, PASSWORD, address, Map.of("altcha", payload));
        GateIt.assertCaptchaRequired(replay);
        assertThat(showsCaptchaError(replay)).isTrue();

        // from another browser (another session) the same payload is refused as well
        BrowserLogin other = server.newBrowser();
        BrowserLogin.LoginResult elsewhere = other.login(altchaRealm, USER, PASSWORD, address, Map.of("altcha", payload));
        GateIt.assertCaptchaRequired(elsewhere);
    }

    @Test
    void challenge_signed_by_the_test_with_the_configured_secret_is_accepted() {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);
        String own = Altcha.challengeJson(altchaKey(altchaRealm), 5000,
                System.currentTimeMillis() / 1000 + 600, RANDOM);
        BrowserLogin.LoginResult in = submit(browser, page, PASSWORD, address, Map.of("altcha", Altcha.solve(own)));
        assertThat(in.loginSucceeded()).as("control: a self-signed, unexpired challenge passes: %s", in).isTrue();
    }

    @Test
    void expired_altcha_challenge_is_challenged_again() throws Exception {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);
        byte[] key = altchaKey(altchaRealm);

        String past = Altcha.challengeJson(key, 5000, System.currentTimeMillis() / 1000 - 5, RANDOM);
        BrowserLogin.LoginResult r = submit(browser, page, PASSWORD, address, Map.of("altcha", Altcha.solve(past)));
        GateIt.assertCaptchaRequired(r);
        assertThat(showsCaptchaError(r)).isTrue();

        // solved while valid, submitted after its expiry
        long expires = System.currentTimeMillis() / 1000 + 2;
        String soon = Altcha.challengeJson(key, 5000, expires, RANDOM);
        String payload = Altcha.solve(soon);
        assertThat(Altcha.verify(key, 5000, payload, System.currentTimeMillis() / 1000).ok()).as("valid when solved").isTrue();
        while (System.currentTimeMillis() / 1000 <= expires) {
            Thread.sleep(250); // let the 2 s lifetime run out
        }
        r = submit(browser, r, PASSWORD, address, Map.of("altcha", payload));
        GateIt.assertCaptchaRequired(r);
        assertThat(showsCaptchaError(r)).isTrue();
    }

    @Test
    void altcha_solution_signed_with_another_key_is_challenged_again() {
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, altchaRealm, address);
        String foreign = Altcha.challengeJson(("not-" + ALTCHA_SECRET).getBytes(StandardCharsets.UTF_8), 5000,
                System.currentTimeMillis() / 1000 + 600, RANDOM);
        BrowserLogin.LoginResult r = submit(browser, page, PASSWORD, address, Map.of("altcha", Altcha.solve(foreign)));
        GateIt.assertCaptchaRequired(r);
        assertThat(showsCaptchaError(r)).isTrue();
        assertThat(r.body()).doesNotContain(ALTCHA_SECRET);
        assertThat(server.logText()).doesNotContain(ALTCHA_SECRET);
    }

    // ------------------------------------------------------------------------------------------
    // Turnstile, hCaptcha, reCAPTCHA against the local siteverify stub

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_accepted_by_siteverify_passes_the_band_and_the_stub_gets_secret_token_and_client_address(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);
        String token = "ok-" + UUID.randomUUID();

        BrowserLogin.LoginResult in = submit(browser, page, PASSWORD, address, Map.of(FIELD.get(provider), token));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        assertThat(stub.requestsWithToken(token)).singleElement().satisfies(req -> {
            assertThat(req.method()).isEqualTo("POST");
            assertThat(req.contentType()).startsWith("application/x-www-form-urlencoded");
            assertThat(req.form()).containsEntry("secret", providerSecret.get(provider))
                    .containsEntry("response", token)
                    .containsEntry("remoteip", address);
        });
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_rejected_by_siteverify_is_challenged_again(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);
        String token = "bad-" + UUID.randomUUID();

        BrowserLogin.LoginResult r = submit(browser, page, PASSWORD, address, Map.of(FIELD.get(provider), token));
        GateIt.assertCaptchaRequired(r);
        assertThat(showsCaptchaError(r)).isTrue();
        assertThat(stub.requestsWithToken(token)).hasSize(1);
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_is_accepted_only_once_even_when_the_vendor_would_accept_it_again(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);
        String token = "ok-" + UUID.randomUUID();

        BrowserLogin.LoginResult first = submit(browser, page, "still-wrong", address, Map.of(FIELD.get(provider), token));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.keycloakError()).contains("Invalid username or password.");

        BrowserLogin.LoginResult replay = submit(browser, first, PASSWORD, address, Map.of(FIELD.get(provider), token));
        GateIt.assertCaptchaRequired(replay);
        assertThat(showsCaptchaError(replay)).isTrue();
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_timeout_counts_as_unsolved_with_a_warning_and_no_secret_in_log_or_page(String provider) {
        assertVendorTroubleIsUnsolved(provider, "slow-");
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_garbage_reply_counts_as_unsolved_with_a_warning_and_no_secret_in_log_or_page(String provider) {
        assertVendorTroubleIsUnsolved(provider, "html-");
    }

    private void assertVendorTroubleIsUnsolved(String provider, String tokenPrefix) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();
        BrowserLogin.LoginResult page = reachBand(browser, realm, address);
        long mark = server.logMark();
        String token = tokenPrefix + UUID.randomUUID();

        long t0 = System.nanoTime();
        BrowserLogin.LoginResult r = submit(browser, page, PASSWORD, address, Map.of(FIELD.get(provider), token));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        GateIt.assertCaptchaRequired(r); // 429, not 500, not a login
        assertThat(showsCaptchaError(r)).isTrue();
        assertThat(stub.requestsWithToken(token)).hasSize(1);
        if (tokenPrefix.equals("slow-")) {
            assertThat(took).as("the gate gives up after its 5 s timeout").isLessThan(Duration.ofMillis(SiteVerifyStub.SLOW_MILLIS));
        }

        String kind = tokenPrefix.equals("slow-") ? "unreachable" : "unexpected reply";
        String warning = awaitLog(mark, l -> l.contains(" WARN ") && l.contains("[dev.abusegate") && l.contains(provider)
                && l.contains(realm) && l.contains(kind), Duration.ofSeconds(10));
        assertThat(warning).as("a WARN naming the provider %s, realm %s and '%s'; log since mark:\n%s", provider, realm, kind,
                server.logTextSince(mark)).isNotNull();
        String secret = providerSecret.get(provider);
        assertThat(r.body()).doesNotContain(secret);
        assertThat(page.body()).doesNotContain(secret);
        assertThat(server.logText()).doesNotContain(secret);
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }

    private static String awaitLog(long mark, java.util.function.Predicate<String> line, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            Optional<String> hit = server.logTextSince(mark).lines().filter(line).findFirst();
            if (hit.isPresent()) {
                return hit.get();
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        } while (System.nanoTime() < deadline);
        return null;
    }

    @CrossVersion
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_captcha_page_loads_the_vendor_script_with_the_site_key_and_opens_the_csp_for_its_frames_only_there(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = nextAddress();

        HttpResponse<String> normal = browser.rawGet(browser.authUrl(realm), address);
        assertThat(normal.statusCode()).isEqualTo(200);
        String normalCsp = normal.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(frameSrc(normalCsp)).as("normal login page CSP: %s", normalCsp).contains("'self'")
                .doesNotContainAnyElementsOf(FRAME_ORIGINS.get(provider));
        assertThat(normal.body()).doesNotContain(SCRIPT.get(provider));

        for (int i = 1; i <= 3; i++) {
            assertThat(browser.login(realm, USER, "wrong-" + i, address).status()).isEqualTo(200);
        }
        BrowserLogin.LoginPage form = browser.openLoginPage(realm, address);
        HttpResponse<String> captcha = browser.rawPost(form.requireFormAction(),
                Map.of("username", USER, "password", "wrong-4", "credentialId", ""), address);
        assertThat(captcha.statusCode()).isEqualTo(429);
        assertThat(BrowserLogin.attributeOfElement(captcha.body(), "abuse-gate-status", "data-code")).contains("captcha_required");
        assertThat(BrowserLogin.attributeOfElement(captcha.body(), "abuse-gate-captcha", "data-provider")).contains(provider);
        String csp = captcha.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(frameSrc(csp)).as("captcha page CSP: %s", csp).contains("'self'").containsAll(FRAME_ORIGINS.get(provider));
        assertThat(captcha.body()).contains("src=\"" + SCRIPT.get(provider) + "\"");
        assertThat(captcha.body()).contains("data-sitekey=\"" + provider + "-site-key-0x4AAAAAAA\"");
        assertThat(captcha.body()).doesNotContain(providerSecret.get(provider));
    }

    /** The sources of the frame-src directive of a CSP header. */
    private static List<String> frameSrc(String csp) {
        for (String directive : csp.split(";")) {
            String d = directive.trim();
            if (d.startsWith("frame-src ")) {
                return List.of(d.substring("frame-src ".length()).trim().split("\\s+"));
            }
        }
        return List.of();
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @Test
    void admin_api_masks_the_captcha_secret_and_saving_the_masked_config_back_keeps_the_real_secret() {
        String secret = "turnstile-secret-" + UUID.randomUUID();
        Map<String, String> cfg = gateConfig();
        cfg.put("captcha.provider", "turnstile");
        cfg.put("captcha.siteKey", "turnstile-site-key-0x4AAAAAAA");
        cfg.put("captcha.secret", secret);
        cfg.put("captcha.verifyUrl", stub.url());
        String realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("captcha-admin"))
                .user(USER, PASSWORD)
                .gatedBrowserFlow("abuse-gate-username-password-form", cfg));
        try {
            String configId = admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW).stream()
                    .filter(e -> "abuse-gate-username-password-form".equals(e.get("providerId")))
                    .map(e -> (String) e.get("authenticationConfig"))
                    .findFirst().orElseThrow();
            String path = "/admin/realms/" + AdminClient.seg(realm) + "/authentication/config/" + AdminClient.seg(configId);
            AdminClient.Response r = admin.expectSuccess("GET", path, null);
            Map<String, Object> representation = r.jsonMap();
            @SuppressWarnings("unchecked")
            Map<String, Object> config = (Map<String, Object>) representation.get("config");
            assertThat(config).as("the config was stored").containsEntry("captcha.provider", "turnstile");
            assertThat(r.body()).as("GET authentication/config/%s: %s", configId, r.body()).doesNotContain(secret);
            System.out.println("[CaptchaIT] admin GET shows captcha.secret as: " + config.get("captcha.secret"));

            // the admin console saves what it was shown: the masked value must not replace the real secret
            admin.expectSuccess("PUT", path, representation);
            assertThat(admin.expectSuccess("GET", path, null).body()).doesNotContain(secret);
            BrowserLogin browser = server.newBrowser();
            String address = nextAddress();
            BrowserLogin.LoginResult page = reachBand(browser, realm, address);
            String token = "ok-" + UUID.randomUUID();
            BrowserLogin.LoginResult in = submit(browser, page, PASSWORD, address, Map.of("cf-turnstile-response", token));
            assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
            assertThat(stub.requestsWithToken(token)).singleElement()
                    .satisfies(req -> assertThat(req.form()).containsEntry("secret", secret));
        } finally {
            admin.deleteRealm(realm);
        }
    }
}
