package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.altchaChallenge;
import static dev.abusegate.it.support.GateIt.assertCaptchaRequired;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

/**
 * The fifth, realm-wide layer on a real Keycloak: a distributed spray (every attempt from an address, and a /24, of its
 * own, for a username of its own that does not exist, far below every per-address threshold) switches the realm into
 * the band; the same failures from a few networks do not, and one address cannot hold the realm in it. Then a fresh real user is asked for a captcha (harder ALTCHA) and passes with a solved one, a device-cookie
 * holder passes without one, the token endpoint answers the same {@code captcha_required} JSON, another realm with the
 * same settings stays unaffected, and the operator sees it (admin state, events). Addresses are varied through the
 * trusted-proxy header, as in the other ITs.
 */
class RealmUnderAttackIT extends ServerTest {

    private static final String FORM = GateIt.USERNAME_PASSWORD_FORM;
    private static final String DEVICE_COOKIE = "KC_ABUSE_GATE_DEVICE";
    private static final String ALICE = "alice";
    private static final String ALICE_PASSWORD = "alice-Secret-1";
    private static final String BOB = "bob";
    private static final String BOB_PASSWORD = "bob-Secret-1";
    private static final int THRESHOLD = 20;

    private static Map<String, String> config() {
        // the per-subject layers at their defaults: the spray stays below every one of them
        return Map.of("realm.enabled", "true", "realm.threshold", String.valueOf(THRESHOLD), "realm.windowSeconds", "60",
                "realm.baselineMultiple", "0", "realm.altchaFactor", "2", "captcha.altcha.maxNumber", "5000",
                "deviceCookie.enabled", "true");
    }

    private String realm(String prefix) {
        return importRealm(RealmBuilder.unique(prefix)
                .user(ALICE, ALICE_PASSWORD)
                .user(BOB, BOB_PASSWORD)
                .gatedBrowserFlow(FORM, config())
                .gatedDirectGrantFlow("abuse-gate-direct-grant", config()));
    }

    private static Map<String, Object> realmState(String realm) {
        return admin.realmUnderAttack(realm);
    }

    @Test
    void a_distributed_spray_switches_the_realm_into_the_band_and_real_users_still_log_in() throws Exception {
        String attacked = realm("realm-attacked");
        String quiet = realm("realm-quiet");

        // alice logs in once before the attack: her browser holds a device cookie
        BrowserLogin alice = server.newBrowser();
        assertThat(alice.login(attacked, ALICE, ALICE_PASSWORD, "10.28.1.1").loginSucceeded()).isTrue();
        assertThat(alice.cookie(DEVICE_COOKIE)).isPresent();
        alice.keepOnlyCookie(DEVICE_COOKIE);
        assertThat(realmState(attacked)).containsEntry("enabled", true).containsEntry("underAttack", false);

        // the spray: unknown usernames, one attempt per address (each in a /24 of its own: a crowd of 20 networks, at
        // least realm.minNetworks), each answered by Keycloak's own wrong-password page
        for (int i = 0; i < THRESHOLD; i++) {
            LoginResult r = server.newBrowser().login(attacked, "nobody-" + i, "guess-" + i, "10.28." + (100 + i) + ".1");
            GateIt.assertWrongPassword(r);
        }
        GateIt.await("the realm under attack", Duration.ofSeconds(10), () -> Boolean.TRUE.equals(realmState(attacked).get("underAttack")));
        Map<String, Object> state = realmState(attacked);
        assertThat(((Number) state.get("failuresInWindow")).longValue()).isGreaterThanOrEqualTo(THRESHOLD);
        assertThat(((Number) state.get("entryLevel")).longValue()).isEqualTo(THRESHOLD);

        // a fresh real user from a fresh address: asked for a captcha, a harder ALTCHA, and in with it
        BrowserLogin bob = server.newBrowser();
        LoginResult asked = bob.login(attacked, BOB, BOB_PASSWORD, "10.28.3.1");
        assertCaptchaRequired(asked);
        String challengeJson = altchaChallenge(asked.body());
        JsonNode challenge = Json.MAPPER.readTree(challengeJson);
        assertThat(challenge.path("maxnumber").asLong()).as("ALTCHA is realm.altchaFactor times harder").isEqualTo(10_000);
        LoginResult in = bob.submit(asked.nextPage(), BOB, BOB_PASSWORD, "10.28.3.1", Map.of("altcha", AltchaSolver.solve(challengeJson)));
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        // the device-cookie holder passes without a captcha, from an address never seen
        LoginResult known = alice.login(attacked, ALICE, ALICE_PASSWORD, "10.28.4.1");
        assertThat(known.loginSucceeded()).as(known.toString()).isTrue();

        // the token endpoint: the same captcha_required JSON, no layer named
        TokenResponse api = tokens.passwordGrant(attacked, BOB, BOB_PASSWORD, null, "10.28.5.1");
        assertThat(api.status()).as(api.toString()).isEqualTo(429);
        assertThat(api.json()).containsEntry("error", "captcha_required");
        assertThat(api.body()).doesNotContain("realm_under_attack");

        // another realm, same settings: unaffected
        LoginResult other = server.newBrowser().login(quiet, BOB, BOB_PASSWORD, "10.28.6.1");
        assertThat(other.loginSucceeded()).as(other.toString()).isTrue();
        assertThat(realmState(quiet)).containsEntry("underAttack", false);

        // the operator sees it: an event on entering, and the captcha answers attributed to the realm layer
        EventRepresentation entered = admin.awaitEvent(attacked, e -> "abuse_gate_realm_under_attack".equals(e.getError()),
                Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(entered.getDetails())
                .containsEntry("abuse_gate_realm_state", "entered").containsEntry("abuse_gate_layer", "realm_under_attack");
        EventRepresentation captcha = admin.awaitEvent(attacked, e -> "abuse_gate_captcha_required".equals(e.getError())
                && "10.28.3.1".equals(e.getIpAddress()), Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(captcha.getDetails())
                .containsEntry("abuse_gate_layer", "realm_under_attack");
        assertThat(asked.body()).doesNotContain("realm_under_attack");
    }

    @Test
    void after_quiet_the_realm_leaves_by_itself_and_its_next_login_records_both_changes() {
        // a low threshold and a short window of two 10 s buckets (it covers 10 to 20 s, so four failures sent within a
        // second always fall in it together): it enters on 4 failures and leaves once the buckets that hold them are
        // out of the window
        Map<String, String> quick = Map.of("realm.enabled", "true", "realm.threshold", "4", "realm.windowSeconds", "20",
                "realm.minNetworks", "4", "realm.baselineMultiple", "0", "deviceCookie.enabled", "true");
        String realm = importRealm(RealmBuilder.unique("realm-leaves")
                .user(BOB, BOB_PASSWORD)
                .gatedBrowserFlow(FORM, quick));

        for (int i = 0; i < 4; i++) {
            GateIt.assertWrongPassword(server.newBrowser().login(realm, "nobody-" + i, "guess-" + i, "10.29." + (100 + i) + ".1"));
        }
        GateIt.await("the realm under attack", Duration.ofSeconds(10), () -> Boolean.TRUE.equals(realmState(realm).get("underAttack")));
        assertThat(((Number) realmState(realm).get("entryLevel")).longValue()).isEqualTo(4);

        // quiet: no attempt at all (the admin endpoint counts nothing); it leaves within one window plus one bucket
        GateIt.await("the realm out of 'under attack' by itself", Duration.ofSeconds(45),
                () -> Boolean.FALSE.equals(realmState(realm).get("underAttack")));
        Map<String, Object> state = realmState(realm);
        assertThat(state).containsEntry("enabled", true).containsEntry("underAttack", false);
        // it left by one of its two rules: below half the entry level, or (when the four failures straddled a bucket
        // boundary and the older bucket left the window first) from fewer networks than the crowd
        long failures = ((Number) state.get("failuresInWindow")).longValue();
        long networks = ((Number) state.get("networksInWindow")).longValue();
        assertThat(failures < 2 || networks < 4).as("%d failures from %d networks: below half the level or the crowd",
                failures, networks).isTrue();

        // an attempt without a captcha is let through again
        LoginResult in = server.newBrowser().login(realm, BOB, BOB_PASSWORD, "10.29.3.1");
        assertThat(in.loginSucceeded()).as(in.toString()).isTrue();

        // no attempt came between entering and leaving: this login records both, once each, entering first
        EventRepresentation left = admin.awaitEvent(realm, e -> isRealmEvent(e, "left"), Duration.ofSeconds(10), "LOGIN_ERROR");
        EventRepresentation entered = admin.awaitEvent(realm, e -> isRealmEvent(e, "entered"), Duration.ofSeconds(10), "LOGIN_ERROR");
        assertThat(entered.getTime()).isLessThanOrEqualTo(left.getTime());
        assertThat(admin.events(realm, "LOGIN_ERROR")).filteredOn(e -> "abuse_gate_realm_under_attack".equals(e.getError()))
                .as("one event per change").hasSize(2);
        assertThat(admin.events(realm, "LOGIN_ERROR")).as("nothing asked for a captcha")
                .noneMatch(e -> "abuse_gate_captcha_required".equals(e.getError()));
    }

    /** The layer with threshold 10, the default crowd of 10 networks and a window of {@code windowSeconds}. */
    private static Map<String, String> crowdConfig(int windowSeconds) {
        return Map.of("realm.enabled", "true", "realm.threshold", "10", "realm.windowSeconds", String.valueOf(windowSeconds),
                "realm.baselineMultiple", "0", "captcha.altcha.maxNumber", "5000",
                // one address below sends many names: layer 4 must not be what stops it
                "credentialStuffing.threshold", "1000");
    }

    private static final int REAL_USERS = 12;

    private String crowdRealm(String prefix, int windowSeconds) {
        RealmBuilder b = RealmBuilder.unique(prefix);
        for (int u = 0; u < REAL_USERS; u++) {
            b.user("user-" + u, "user-Secret-" + u);
        }
        return importRealm(b.gatedBrowserFlow(FORM, crowdConfig(windowSeconds)));
    }

    /** Every one of the realm's real users logs in, from an address of its own, with no captcha asked. */
    private void realUsersLogIn(String realm, String addressPrefix) {
        for (int u = 0; u < REAL_USERS; u++) {
            LoginResult r = server.newBrowser().login(realm, "user-" + u, "user-Secret-" + u, addressPrefix + (u + 1));
            assertThat(r.loginSucceeded()).as("real user %d: %s", u, r).isTrue();
        }
    }

    private static boolean underAttack(String realm) {
        return Boolean.TRUE.equals(realmState(realm).get("underAttack"));
    }

    private static long stateNumber(String realm, String key) {
        Object v = realmState(realm).get(key);
        assertThat(v).as(key).isInstanceOf(Number.class);
        return ((Number) v).longValue();
    }

    @Test
    void forty_unknown_names_failing_from_three_networks_do_not_put_the_realm_under_attack() throws Exception {
        // a window of 10 minutes: the 40 logins take up to a minute on a loaded machine, and all count together
        String realm = crowdRealm("realm-few-networks", 600);
        // 40 failed checks, four times the entry level, each from an address of its own, all within three /24s
        for (int i = 0; i < 40; i++) {
            GateIt.assertWrongPassword(server.newBrowser().login(realm, "nobody-" + i, "guess-" + i,
                    "10.30." + (1 + i % 3) + "." + (1 + i)));
        }
        GateIt.await("the failures counted", Duration.ofSeconds(10), () -> stateNumber(realm, "failuresInWindow") >= 40);
        Thread.sleep(2 * 1000 + 500); // two ticks: every node has decided on them
        assertThat(underAttack(realm)).as("40 failures from 3 networks: no crowd").isFalse();
        assertThat(stateNumber(realm, "networksInWindow")).isEqualTo(3);
        realUsersLogIn(realm, "10.30.9.");
        assertThat(admin.events(realm, "LOGIN_ERROR")).as("nothing entered, nothing asked for a captcha")
                .noneMatch(e -> "abuse_gate_realm_under_attack".equals(e.getError()) || "abuse_gate_captcha_required".equals(e.getError()));
    }

    @Test
    void a_crowd_of_ten_networks_enters_and_then_one_address_cannot_hold_the_realm_and_real_users_log_in() throws Exception {
        // a window of 30 s (three 10 s buckets): it leaves within 40 s of the crowd's last failure
        String realm = crowdRealm("realm-held", 30);
        for (int i = 0; i < 10; i++) {
            GateIt.assertWrongPassword(server.newBrowser().login(realm, "nobody-" + i, "guess-" + i, "10.31." + (1 + i) + ".1"));
        }
        GateIt.await("the realm under attack", Duration.ofSeconds(10), () -> underAttack(realm));
        long entered = System.nanoTime();

        // one address keeps at it, about one attempt a second: every other one without a captcha (turned away), the
        // others with a solved ALTCHA and a wrong password (a checked failure). Before, each turned-away attempt was
        // counted and held the realm for as long as the address went on.
        String holder = "10.31.99.1";
        int n = 0;
        int checked = 0;
        long leftAfterMillis = -1;
        while (leftAfterMillis < 0 && System.nanoTime() - entered < TimeUnit.SECONDS.toNanos(90)) {
            long start = System.nanoTime();
            BrowserLogin browser = server.newBrowser();
            LoginResult r = browser.login(realm, "holder-" + n, "guess-" + n, holder);
            if (r.status() == 429) {
                assertCaptchaRequired(r);
                if (n % 2 == 1) {
                    LoginResult solved = browser.submit(r.nextPage(), "holder-" + n, "guess-" + n, holder,
                            Map.of("altcha", AltchaSolver.solve(altchaChallenge(r.body()))));
                    if (solved.status() == 429) {
                        assertCaptchaRequired(solved); // asked again: the realm still holds, and this one was not checked
                    } else {
                        GateIt.assertWrongPassword(solved);
                        checked++;
                    }
                }
            }
            n++;
            if (!underAttack(realm)) {
                leftAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - entered);
            }
            Thread.sleep(Math.max(0, 1000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
        }
        System.out.printf("RealmUnderAttackIT: one address, %d attempts at about 1/s (%d solved and checked), realm left after %d ms%n",
                n, checked, leftAfterMillis);
        assertThat(leftAfterMillis).as("the realm left while one address went on (window 30 s, one bucket 10 s, and 20 s for "
                + "a loaded machine)").isBetween(0L, 60_000L);

        // the address goes on, now with wrong passwords checked at once: one network never enters it again (a wrong
        // password of its own each time: one password failing for 20 names is the password-spray layer's case)
        for (int i = 0; i < 20; i++) {
            GateIt.assertWrongPassword(server.newBrowser().login(realm, "holder-again-" + i, "guess-again-" + i, holder));
        }
        assertThat(stateNumber(realm, "failuresInWindow")).as("its failures reach the entry level").isGreaterThanOrEqualTo(10);
        Thread.sleep(2 * 1000 + 500);
        assertThat(underAttack(realm)).as("20 more failures, above the entry level, from one address").isFalse();
        assertThat(stateNumber(realm, "networksInWindow")).as("the holder and what is left of the crowd").isLessThan(10);
        realUsersLogIn(realm, "10.31.50.");
    }

    /**
     * Attempts already let through when the realm enters, and still waiting for their password check (on a saturated
     * server, in Keycloak's hashing queue), are looked at again when their turn comes: they get the realm's captcha,
     * not a hash. 40 wrong passwords arrive at once, each from a network of its own, 5 failures short of the entry
     * level: about 5 are checked (plus those already hashing), the rest asked for the captcha.
     */
    @Test
    void attempts_waiting_for_their_password_check_when_the_realm_enters_are_asked_for_the_captcha_instead() throws Exception {
        Map<String, String> cfg = Map.of("realm.enabled", "true", "realm.threshold", "8", "realm.windowSeconds", "60",
                "realm.baselineMultiple", "0", "realm.minNetworks", "3", "passwordSpray.enabled", "false");
        String realm = importRealm(RealmBuilder.unique("realm-queue").user(ALICE, ALICE_PASSWORD)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", cfg));
        TokenClient tokens = new TokenClient(server.baseUrl());
        // three failures from three networks: the crowd is there, 5 failures short of the level
        for (int i = 0; i < 3; i++) {
            assertThat(tokens.passwordGrant(realm, "early-" + i, "guess-" + i, null, "10.33." + (10 + i) + ".1").status()).isIn(400, 401);
        }
        GateIt.await("a tick that counted the crowd", Duration.ofSeconds(10),
                () -> ((Number) realmState(realm).get("networksInWindow")).intValue() >= 3);
        Thread.sleep(1_500); // one more tick: it leaves the realm its headroom to the level
        assertThat(underAttack(realm)).isFalse();

        int n = 40;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(n);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<TokenResponse>> sent = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                int k = i;
                sent.add(pool.submit(() -> {
                    start.await();
                    return tokens.passwordGrant(realm, "late-" + k, "guess-late-" + k, null, "10.33." + (100 + k) + ".1");
                }));
            }
            start.countDown();
            int checked = 0;
            int asked = 0;
            for (java.util.concurrent.Future<TokenResponse> f : sent) {
                TokenResponse r = f.get(120, TimeUnit.SECONDS);
                if (r.status() == 429) {
                    assertThat(r.json()).as(r.toString()).containsEntry("error", "captcha_required");
                    asked++;
                } else {
                    assertThat(r.status()).as(r.toString()).isIn(400, 401);
                    checked++;
                }
            }
            int cores = Runtime.getRuntime().availableProcessors();
            System.out.printf("RealmUnderAttackIT: %d sent at once, %d checked, %d asked for the captcha (%d cores)%n",
                    n, checked, asked, cores);
            assertThat(underAttack(realm)).isTrue();
            // the 5 that reach the level, the checks already running when it entered (one per core), and 2 in flight
            assertThat(checked).as("passwords checked").isLessThanOrEqualTo(5 + 2 * cores + 2);
            assertThat(asked).isEqualTo(n - checked);
        } finally {
            pool.shutdownNow();
        }
        // a real user who solves the captcha still logs in
        TokenResponse challenged = tokens.passwordGrant(realm, ALICE, ALICE_PASSWORD, null, "10.33.200.1");
        assertThat(challenged.status()).isEqualTo(429);
        String solution = AltchaSolver.solve(Json.write(challenged.json().get("captcha_challenge")));
        assertThat(tokens.passwordGrant(realm, ALICE, ALICE_PASSWORD, solution, "10.33.200.1").status()).isEqualTo(200);
    }

    private static boolean isRealmEvent(EventRepresentation e, String state) {
        Map<String, String> d = e.getDetails();
        return "abuse_gate_realm_under_attack".equals(e.getError()) && d != null
                && state.equals(d.get("abuse_gate_realm_state")) && "realm_under_attack".equals(d.get("abuse_gate_layer"));
    }
}
