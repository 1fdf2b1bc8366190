package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.StoreFlood;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One Keycloak started with a small {@code max-entries}: a lock set before a flood of ten times that many cheap
 * requests still holds after it, the flood is reported (metric and WARN), and the store never dropped anything
 * to make room. The same on two nodes is in {@link ClusterIT}.
 */
class StoreFloodIT {

    private static final int MAX_ENTRIES = 200;

    @Test
    void a_flood_of_ten_times_max_entries_cheap_requests_never_erases_a_lock() {
        KeycloakServer server = KeycloakServer.builder("flood")
                .option("--spi-abuse-gate-store--infinispan--max-entries=" + MAX_ENTRIES)
                .start();
        try {
            String realm = StoreFlood.realm(server.admin(), "flood");
            StoreFlood.lockVictim(realm, List.of(server));
            long mark = server.logMark();

            StoreFlood.flood(realm, List.of(server), 10 * MAX_ENTRIES);

            StoreFlood.assertVictimLocked(realm, List.of(server));
            assertThat(server.metricValue("abuse_gate_store_failures_total", Map.of("realm", realm, "reason", "full")))
                    .as("decisions made at the bound are counted").isPositive();
            assertThat(server.logTextSince(mark)).as("a WARN says the store is at its bound").contains("at its bound");
            assertThat(server.abuseGateErrorLines()).isEmpty();
        } finally {
            server.close();
        }
    }
}
