package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.DedicatedServer;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.SamlEcp;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Realm isolation (issue 42): on a server with small bounds, the fills of issue 42 sent to one realm (SAML ECP with
 * fresh unknown names from fresh addresses; solved ALTCHAs sent with the password "   "; direct grants with unknown
 * names and wrong passwords, their captchas solved) leave another realm's answers exactly as on the fresh server:
 * an exact lockout at threshold 4 (four wrong passwords, then the right one refused), the captcha band with a
 * solved captcha, a fresh address's first attempt, and the realm layer (quiet, then on for a crowd of networks).
 */
@DedicatedServer(name = "isolation", startTimeoutSeconds = 900, options = {
        "--spi-abuse-gate-store--infinispan--max-entries=" + RealmIsolationIT.BOUND,
        "--spi-abuse-gate-store--infinispan--max-protected-entries=" + RealmIsolationIT.PROTECTED_BOUND})
class RealmIsolationIT extends ServerTest {

    static final int BOUND = 200;
    /** Used captchas get a quarter of it: 64. */
    static final int PROTECTED_BOUND = 256;
    private static final String PASSWORD = "isolation-Passw0rd!";
    private static final AtomicInteger NEXT = new AtomicInteger();
    /** Failures from this many networks (one /24 each) switch a realm's layer on: above realm.minNetworks (10). */
    private static final int CROWD = 14;
    private static final AtomicInteger NETWORK = new AtomicInteger();

    private SamlEcp ecp;

    /** The SAML service provider of the flooded realm's ECP fill. */
    private SamlEcp ecp() {
        if (ecp == null) {
            ecp = new SamlEcp(server.baseUrl(), "ecp-sp");
        }
        return ecp;
    }

    /** The realms' gate: an ALTCHA band from half of each threshold, long windows. */
    private static Map<String, String> config(String lockoutThreshold) {
        return Map.ofEntries(
                Map.entry("captcha.enabled", "true"),
                Map.entry("captcha.provider", "altcha"),
                Map.entry("captcha.secret", "isolation-altcha-" + NEXT.incrementAndGet()),
                Map.entry("captcha.altcha.maxNumber", "1000"),
                Map.entry("captcha.factor", "0.5"),
                Map.entry("perIp.threshold", "4"),
                Map.entry("perIp.windowSeconds", "900"),
                Map.entry("perIpAccount.threshold", "3"),
                Map.entry("perIpAccount.windowSeconds", "900"),
                Map.entry("credentialStuffing.threshold", "1000"),
                Map.entry("accountLockout.threshold", lockoutThreshold),
                Map.entry("accountLockout.windowSeconds", "900"),
                Map.entry("accountLockout.lockoutSeconds", "900"),
                // the realm layer: a crowd of at least realm.minNetworks (10) networks is needed to switch it on
                Map.entry("realm.enabled", "true"),
                Map.entry("realm.threshold", "12"),
                Map.entry("realm.windowSeconds", "600"),
                Map.entry("realm.baselineMultiple", "0"));
    }

    /**
     * A realm with the victim account and the gate on the token endpoint; the flooded one ({@code ecp}) also gates SAML
     * ECP, and its lockout threshold is out of the fills' reach, so that its own shared lockout counts (the cost of
     * its flood, borne by it alone) never stop the fills that follow.
     */
    private String realm(String prefix, boolean ecp) {
        RealmBuilder b = RealmBuilder.unique(prefix)
                .user("victim", PASSWORD)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", config(ecp ? "1000" : "4"));
        if (ecp) {
            // the builder's token-endpoint client, and the SAML client that may use ECP
            List<Object> clients = new ArrayList<>((List<?>) RealmBuilder.named(prefix).toMap().get("clients"));
            clients.add(ecp().client());
            b.set("clients", clients);
        }
        String name = importRealm(b);
        if (ecp) {
            // every ECP request is let through and checked: the fill writes what a checked failure writes
            SamlEcp.gate(admin, name, GateIt.quietConfig("accountLockout.windowSeconds", "900"));
        }
        return name;
    }

    @Test
    void fills_of_one_realm_change_no_answer_in_another_realm() {
        FloodProbes probes = new FloodProbes(server);
        String flooded = realm("flooded", true);
        String victim = realm("victim", false);
        String control = realm("control", false);

        // what the fresh server answers, in a realm of the same settings
        Probe expected = Probe.of(probes, admin, control);
        assertThat(expected.lockout).as("the exact lockout on the fresh server: the right password refused after four wrong")
                .endsWith(FloodProbes.BLOCKED).contains(FloodProbes.CAPTCHA);
        assertThat(expected.band).as("the band on the fresh server: a solved captcha lets the attempt through")
                .containsSubsequence(FloodProbes.CAPTCHA, FloodProbes.ALLOWED).endsWith(FloodProbes.BLOCKED);
        assertThat(expected.first).as("a fresh address's first attempt").containsExactly(FloodProbes.ALLOWED);
        assertThat(expected.realmLayer).as("the realm layer on the fresh server: quiet, then a captcha for everyone once a crowd fails")
                .containsExactly("quiet", "under attack", FloodProbes.CAPTCHA, FloodProbes.ALLOWED);

        // (a) SAML ECP: fresh unknown names from fresh addresses
        FloodProbes.inParallel(3 * PROTECTED_BOUND, i -> {
            var r = ecp().login(flooded, "ecp-" + i, "wrong", "10.1." + (i >> 8 & 0xff) + "." + (i & 0xff));
            assertThat(r.statusCode()).as("ECP fill request: %s", r.body()).isIn(200, 400, 401, 429);
        });
        // (b) solved captchas sent with the password "   "
        int blank = solvedCaptchas(flooded, "10.2.", "   ", 2 * PROTECTED_BOUND / 4);
        // (c) through paths that check a password: unknown names with wrong passwords, their captchas solved
        int wrong = solvedCaptchas(flooded, "10.3.", "wrong-password", 2 * PROTECTED_BOUND / 4);
        assertThat(wrong).as("solutions sent with a wrong password in the flooded realm").isPositive();

        Probe after = Probe.of(probes, admin, victim);
        assertThat(after.lockout).as("the exact lockout in another realm after the fills (%d blank, %d wrong solutions)", blank, wrong)
                .isEqualTo(expected.lockout);
        assertThat(after.band).as("the captcha band with a solved captcha in another realm after the fills").isEqualTo(expected.band);
        assertThat(after.first).as("a fresh address's first attempt in another realm after the fills").isEqualTo(expected.first);
        assertThat(after.realmLayer).as("the realm layer in another realm after the fills: quiet, then on for a crowd")
                .isEqualTo(expected.realmLayer);
        assertThat(server.metricValue("abuse_gate_store_degraded_total", Map.of("realm", victim)))
                .as("the other realm never counted on a shared counter").isZero();
        assertThat(server.abuseGateErrorLines()).isEmpty();
    }

    /**
     * What one realm answers: the exact lockout, the band (layer 2), a fresh address's first attempt, and the realm
     * layer: quiet after those (their failures come from one network), then on once failures arrive from a crowd of
     * {@link #CROWD} networks, where a fresh address is asked for a captcha and let through with it.
     */
    private record Probe(List<String> lockout, List<String> band, List<String> first, List<String> realmLayer) {

        static Probe of(FloodProbes probes, AdminClient admin, String realm) {
            List<String> lockout = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                lockout.addAll(probes.attempt(realm, "victim", "wrong-" + i, FloodProbes.freshAddress()));
            }
            lockout.addAll(probes.attempt(realm, "victim", PASSWORD, FloodProbes.freshAddress()));
            List<String> band = probes.layer2(realm);
            List<String> first = probes.attempt(realm, "first-" + NEXT.incrementAndGet(), "wrong", FloodProbes.freshAddress());
            List<String> realmLayer = new ArrayList<>();
            realmLayer.add(underAttack(admin, realm) ? "under attack" : "quiet");
            for (int k = 0; k < CROWD; k++) {
                probes.attempt(realm, "crowd-" + NEXT.incrementAndGet(), "wrong", "10.60." + NETWORK.incrementAndGet() + ".1");
            }
            GateIt.await("realm " + realm + " under attack after a crowd", Duration.ofSeconds(30), () -> underAttack(admin, realm));
            realmLayer.add("under attack");
            realmLayer.addAll(probes.attempt(realm, "after-crowd-" + NEXT.incrementAndGet(), "wrong", FloodProbes.freshAddress()));
            return new Probe(lockout, band, first, realmLayer);
        }

        private static boolean underAttack(AdminClient admin, String realm) {
            return Boolean.TRUE.equals(admin.realmUnderAttack(realm).get("underAttack"));
        }
    }

    /**
     * From each of {@code n} fresh addresses under {@code prefix}: unknown names with {@code password} until the
     * band asks for a captcha, then the captcha solved and sent with {@code password}. Returns how many solutions
     * were sent (an address whose requests never reach the band sends none).
     */
    private int solvedCaptchas(String realm, String prefix, String password, int n) {
        AtomicInteger sent = new AtomicInteger();
        FloodProbes.inParallel(n, i -> {
            String address = prefix + (i >> 8 & 0xff) + "." + (i & 0xff);
            for (int j = 0; j < 6; j++) {
                TokenClient.TokenResponse r = tokens.passwordGrant(realm, "fill-" + prefix + i + "-" + j, password, null, address);
                Object challenge = r.status() == 429 ? r.json().get("captcha_challenge") : null;
                if (challenge != null) {
                    String solution = AltchaSolver.solve(Json.write(challenge));
                    TokenClient.TokenResponse s = tokens.passwordGrant(realm, "fill-" + prefix + i + "-x", password, solution, address);
                    assertThat(s.status()).as("a solved captcha in the fill: %s", s).isIn(400, 401, 429);
                    sent.incrementAndGet();
                    return;
                }
                assertThat(r.status()).as("fill request: %s", r).isIn(400, 401, 429);
            }
        });
        return sent.get();
    }
}
