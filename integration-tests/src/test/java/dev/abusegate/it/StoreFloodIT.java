package dev.abusegate.it;

import dev.abusegate.it.support.Extended;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.KeycloakServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One Keycloak with small bounds ({@code max-entries} {@value #BOUND}, {@code max-protected-entries}
 * {@value #PROTECTED_BOUND}): floods
 * of ten times the bound in the shapes of issue 24 (fresh IPv4 addresses, fresh IPv6 /64s, one address with
 * fresh usernames, solved captchas sent with empty passwords) never switch a layer or its captcha band off. After
 * floods of subjects seen once, in the flooded realm (during the first flood too) and in another realm, a fresh
 * subject meets every layer's threshold and band exactly as on the unflooded server. After a flood of subjects
 * worth two attempts each (which nothing may replace), a fresh address may meet the band early, never later, and
 * layer 3 stays exact, while a realm holding less than its fair share of every slot keeps exact counts; in a realm with the
 * captcha band off, flooded itself, a fresh address on a shared count is asked for a captcha (ALTCHA) that passes
 * when solved, where an exact count would block. Throughout, a blocked address stays blocked and a lock holds. A full store is reported as degraded (metric, WARN), never as a store failure.
 * The same on two nodes is in {@link ClusterIT}.
 */
@Extended
class StoreFloodIT {

    private static final int BOUND = 200;
    /**
     * The protective bound: no flood without password hashes writes into that table (asserted below), so it is
     * sized for what the probes themselves record: their solved captchas, in the used-captcha table of a quarter
     * of it (100).
     */
    private static final int PROTECTED_BOUND = 400;

    @Test
    void floods_of_ten_times_the_bound_never_switch_a_layer_or_the_captcha_band_off_in_any_realm() {
        KeycloakServer server = KeycloakServer.builder("flood")
                .option("--spi-abuse-gate-store--infinispan--max-entries=" + BOUND)
                .option("--spi-abuse-gate-store--infinispan--max-protected-entries=" + PROTECTED_BOUND)
                .start();
        try {
            FloodProbes probes = new FloodProbes(server);
            String flooded = probes.realm("flooded");
            String other = probes.realm("other");
            String bandOff = probes.realmWithoutBand("band-off");
            // Realms probed once, after a flood, for exact counts. A realm only keeps exact counts where it holds less
            // than its fair share of a slot (docs/clustering.md): where its own entries fill that share, its newcomers
            // make room among its own entries or spill onto its own shared counter. The realm probed before every
            // flood holds dozens of entries in 25 slots by the end (more than its share of some), so the exact probes
            // after each flood go to realms of their own, which hold only what their one probe writes.
            String quiet = probes.realm("quiet");
            String quietLate = probes.realm("quiet-late");
            long mark = server.logMark();

            // the unflooded server: the expected answers, and what the floods must not undo
            String blockedOther = probes.assertEveryLayerMeetsItsThreshold(other, 0, "before any flood");
            assertThat(probes.assertBandOffAsksForASolvableCaptcha(bandOff, 1, "before any flood"))
                    .as("with the band off and room in the store, no captcha is asked for").isZero();
            String[] blockedFlooded = new String[1];

            // floods of subjects seen once each: they make room for each other and for anyone else
            probes.floodIpv4(flooded, 10 * BOUND, () -> blockedFlooded[0] =
                    probes.assertEveryLayerMeetsItsThreshold(flooded, 1, "during a flood of fresh IPv4 addresses"));
            probes.floodIpv6(flooded, 10 * BOUND);
            probes.floodUsernames(flooded, 10 * BOUND, "192.0.2.77");
            probes.assertEveryLayerMeetsItsThreshold(flooded, 2, "after floods of IPv4 addresses, IPv6 /64s and usernames");
            probes.assertEveryLayerMeetsItsThreshold(quiet, 3, "in another realm after those floods");
            probes.assertStillHeld(other, blockedOther, 0, "after those floods");
            probes.assertStillHeld(flooded, blockedFlooded[0], 1, "after those floods");

            // addresses worth two attempts each and in the band, their captchas solved and sent with empty
            // passwords: no solution is accepted (no record), and no entry may make room for newcomers, so those
            // that find none are counted on shared counters; ten times as many solutions as the used-captcha table holds
            java.util.List<String> solutions = probes.floodEmptyPasswordSolutions(flooded, 10 * PROTECTED_BOUND / 4);
            assertThat(solutions).as("solutions sent").hasSizeGreaterThan(PROTECTED_BOUND);
            probes.assertEveryLayerCautious(flooded, 4, "after a flood of solved captchas with empty passwords");
            // another realm, holding less than its share of every slot, keeps exact answers, as on the unflooded server
            probes.assertEveryLayerMeetsItsThreshold(quietLate, 5, "in another realm after that flood");
            probes.assertStillHeld(other, blockedOther, 0, "after every flood");
            assertThat(probes.assertBandOffAsksForASolvableCaptcha(bandOff, 1, "in another realm after that flood"))
                    .as("a band-off realm outside the flood keeps exact counts: no captcha asked for").isZero();
            // none of those solutions was recorded: each is still good once for an attempt that checks a password
            probes.assertNoRecordWritten(flooded, solutions.get(0));
            probes.assertNoRecordWritten(flooded, solutions.get(solutions.size() - 1));
            probes.assertStillHeld(flooded, blockedFlooded[0], 1, "after every flood");

            assertThat(server.metricValue("abuse_gate_store_degraded_total", Map.of("realm", flooded)))
                    .as("attempts counted on shared counters at the bound are reported").isPositive();
            assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", flooded)))
                    .as("a full store is not a failing one").isZero();
            assertThat(server.logTextSince(mark)).as("a WARN says the store is at its bound").contains("at its bound");

            // last (its flood takes the place of entries of the realm above, which holds more than its share of many
            // slots): a realm with the band off, flooded itself with addresses nothing may replace: its fresh
            // addresses are counted on its own shared counters and asked for the realm's captcha (ALTCHA) where an
            // exact count would block, never refused
            probes.floodAddressesSeenTwice(bandOff, 10 * BOUND);
            assertThat(probes.assertBandOffAsksForASolvableCaptcha(bandOff, 3, "after a flood of its own"))
                    .as("fresh addresses of a band-off realm asked for a captcha on shared counters").isPositive();
            assertThat(server.abuseGateErrorLines()).isEmpty();
        } finally {
            server.close();
        }
    }
}
