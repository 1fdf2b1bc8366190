package dev.abusegate.it;

import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static dev.abusegate.it.support.Http.enc;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input on both gated endpoints (browser form and token endpoint): huge, control-character,
 * bidi, invalid UTF-8, empty, missing and duplicated fields, and junk in X-Forwarded-For. No answer may
 * be a 5xx, our code may log no ERROR, and a bystander's counters (identifier and address) stay as they were.
 */
class HostileInputIT extends ServerTest {

    private static final String BYSTANDER = "bystander";
    private static final String BYSTANDER_PASSWORD = "bystander-secret-1";
    private static final String BYSTANDER_ADDRESS = "203.0.113.77";
    private static final String ATTACKER_ADDRESS = "198.51.100.66";

    private static String realm;

    @BeforeAll
    static void createRealmAndBystander() {
        // default thresholds: the hostile attempts stay far below them, so every answer comes from Keycloak or the gate's parsing
        realm = importClassRealm(RealmBuilder.unique("hostile")
                .user("alice", "alice-secret-1")
                .user(BYSTANDER, BYSTANDER_PASSWORD)
                // Events are NOT stored here: Keycloak 26.7.3 itself answers 500 when it stores an event whose
                // ipAddress (from an untrusted X-Forwarded-For) exceeds the 255-char column, stock flows included.
                .set("eventsEnabled", false)
                .gatedBrowserFlow("abuse-gate-username-password-form", null)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null));
        // the bystander has some state of its own: one failure from its own address
        TokenResponse r = tokens.passwordGrant(realm, BYSTANDER, "wrong", null, BYSTANDER_ADDRESS);
        assertThat(r.isKeycloakInvalidGrant()).as(r.toString()).isTrue();
        Map<String, Object> s = bystanderState();
        assertThat(s).containsEntry("attempts", 1L).containsEntry("failures", 1L).containsEntry("pairAttempts", 1L)
                .containsEntry("identifierSeenFromAddress", true);
    }

    /** A hostile case: the form fields as raw bytes (without grant_type/client_id) and the X-Forwarded-For value. */
    record Case(String name, byte[] fields, String forwardedFor) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        String huge = "h".repeat(100 * 1024);
        String xff300 = "x".repeat(300);
        return Stream.of(
                c("username of 100 kB", "username=" + huge + "&password=x", ATTACKER_ADDRESS),
                c("password of 100 kB", "username=hostile-bigpw&password=" + huge, ATTACKER_ADDRESS),
                c("NUL and control characters", "username=" + enc("ho\u0000st\u0007ile\u001b[2J\r\n\t") + "&password="
                        + enc("p\u0000w"), ATTACKER_ADDRESS),
                c("bidi override", "username=" + enc("\u202Eecila\u202C") + "&password=" + enc("\u202Ex"), ATTACKER_ADDRESS),
                c("percent-encoded invalid UTF-8", "username=%C3%28&password=%FF", ATTACKER_ADDRESS),
                new Case("raw invalid UTF-8 bytes", concat("username=".getBytes(StandardCharsets.US_ASCII),
                        new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF}, "&password=".getBytes(StandardCharsets.US_ASCII),
                        new byte[] {(byte) 0xFF, (byte) 0xFE}), ATTACKER_ADDRESS),
                c("empty username and password", "username=&password=", ATTACKER_ADDRESS),
                c("whitespace-only username", "username=%20%20%09&password=x", ATTACKER_ADDRESS),
                c("missing username and password", "credentialId=", ATTACKER_ADDRESS),
                c("missing password", "username=hostile-nopw", ATTACKER_ADDRESS),
                c("missing username", "password=x", ATTACKER_ADDRESS),
                c("username twice, the bystander second", "username=hostile-dup&username=" + BYSTANDER + "&password=wrong",
                        ATTACKER_ADDRESS),
                c("X-Forwarded-For garbage", "username=hostile-xff&password=x", "garbage"),
                c("X-Forwarded-For list", "username=hostile-xff&password=x", "a, b, c"),
                c("X-Forwarded-For list ending in the bystander's address", "username=hostile-xff&password=x",
                        "198.51.100.67, " + BYSTANDER_ADDRESS),
                c("X-Forwarded-For IPv6 zone id", "username=hostile-xff&password=x", "fe80::1%eth0"),
                c("X-Forwarded-For unknown", "username=hostile-xff&password=x", "unknown"),
                c("X-Forwarded-For of 300 chars", "username=hostile-xff&password=x", xff300),
                c("X-Forwarded-For empty", "username=hostile-xff&password=x", ""))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hostile_form_input_gets_no_5xx_no_error_log_and_leaves_bystanders_alone(Case c) {
        Map<String, Object> before = bystanderState();
        long mark = server.logMark();

        BrowserLogin browser = server.newBrowser();
        BrowserLogin.LoginResult page = browser.openLoginPage(realm, c.forwardedFor());
        assertThat(page.status()).as("login page for " + c).isBetween(200, 499);
        if (page.status() != 200) {
            // refused before any login form exists (e.g. the HTTP layer rejects the header): nothing to post
            assertQuietLog(mark, c);
            assertThat(bystanderState()).as("bystander after " + c).isEqualTo(before);
            return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(c.fields());
        body.writeBytes("&credentialId=".getBytes(StandardCharsets.US_ASCII));
        BrowserLogin.LoginResult r = browser.postBytes(page, body.toByteArray(), c.forwardedFor());
        assertThat(r.status()).as(c + " -> " + r).isBetween(200, 499);
        if (r.status() == 200) {
            // a re-rendered login page, not an error page
            assertThat(r.body()).as(c.toString()).contains("kc-form-login");
        }

        assertQuietLog(mark, c);
        assertThat(bystanderState()).as("bystander after " + c).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hostile_token_endpoint_input_gets_no_5xx_no_error_log_and_leaves_bystanders_alone(Case c) {
        Map<String, Object> before = bystanderState();
        long mark = server.logMark();

        byte[] body = concat(("grant_type=password&client_id=" + RealmBuilder.CLIENT_ID + "&").getBytes(StandardCharsets.US_ASCII),
                c.fields());
        TokenResponse r = tokens.postRaw(realm, body, c.forwardedFor());
        assertThat(r.status()).as(c + " -> " + r).isBetween(400, 499);
        if (r.header("Content-Type").orElse("").startsWith("application/json")) {
            assertThat(r.json()).as(c.toString()).containsKey("error");
        }

        assertQuietLog(mark, c);
        assertThat(bystanderState()).as("bystander after " + c).isEqualTo(before);
    }

    // ------------------------------------------------------------------------------------------

    private static Case c(String name, String fields, String forwardedFor) {
        return new Case(name, fields.getBytes(StandardCharsets.UTF_8), forwardedFor);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static void assertQuietLog(long mark, Case c) {
        String log = server.logTextSince(mark);
        assertThat(KeycloakServer.filterLog(log, "ERROR", "dev.abusegate")).as("ERROR from our code after " + c).isEmpty();
        assertThat(log).as("uncaught server error after " + c).doesNotContain("Uncaught server error");
    }

    /** The bystander's counters (no times, which tick down): identifier, address and their pair. */
    private static Map<String, Object> bystanderState() {
        Map<String, Object> s = admin.gateState(realm, BYSTANDER_ADDRESS, BYSTANDER);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("attempts", GateIt.stateNumber(s, "address", "attempts"));
        out.put("distinctIdentifiers", GateIt.stateNumber(s, "address", "distinctIdentifiers"));
        out.put("failures", GateIt.stateNumber(s, "identifier", "failures"));
        out.put("locked", GateIt.stateValue(s, "identifier", "locked"));
        out.put("pairAttempts", GateIt.stateNumber(s, "pair", "attempts"));
        out.put("identifierSeenFromAddress", GateIt.stateValue(s, "pair", "identifierSeenFromAddress"));
        return out;
    }
}
