package dev.abusegate.it;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Metrics;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.resource.AttackDetectionResource;
import org.keycloak.representations.idm.EventRepresentation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.abusegate.it.support.GateIt.assertBlocked;
import static dev.abusegate.it.support.GateIt.quietConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a blocked client, an operator and Keycloak itself see of a gate answer on the browser form: the
 * 429 page (uniform, escaped, localized), the events and metrics, Keycloak's own brute-force detection
 * left alone, and counters kept per realm.
 */
class BrowserGateAnswerIT extends ServerTest {

    private static final String PW = "Secret-pw-1";
    private static final Duration EVENT_WAIT = Duration.ofSeconds(15);


    private String realm(RealmBuilder b) {
        return importRealm(b);
    }

    private static RealmBuilder users(String prefix, String... usernames) {
        RealmBuilder b = RealmBuilder.unique(prefix);
        for (String u : usernames) {
            b.user(u, PW);
        }
        return b;
    }

    private static void assertNotGated(LoginResult r) {
        assertThat(r.status()).as(r.toString()).isNotEqualTo(429);
        assertThat(r.gateCode()).as(r.toString()).isEmpty();
    }

    /** A blocked answer and what we expect to know about it from the events only. */
    private record Blocked(String label, String address, String typed, String layer, LoginResult result) {
    }

    @CrossVersion
    @Test
    void blocked_page_is_identical_for_every_layer_and_for_known_and_unknown_accounts() {
        String realm = realm(users("answer", "alice", "bob", "carol")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, quietConfig(
                        "perIp.threshold", "4",
                        "perIpAccount.threshold", "2",
                        "accountLockout.threshold", "2",
                        "accountLockout.lockoutSeconds", "600",
                        "credentialStuffing.threshold", "3")));
        List<Blocked> blocked = new ArrayList<>();

        // layer 1, known account: four logins from one address over two accounts, then the right password
        String a1 = "198.51.100.1";
        for (String u : List.of("alice", "alice", "bob", "bob")) {
            assertThat(attempt(realm, u, PW, a1).loginSucceeded()).isTrue();
        }
        blocked.add(new Blocked("layer 1, known", a1, "alice", "per_ip", attempt(realm, "alice", PW, a1)));

        // layer 2, known and unknown account
        String a2 = "198.51.100.2";
        assertThat(attempt(realm, "bob", PW, a2).loginSucceeded()).isTrue();
        assertThat(attempt(realm, "bob", PW, a2).loginSucceeded()).isTrue();
        blocked.add(new Blocked("layer 2, known", a2, "bob", "per_ip_account", attempt(realm, "bob", PW, a2)));
        String a3 = "198.51.100.3";
        assertNotGated(attempt(realm, "ghost", "wrong", a3));
        assertNotGated(attempt(realm, "ghost", "wrong", a3));
        blocked.add(new Blocked("layer 2, unknown", a3, "ghost", "per_ip_account", attempt(realm, "ghost", "wrong", a3)));

        // layer 3, known and unknown account: two failures from two addresses, then a third address
        assertNotGated(attempt(realm, "carol", "wrong", "198.51.100.4"));
        assertNotGated(attempt(realm, "carol", "wrong", "198.51.100.5"));
        blocked.add(new Blocked("layer 3, known", "198.51.100.6", "carol", "account_lockout",
                attempt(realm, "carol", PW, "198.51.100.6")));
        assertNotGated(attempt(realm, "phantom", "wrong", "198.51.100.7"));
        assertNotGated(attempt(realm, "phantom", "wrong", "198.51.100.8"));
        blocked.add(new Blocked("layer 3, unknown", "198.51.100.9", "phantom", "account_lockout",
                attempt(realm, "phantom", "wrong", "198.51.100.9")));

        // layer 4, with a username that must be escaped in the page
        String a10 = "198.51.100.10";
        for (String u : List.of("u-1", "u-2", "u-3")) {
            assertNotGated(attempt(realm, u, "wrong", a10));
        }
        String hostile = "<b>x\"";
        blocked.add(new Blocked("layer 4, unknown, markup in the username", a10, hostile, "credential_stuffing",
                attempt(realm, hostile, "wrong", a10)));

        LoginResult reference = blocked.get(0).result();
        String message = GateIt.messages("en").getProperty("abuseGateBlocked");
        for (Blocked b : blocked) {
            LoginResult r = b.result();
            assertBlocked(r);
            assertThat(r.status()).as(b.label()).isEqualTo(reference.status());
            assertThat(r.gateCode()).as(b.label()).isEqualTo(reference.gateCode());
            assertThat(r.gateMessage()).as(b.label()).contains(message).isEqualTo(reference.gateMessage());
            assertThat(BrowserLogin.attributeOfElement(r.body(), "abuse-gate-status", "role")).as(b.label()).contains("alert");
            // never names the layer
            assertThat(r.body()).as(b.label())
                    .doesNotContain("per_ip").doesNotContain("account_lockout").doesNotContain("credential_stuffing")
                    .doesNotContain("abuse_gate_layer");
            // keeps the typed username in the form (HTML-escaped in the markup)
            assertThat(BrowserLogin.attributeOfElement(r.body(), "username", "value")).as(b.label()).contains(b.typed());
            // the form can be submitted again in the same authentication session
            assertThat(r.nextPage().formAction()).as(b.label()).isNotNull();
        }
        LoginResult hostileResult = blocked.get(blocked.size() - 1).result();
        assertThat(hostileResult.body()).doesNotContain(hostile).doesNotContain("<b>x");

        // the events prove each answer above came from the layer we meant (the page must not tell)
        List<EventRepresentation> events = admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked");
        for (Blocked b : blocked) {
            assertThat(events).as(b.label())
                    .anyMatch(e -> b.address().equals(e.getIpAddress()) && b.layer().equals(details(e).get("abuse_gate_layer")));
        }
    }

    @Test
    void refusals_past_the_realms_event_budget_leave_no_login_error_of_the_gate_or_of_keycloak_but_are_counted()
            throws Exception {
        String realm = realm(users("evt-budget", "alice").gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM,
                quietConfig("perIp.threshold", "1", "events.refusalsPerMinute", "2")));
        String address = "203.0.113.78";
        Map<String, String> blockedLabels = Map.of("realm", realm, "outcome", "blocked");
        double before = server.metricValue("abuse_gate_decisions_total", blockedLabels);
        assertThat(attempt(realm, "alice", PW, address).loginSucceeded()).isTrue();
        for (int i = 0; i < 5; i++) {
            assertBlocked(attempt(realm, "alice", PW, address));
        }
        assertThat(server.metricValue("abuse_gate_decisions_total", blockedLabels) - before).isEqualTo(5.0);
        admin.awaitEvent(realm, e -> "abuse_gate_blocked".equals(e.getError()), EVENT_WAIT, "LOGIN_ERROR");
        GateIt.await("2 LOGIN_ERROR events", EVENT_WAIT, () -> admin.events(realm, "LOGIN_ERROR").size() >= 2);
        Thread.sleep(1_000);
        assertThat(admin.events(realm, "LOGIN_ERROR")).as("the budget's 2; the 3 past it leave no event of any kind")
                .hasSize(2)
                .allSatisfy(e -> assertThat(e.getError()).isEqualTo("abuse_gate_blocked"));
    }

    private static Map<String, String> details(EventRepresentation event) {
        return event.getDetails() == null ? Map.of() : event.getDetails();
    }

    @CrossVersion
    @Test
    void a_gate_answer_is_a_login_error_event_and_a_metric_without_username_or_address() {
        String realm = realm(users("evt").gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM,
                quietConfig("perIp.threshold", "2", "captcha.enabled", "true")));
        String address = "203.0.113.77";
        String user = "probe-user-q7";
        Map<String, String> blockedLabels = Map.of("realm", realm, "outcome", "blocked", "layer", "per_ip");
        Map<String, String> captchaLabels = Map.of("realm", realm, "outcome", "captcha_required", "layer", "per_ip");
        double blockedBefore = server.metricValue("abuse_gate_decisions_total", blockedLabels);
        double captchaBefore = server.metricValue("abuse_gate_decisions_total", captchaLabels);

        assertNotGated(attempt(realm, user, "wrong", address));
        // the band of layer 1 (1 of 2): a captcha is asked for; solving it lets the 2nd attempt through
        BrowserLogin browser = server.newBrowser();
        LoginResult band = browser.login(realm, user, "wrong", address);
        assertThat(band.gateCode()).as(band.toString()).contains("captcha_required");
        LoginResult solved = browser.submit(band.nextPage(), user, "wrong", address, Map.of("altcha", solve(band)));
        assertNotGated(solved);
        // the 3rd attempt from the address is past the threshold (same authentication session, which has now
        // been through Keycloak's own password check with this username)
        assertBlocked(browser.submit(solved.nextPage(), user, "wrong", address, Map.of()));

        EventRepresentation blockedEvent = admin.awaitEvent(realm, e -> "abuse_gate_blocked".equals(e.getError()),
                EVENT_WAIT, "LOGIN_ERROR");
        assertThat(blockedEvent.getType()).isEqualTo("LOGIN_ERROR");
        assertThat(blockedEvent.getIpAddress()).isEqualTo(address);
        assertThat(details(blockedEvent)).containsEntry("abuse_gate_layer", "per_ip")
                .containsEntry("abuse_gate_outcome", "blocked")
                .doesNotContainKey("username");
        assertThat(blockedEvent.getUserId()).isNull();
        EventRepresentation captchaEvent = admin.awaitEvent(realm, e -> "abuse_gate_captcha_required".equals(e.getError()),
                EVENT_WAIT, "LOGIN_ERROR");
        assertThat(captchaEvent.getIpAddress()).isEqualTo(address);
        assertThat(details(captchaEvent)).containsEntry("abuse_gate_layer", "per_ip")
                .containsEntry("abuse_gate_outcome", "captcha_required")
                .doesNotContainKey("username");
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")).hasSize(1);
        // no gate event names the user, whether or not its authentication session saw a password check before
        assertThat(admin.events(realm, "LOGIN_ERROR"))
                .filteredOn(e -> String.valueOf(e.getError()).startsWith("abuse_gate_"))
                .hasSize(2)
                .allSatisfy(e -> {
                    assertThat(details(e)).doesNotContainKey("username");
                    assertThat(e.getIpAddress()).isEqualTo(address);
                });

        String metrics = server.metrics();
        assertThat(Metrics.sum(metrics, "abuse_gate_decisions_total", blockedLabels) - blockedBefore).isEqualTo(1.0);
        assertThat(Metrics.sum(metrics, "abuse_gate_decisions_total", captchaLabels) - captchaBefore).isEqualTo(1.0);
        assertThat(Metrics.sum(metrics, "abuse_gate_decisions_total", Map.of("realm", realm, "outcome", "allow")))
                .isEqualTo(2.0);
        List<Metrics.Sample> ours = Metrics.parse(metrics).stream()
                .filter(s -> s.name().startsWith("abuse_gate_")).toList();
        assertThat(ours).isNotEmpty();
        for (Metrics.Sample s : ours) {
            assertThat(s.labels().keySet()).as(s.toString()).isSubsetOf(Set.of("realm", "outcome", "layer", "table"));
            if (s.labels().containsKey("table")) {
                assertThat(s.labels().get("table")).as(s.toString()).isIn("cheap", "protective", "used", "spray");
            }
            assertThat(s.labels().values()).as(s.toString())
                    .noneMatch(v -> v.contains(address) || v.contains("203.0.113") || v.contains(user));
        }
    }

    private static String solve(LoginResult captchaPage) {
        assertThat(BrowserLogin.attributeOfElement(captchaPage.body(), "abuse-gate-captcha", "data-provider"))
                .as("the ALTCHA captcha in %s", captchaPage).contains("altcha");
        String json = GateIt.altchaChallenge(captchaPage.body());
        String payload = AltchaSolver.solve(json);
        assertThat(payload).as("solution of " + json).isNotNull();
        return payload;
    }

    @Test
    void blocked_message_is_localized_in_the_realms_chosen_language() {
        String realm = realm(users("i18n", "alice")
                .set("internationalizationEnabled", true)
                .set("supportedLocales", List.of("en", "de"))
                .set("defaultLocale", "en")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, quietConfig("perIp.threshold", "1")));
        String address = "203.0.113.81";
        assertThat(attempt(realm, "alice", PW, address).loginSucceeded()).isTrue();

        LoginResult english = attempt(realm, "alice", PW, address);
        assertBlocked(english);
        assertThat(english.gateMessage()).contains(GateIt.messages("en").getProperty("abuseGateBlocked"));

        // kc_locale=de on the form post (as the theme's language menu does)
        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = browser.openLoginPage(realm, address);
        String action = page.requireFormAction();
        LoginResult german = browser.post(action + (action.contains("?") ? "&" : "?") + "kc_locale=de",
                Map.of("username", "alice", "password", PW, "credentialId", ""), address);
        assertBlocked(german);
        String de = GateIt.messages("de").getProperty("abuseGateBlocked");
        assertThat(de).isNotEqualTo(GateIt.messages("en").getProperty("abuseGateBlocked"));
        assertThat(german.gateMessage()).contains(de);
        // the same authentication session stays German
        LoginResult again = browser.submit(german.nextPage(), "alice", PW, address, Map.of());
        assertThat(again.gateMessage()).contains(de);
    }

    @Test
    void gate_answers_do_not_feed_keycloaks_own_brute_force_detection() {
        String realm = realm(users("bf", "alice")
                .eventTypes("LOGIN", "LOGIN_ERROR", "USER_DISABLED_BY_TEMPORARY_LOCKOUT", "USER_DISABLED_BY_PERMANENT_LOCKOUT")
                .set("bruteForceProtected", true)
                .set("permanentLockout", false)
                .set("failureFactor", 3)
                .set("waitIncrementSeconds", 60)
                .set("maxFailureWaitSeconds", 900)
                .set("maxDeltaTimeSeconds", 43200)
                .set("quickLoginCheckMilliSeconds", 1)
                .set("minimumQuickLoginWaitSeconds", 60)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, quietConfig("perIp.threshold", "2")));
        String userId = admin.findUserId(realm, "alice").orElseThrow();
        String a = "203.0.113.91";
        // two real password failures (below Keycloak's failure factor of 3)
        assertNotGated(attempt(realm, "alice", "wrong-1", a));
        assertNotGated(attempt(realm, "alice", "wrong-2", a));
        // then many gate answers for the same user, wrong and right passwords
        for (int i = 0; i < 5; i++) {
            assertBlocked(attempt(realm, "alice", "wrong-" + (i + 3), a));
        }
        assertBlocked(attempt(realm, "alice", PW, a));

        AttackDetectionResource lockout = admin.realm(realm).attackDetection();
        GateIt.await("Keycloak to record the two real failures", EVENT_WAIT,
                () -> ((Number) lockout.bruteForceUserStatus(userId).getOrDefault("numFailures", 0)).intValue() >= 2);
        Map<String, Object> status = lockout.bruteForceUserStatus(userId);
        assertThat(((Number) status.get("numFailures")).intValue()).as(status.toString()).isEqualTo(2);
        assertThat(status.get("disabled")).as(status.toString()).isEqualTo(false);

        assertThat(admin.events(realm, "USER_DISABLED_BY_TEMPORARY_LOCKOUT", "USER_DISABLED_BY_PERMANENT_LOCKOUT")).isEmpty();
        assertThat(admin.events(realm, "LOGIN_ERROR")).extracting(e -> e.getError())
                .containsOnly("invalid_user_credentials", "abuse_gate_blocked")
                .filteredOn("invalid_user_credentials"::equals).hasSize(2);

        // Keycloak did not lock the user: the right password from another address logs in
        LoginResult fromB = attempt(realm, "alice", PW, "203.0.113.92");
        assertThat(fromB.loginSucceeded()).as(fromB.toString()).isTrue();
    }

    @Test
    void counters_are_kept_per_realm() {
        Map<String, String> config = quietConfig("perIp.threshold", "2",
                "accountLockout.threshold", "2", "accountLockout.lockoutSeconds", "600");
        String first = realm(users("iso-a", "alice").gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config));
        String second = realm(users("iso-b", "alice").gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, config));
        String a = "203.0.113.101";
        // exhaust the first realm: the address (layer 1) and the account (layer 3)
        assertNotGated(attempt(first, "alice", "wrong-1", a));
        assertNotGated(attempt(first, "alice", "wrong-2", a));
        assertBlocked(attempt(first, "alice", PW, a));
        assertBlocked(attempt(first, "alice", PW, "203.0.113.102"));

        // the same address and the same username in the other realm are untouched
        assertThat(GateIt.stateNumber(admin.gateState(second, a, "alice"), "address", "attempts")).isZero();
        assertThat(GateIt.stateNumber(admin.gateState(second, a, "alice"), "identifier", "failures")).isZero();
        LoginResult r1 = attempt(second, "alice", PW, a);
        assertThat(r1.loginSucceeded()).as(r1.toString()).isTrue();
        LoginResult r2 = attempt(second, "alice", PW, a);
        assertThat(r2.loginSucceeded()).as(r2.toString()).isTrue();
        // and the first realm is still blocked
        assertBlocked(attempt(first, "alice", PW, "203.0.113.103"));
    }
}
