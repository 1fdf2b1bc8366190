package dev.abusegate.it;

import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Harness self-test for dedicated servers (a second Keycloak beside the shared one). Costs a full server
 * start, so it only runs on request: {@code mvn verify -Dkeycloak.it.harnessSelfTest=true}.
 */
@EnabledIfSystemProperty(named = "keycloak.it.harnessSelfTest", matches = "true")
class KeycloakServerLifecycleIT {

    @Test
    void dedicatedServerWithExtraOptionsStartsBesideTheSharedOneAndStopsCompletely() {
        KeycloakServer shared = KeycloakServer.shared();
        KeycloakServer dedicated = KeycloakServer.builder("lifecycle")
                .option("--spi-abuse-gate-store--infinispan--max-entries=10")
                .start();
        try {
            assertThat(dedicated.httpPort()).isNotIn(shared.httpPort(), shared.managementPort(), 8080, 9000);
            assertThat(dedicated.options()).contains("--spi-abuse-gate-store--infinispan--max-entries=10");
            String realm = dedicated.admin().importRealm(RealmBuilder.named(RealmBuilder.uniqueName("life")).user("eve", "eve-secret-1"));
            assertThat(dedicated.newBrowser().login(realm, "eve", "eve-secret-1", "192.0.2.50").loginSucceeded()).isTrue();
            assertThat(shared.admin().realmExists(realm)).isFalse();
            assertThat(dedicated.errorLines()).isEmpty();
        } finally {
            dedicated.close();
        }
        assertThat(dedicated.isAlive()).isFalse();
        assertThat(shared.isAlive()).isTrue();
    }
}
