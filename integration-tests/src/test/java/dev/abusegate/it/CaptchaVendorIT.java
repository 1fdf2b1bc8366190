package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.assertCaptchaRequired;
import static dev.abusegate.it.support.GateIt.reachCaptchaBand;
import static dev.abusegate.it.support.GateIt.showsWrongSolution;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.SiteVerifyStub;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Captcha, the third-party providers (Turnstile, hCaptcha, reCAPTCHA): the page their widget needs (script, site
 * key, CSP), what their siteverify answer does (accepted, rejected, replayed, slow, garbage), and their secret kept
 * out of pages, logs and the admin API. The vendor is a local siteverify stub in this JVM. ALTCHA is
 * {@link CaptchaAltchaIT}, the band {@link CaptchaBandIT}.
 *
 * <p>Each provider's realm: {@link GateIt#captchaBandConfig()} (attempts 1-3 free, then the captcha). Each test uses
 * its own X-Forwarded-For address.
 */
class CaptchaVendorIT extends ServerTest {

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

    /** Why the siteverify tests need the process backend. */
    private static final String SITEVERIFY_STUB_IS_LOCAL = "Keycloak calls the siteverify stub on the test machine's 127.0.0.1";

    private static SiteVerifyStub stub;
    private static final Map<String, String> providerRealm = new ConcurrentHashMap<>();
    private static final Map<String, String> providerSecret = new ConcurrentHashMap<>();

    @BeforeAll
    static void startStubAndImportRealms() {
        stub = SiteVerifyStub.start();
        for (String provider : PROVIDERS) {
            String secret = provider + "-secret-" + UUID.randomUUID();
            providerSecret.put(provider, secret);
            providerRealm.put(provider, importClassRealm(vendorRealm("captcha-" + provider, provider, secret)));
        }
    }

    @AfterAll
    static void stopStub() {
        if (stub != null) {
            stub.close();
        }
    }

    private static RealmBuilder vendorRealm(String prefix, String provider, String secret) {
        Map<String, String> config = GateIt.captchaBandConfig();
        config.put("captcha.provider", provider);
        config.put("captcha.siteKey", provider + "-site-key-0x4AAAAAAA");
        config.put("captcha.secret", secret);
        config.put("captcha.verifyUrl", stub.url());
        return RealmBuilder.unique(prefix).user(USER, PASSWORD)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config);
    }

    private static LoginResult submit(BrowserLogin browser, LoginResult page, String password, String address, Map<String, String> extra) {
        return browser.submit(page.nextPage(), USER, password, address, extra);
    }

    /** A browser from a fresh address at the captcha of a provider's realm (three free attempts made). */
    private record AtTheCaptcha(String provider, String realm, BrowserLogin browser, String address, LoginResult page) {
        /** Submits the form on {@code on} with the provider's widget field set to {@code token}. */
        LoginResult answer(LoginResult on, String password, String token) {
            return submit(browser, on, password, address, Map.of(FIELD.get(provider), token));
        }
    }

    private static AtTheCaptcha atTheCaptcha(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        return new AtTheCaptcha(provider, realm, browser, address, reachCaptchaBand(browser, realm, USER, address));
    }

    // ------------------------------------------------------------------------------------------
    // The captcha page

    @CrossVersion
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_captcha_page_loads_the_vendor_script_with_the_site_key_and_opens_the_csp_for_its_frames_only_there(String provider) {
        String realm = providerRealm.get(provider);
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();

        HttpResponse<String> normal = browser.rawGet(browser.authUrl(realm), address);
        assertThat(normal.statusCode()).isEqualTo(200);
        String normalCsp = normal.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(frameSrc(normalCsp)).as("normal login page CSP: %s", normalCsp).contains("'self'")
                .doesNotContainAnyElementsOf(FRAME_ORIGINS.get(provider));
        assertThat(normal.body()).doesNotContain(SCRIPT.get(provider));

        for (int i = 1; i <= 3; i++) {
            assertThat(browser.login(realm, USER, "wrong-" + i, address).status()).isEqualTo(200);
        }
        BrowserLogin.LoginResult form = browser.openLoginPage(realm, address);
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

    // ------------------------------------------------------------------------------------------
    // The vendor's siteverify answer

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_accepted_by_siteverify_passes_the_band_and_the_stub_gets_secret_token_and_client_address(String provider) {
        AtTheCaptcha at = atTheCaptcha(provider);
        LoginResult page = at.page();
        String token = "ok-" + UUID.randomUUID();

        LoginResult in = at.answer(page, PASSWORD, token);
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        assertThat(stub.requestsWithToken(token)).singleElement().satisfies(req -> {
            assertThat(req.method()).isEqualTo("POST");
            assertThat(req.contentType()).startsWith("application/x-www-form-urlencoded");
            assertThat(req.form()).containsEntry("secret", providerSecret.get(provider))
                    .containsEntry("response", token)
                    .containsEntry("remoteip", at.address());
        });
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_rejected_by_siteverify_is_challenged_again(String provider) {
        AtTheCaptcha at = atTheCaptcha(provider);
        LoginResult page = at.page();
        String token = "bad-" + UUID.randomUUID();

        LoginResult r = at.answer(page, PASSWORD, token);
        assertCaptchaRequired(r);
        assertThat(showsWrongSolution(r)).isTrue();
        assertThat(stub.requestsWithToken(token)).hasSize(1);
    }

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @ParameterizedTest
    @ValueSource(strings = {"turnstile", "hcaptcha", "recaptcha"})
    void vendor_token_is_accepted_only_once_even_when_the_vendor_would_accept_it_again(String provider) {
        AtTheCaptcha at = atTheCaptcha(provider);
        LoginResult page = at.page();
        String token = "ok-" + UUID.randomUUID();

        LoginResult first = at.answer(page, "still-wrong", token);
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.keycloakError()).contains("Invalid username or password.");

        LoginResult replay = at.answer(first, PASSWORD, token);
        assertCaptchaRequired(replay);
        assertThat(showsWrongSolution(replay)).isTrue();
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
        AtTheCaptcha at = atTheCaptcha(provider);
        LoginResult page = at.page();
        long mark = server.logMark();
        String token = tokenPrefix + UUID.randomUUID();

        long t0 = System.nanoTime();
        LoginResult r = at.answer(page, PASSWORD, token);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertCaptchaRequired(r); // 429, not 500, not a login
        assertThat(showsWrongSolution(r)).isTrue();
        assertThat(stub.requestsWithToken(token)).hasSize(1);
        if (tokenPrefix.equals("slow-")) {
            assertThat(took).as("the gate gives up after its 5 s timeout").isLessThan(Duration.ofMillis(SiteVerifyStub.SLOW_MILLIS));
        }

        String kind = tokenPrefix.equals("slow-") ? "unreachable" : "unexpected reply";
        GateIt.awaitValue("a WARN naming the provider " + provider + ", realm " + at.realm() + " and '" + kind + "'",
                Duration.ofSeconds(10), () -> server.logTextSince(mark).lines().filter(l -> l.contains(" WARN ")
                        && l.contains("[dev.abusegate") && l.contains(provider) && l.contains(at.realm()) && l.contains(kind)).findFirst(),
                () -> "log since mark:\n" + server.logTextSince(mark));
        String secret = providerSecret.get(provider);
        assertThat(r.body()).doesNotContain(secret);
        assertThat(page.body()).doesNotContain(secret);
        assertThat(server.logText()).doesNotContain(secret);
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------
    // The secret in the admin API

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @Test
    void admin_api_masks_the_captcha_secret_and_saving_the_masked_config_back_keeps_the_real_secret() {
        String secret = "turnstile-secret-" + UUID.randomUUID();
        String realm = importRealm(vendorRealm("captcha-admin", "turnstile", secret));
        String configId = admin.executions(realm, RealmBuilder.GATED_BROWSER_FLOW).stream()
                .filter(e -> GateIt.USERNAME_PASSWORD_FORM.equals(e.getProviderId()))
                .map(e -> e.getAuthenticationConfig())
                .findFirst().orElseThrow();
        String path = "/admin/realms/" + AdminClient.seg(realm) + "/authentication/config/" + AdminClient.seg(configId);
        AdminClient.Response r = admin.expectSuccess("GET", path, null);
        Map<String, Object> representation = r.jsonMap();
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) representation.get("config");
        assertThat(config).as("the config was stored").containsEntry("captcha.provider", "turnstile");
        assertThat(r.body()).as("GET authentication/config/%s: %s", configId, r.body()).doesNotContain(secret);
        System.out.println("[CaptchaVendorIT] admin GET shows captcha.secret as: " + config.get("captcha.secret"));

        // the admin console saves what it was shown: the masked value must not replace the real secret
        admin.expectSuccess("PUT", path, representation);
        assertThat(admin.expectSuccess("GET", path, null).body()).doesNotContain(secret);
        BrowserLogin browser = server.newBrowser();
        String address = GateIt.freshAddress();
        LoginResult page = reachCaptchaBand(browser, realm, USER, address);
        String token = "ok-" + UUID.randomUUID();
        LoginResult in = submit(browser, page, PASSWORD, address, Map.of("cf-turnstile-response", token));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
        assertThat(stub.requestsWithToken(token)).singleElement()
                .satisfies(req -> assertThat(req.form()).containsEntry("secret", secret));
    }

    // ------------------------------------------------------------------------------------------
    // The verification budget

    @ProcessBackendOnly(SITEVERIFY_STUB_IS_LOCAL)
    @Test
    void bogus_vendor_tokens_from_one_address_make_at_most_the_budget_of_siteverify_calls_and_never_block() {
        String realm = importRealm(RealmBuilder.unique("verify-budget").user(USER, PASSWORD)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, GateIt.captchaBandConfig("captcha.provider", "turnstile",
                        "captcha.siteKey", "site-key-0x4AAAAAAA", "captcha.secret", "turnstile-secret-" + UUID.randomUUID(),
                        "captcha.verifyUrl", stub.url(), "captcha.verifyBudget", "3")));
        String address = "198.51.100.172";
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = GateIt.reachCaptchaBand(browser, realm, USER, address);

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
        BrowserLogin.LoginResult band = GateIt.reachCaptchaBand(second, realm, USER, other);
        String ok = "ok-" + UUID.randomUUID();
        BrowserLogin.LoginResult in = second.submit(band.nextPage(), USER, PASSWORD, other, Map.of("cf-turnstile-response", ok));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();
        assertThat(stub.requestsWithToken(ok)).hasSize(1);
    }
}
