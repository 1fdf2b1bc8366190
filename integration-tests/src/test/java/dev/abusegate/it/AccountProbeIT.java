package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.EventRepresentation;

/**
 * Probes that try to tell an existing account from an unknown name by the gate's behaviour. Each runs the
 * same attempts against a real account and against a name that does not exist, on the browser form and on
 * the password grant, and compares what a client sees (every answer), what the gate records (its counters
 * through the admin API) and the events (the gate's own, and for missing passwords every login error).
 * The layer-3 captcha band starts at the 3rd counted failure (threshold 4, factor 0.5), so a probe that is
 * counted for one name and not for the other shows up as a 429 for one of them only.
 */
class AccountProbeIT extends ServerTest {

    private static final String PW = "alice-Secret-1";
    private static final String KNOWN = "alice";
    private static final String UNKNOWN = "nobody-here";
    private static final Map<String, String> BAND_AT_2 = quietConfig("accountLockout.threshold", "4", "captcha.enabled", "true");
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static RealmBuilder realm(String prefix) {
        return RealmBuilder.unique(prefix).user(KNOWN, PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, BAND_AT_2)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", BAND_AT_2);
    }

    /** Four addresses per name and probe: several addresses, then one more. */
    private static List<String> addresses(String prefix) {
        return IntStream.rangeClosed(1, 4).mapToObj(i -> prefix + i).toList();
    }

    /** What a browser sees: status, the gate's code, Keycloak's error text. */
    private static String browser(String realm, String name, String password, String address) {
        BrowserLogin.LoginResult r = attempt(realm, name, password, address);
        return r.status() + " gate=" + r.gateCode().orElse("-") + " keycloak=" + r.keycloakError().orElse("-");
    }

    /** What an API client sees: status, error, description, and whether a captcha is offered. */
    private static String token(String realm, String name, String password, String address) {
        TokenClient.TokenResponse r = tokens.passwordGrant(realm, name, password, null, address);
        Map<String, Object> j = r.json();
        return r.status() + " " + j.get("error") + " / " + j.get("error_description") + " captcha=" + j.containsKey("captcha_provider");
    }

    /**
     * Runs {@code attempt} for {@code name} from each address, then reads what a client and an admin can
     * observe. {@code allErrors}: compare every LOGIN_ERROR error, else only the gate's own events.
     */
    private Map<String, Object> observe(String realm, String name, List<String> addresses, boolean allErrors,
                                        BiFunction<String, String, String> attempt) {
        List<String> answers = new ArrayList<>();
        for (String a : addresses) {
            answers.add(attempt.apply(name, a));
        }
        List<Map<String, Object>> counters = new ArrayList<>();
        for (String a : addresses) {
            Map<String, Object> s = admin.gateState(realm, a, name);
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("address.attempts", GateIt.stateValue(s, "address", "attempts"));
            c.put("address.distinctIdentifiers", GateIt.stateValue(s, "address", "distinctIdentifiers"));
            c.put("pair.attempts", GateIt.stateValue(s, "pair", "attempts"));
            c.put("pair.identifierSeenFromAddress", GateIt.stateValue(s, "pair", "identifierSeenFromAddress"));
            c.put("identifier.failures", GateIt.stateValue(s, "identifier", "failures"));
            c.put("identifier.locked", GateIt.stateValue(s, "identifier", "locked"));
            counters.add(c);
        }
        GateIt.await("a login error per attempt", WAIT, () -> errors(realm, addresses, true).size() >= addresses.size());
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("answers", answers);
        seen.put("counters", counters);
        seen.put("events", errors(realm, addresses, allErrors));
        return seen;
    }

    /** LOGIN_ERROR errors from these addresses, oldest first (only the gate's own unless {@code all}). */
    private static List<String> errors(String realm, List<String> addresses, boolean all) {
        List<String> out = new ArrayList<>();
        for (EventRepresentation e : admin.events(realm, "LOGIN_ERROR")) {
            String error = String.valueOf(e.getError());
            if (addresses.contains(e.getIpAddress())
                    && (all || error.startsWith("abuse_gate_") || error.equals("counter_store_unavailable"))) {
                out.add(0, error);
            }
        }
        return out;
    }

    /**
     * Clears the gate's record of a name and of its e-mail form: a failure under an account's username is
     * recorded under its e-mail too (one budget per account), and the admin clear takes one identifier.
     */
    private static void clearState(String realm, String name) {
        for (String n : List.of(name, name + "@example.com")) {
            admin.clearGateState(realm, null, n);
        }
    }

    private void assertAlike(String realm, String knownNet, String unknownNet, boolean allErrors,
                             BiFunction<String, String, String> attempt) {
        Map<String, Object> known = observe(realm, KNOWN, addresses(knownNet), allErrors, attempt);
        Map<String, Object> unknown = observe(realm, UNKNOWN, addresses(unknownNet), allErrors, attempt);
        assertThat(unknown).as("an unknown name looks exactly like account '%s'", KNOWN).isEqualTo(known);
    }

    @Test
    void empty_and_blank_passwords_on_the_browser_form_look_alike_for_known_and_unknown_names() {
        String realm = importRealm(realm("probe-form"));
        assertAlike(realm, "192.0.2.1", "198.51.100.1", true, (n, a) -> browser(realm, n, "", a));
        assertAlike(realm, "192.0.2.2", "198.51.100.2", true, (n, a) -> browser(realm, n, "  \t ", a));
        // and they are Keycloak's ordinary answer, counted for nobody's lockout
        assertThat(browser(realm, UNKNOWN, "", "203.0.113.9")).isEqualTo("200 gate=- keycloak=Invalid username or password.");
        assertThat(GateIt.stateNumber(admin.gateState(realm, null, UNKNOWN), "identifier", "failures")).isZero();
        assertThat(attempt(realm, KNOWN, PW, "192.0.2.9").loginSucceeded()).isTrue();
    }

    @Test
    void empty_and_blank_passwords_on_the_password_grant_look_alike_for_known_and_unknown_names() {
        String realm = importRealm(realm("probe-grant"));
        assertAlike(realm, "192.0.2.3", "198.51.100.3", true, (n, a) -> token(realm, n, "", a));
        assertAlike(realm, "192.0.2.4", "198.51.100.4", true, (n, a) -> token(realm, n, " ", a));
        assertThat(token(realm, UNKNOWN, "", "203.0.113.9")).isEqualTo("400 invalid_grant / Invalid user credentials captcha=false");
        assertThat(tokens.passwordGrant(realm, KNOWN, PW, null, "192.0.2.9").status()).isEqualTo(200);
    }

    @Test
    void an_account_under_keycloaks_own_brute_force_lock_looks_like_an_unknown_name() {
        String realm = importRealm(realm("probe-bf")
                .eventTypes("LOGIN", "LOGIN_ERROR", "USER_DISABLED_BY_TEMPORARY_LOCKOUT")
                .set("bruteForceProtected", true)
                .set("permanentLockout", false)
                .set("failureFactor", 2)
                .set("waitIncrementSeconds", 600)
                .set("maxFailureWaitSeconds", 900)
                .set("maxDeltaTimeSeconds", 43200)
                .set("quickLoginCheckMilliSeconds", 1)
                .set("minimumQuickLoginWaitSeconds", 60));
        // Keycloak locks alice after two wrong passwords; the gate's own record of them is cleared.
        attempt(realm, KNOWN, "wrong-1", "203.0.113.1");
        attempt(realm, KNOWN, "wrong-2", "203.0.113.1");
        String id = admin.findUserId(realm, KNOWN).orElseThrow();
        GateIt.await("Keycloak to lock alice", WAIT,
                () -> Boolean.TRUE.equals(admin.realm(realm).attackDetection().bruteForceUserStatus(id).get("disabled")));
        clearState(realm, KNOWN);

        assertAlike(realm, "192.0.2.5", "198.51.100.5", false, (n, a) -> browser(realm, n, "guess-" + a, a));
        clearState(realm, KNOWN);
        clearState(realm, UNKNOWN);
        assertAlike(realm, "192.0.2.6", "198.51.100.6", false, (n, a) -> token(realm, n, "guess-" + a, a));
    }

    @Test
    void a_disabled_account_and_one_without_a_password_look_like_an_unknown_name() {
        String realm = importRealm(realm("probe-other"));
        String id = admin.findUserId(realm, KNOWN).orElseThrow();
        admin.updateUser(realm, id, u -> u.setEnabled(false));
        assertAlike(realm, "192.0.2.7", "198.51.100.7", false, (n, a) -> browser(realm, n, "guess-" + a, a));
        clearState(realm, KNOWN);
        clearState(realm, UNKNOWN);
        assertAlike(realm, "192.0.2.8", "198.51.100.8", false, (n, a) -> token(realm, n, "guess-" + a, a));

        // an enabled account that has no password credential at all
        admin.delete("/admin/realms/" + AdminClient.seg(realm) + "/users/" + id);
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("username", KNOWN);
        user.put("enabled", true);
        user.put("email", KNOWN + "@example.com");
        user.put("emailVerified", true);
        user.put("firstName", "Test");
        user.put("lastName", KNOWN);
        assertThat(admin.post("/admin/realms/" + AdminClient.seg(realm) + "/users", user).status()).isEqualTo(201);
        clearState(realm, KNOWN);
        clearState(realm, UNKNOWN);
        assertAlike(realm, "192.0.2.10", "198.51.100.10", false, (n, a) -> browser(realm, n, "guess-" + a, a));
        assertAlike(realm, "192.0.2.11", "198.51.100.11", false, (n, a) -> token(realm, n, "guess-" + a, a));
    }
    /**
     * What the one-budget rule reveals (docs/security.md, "Two names of one account"): a client that spends the
     * captcha band's start of wrong passwords under one name and then tries a second name learns whether the two
     * are login names of one account. Every answer under a single name stays alike for real and unknown names.
     */
    @Test
    void two_names_of_one_account_are_told_apart_from_two_unknown_names_as_documented() {
        String realm = importRealm(realm("probe-pair").user("carol", PW));
        List<String> account = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            account.add(browser(realm, KNOWN, "guess-" + i, "192.0.2.2" + i));
            unknown.add(browser(realm, UNKNOWN, "guess-" + i, "198.51.100.2" + i));
        }
        assertThat(unknown).as("under one name: alike").isEqualTo(account)
                .containsOnly("200 gate=- keycloak=Invalid username or password.");
        assertThat(browser(realm, KNOWN + "@example.com", "guess-3", "192.0.2.23"))
                .as("the account's e-mail is in the band its username reached").startsWith("429 gate=captcha_required");
        assertThat(browser(realm, UNKNOWN + "@example.com", "guess-3", "198.51.100.23"))
                .as("a second unknown name has its own budget").isEqualTo("200 gate=- keycloak=Invalid username or password.");

        // the same on the token endpoint
        account.clear();
        unknown.clear();
        for (int i = 1; i <= 2; i++) {
            account.add(token(realm, "carol", "guess-" + i, "192.0.2.3" + i));
            unknown.add(token(realm, "nobody", "guess-" + i, "198.51.100.3" + i));
        }
        assertThat(unknown).isEqualTo(account).containsOnly("400 invalid_grant / Invalid user credentials captcha=false");
        assertThat(token(realm, "carol@example.com", "guess-3", "192.0.2.33")).startsWith("429 captcha_required");
        assertThat(token(realm, "nobody@example.com", "guess-3", "198.51.100.33"))
                .isEqualTo("400 invalid_grant / Invalid user credentials captcha=false");
    }
}
