package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.GatedFlows;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.resource.ClientResource;
import org.keycloak.representations.idm.ClientRepresentation;

/**
 * The coverage report an operator reads: {@code GET /admin/realms/{realm}/abuse-gate/coverage} lists the realm's bound
 * flows that still check passwords with one of Keycloak's ungated steps, where each is bound and what to use instead;
 * a realm gated everywhere answers {@code gated: true}. The start-up WARN says the same for the realms present then.
 */
class PasswordCoverageIT extends ServerTest {

    @Test
    @SuppressWarnings("unchecked")
    void a_realm_with_keycloaks_own_password_steps_is_reported_flow_by_flow() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("coverage-stock")).user("alice", "pw-1"));
        Map<String, Object> report = GatedFlows.coverage(admin, realm);
        assertThat(report.get("gated")).isEqualTo(false);
        List<Map<String, Object>> flows = (List<Map<String, Object>>) report.get("ungatedFlows");
        assertThat(flows).extracting(f -> f.get("flow")).containsExactly("browser", "direct grant");
        assertThat(flows.get(0).get("boundAs")).isEqualTo(List.of("browser flow"));
        assertThat((List<Map<String, Object>>) flows.get(0).get("ungatedSteps")).singleElement().satisfies(s -> {
            assertThat(s.get("providerId")).isEqualTo("auth-username-password-form");
            assertThat(s.get("displayName")).isEqualTo("Username Password Form");
            assertThat(s.get("gatedStep")).isEqualTo("abuse-gate-username-password-form");
        });
        assertThat((List<Map<String, Object>>) flows.get(1).get("ungatedSteps")).extracting(s -> s.get("gatedStep"))
                .containsExactly("abuse-gate-direct-grant");
    }

    @Test
    void a_realm_gated_everywhere_reports_nothing_until_a_client_override_brings_an_ungated_flow_back() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("coverage-gated")).user("alice", "pw-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null));
        Map<String, Object> report = GatedFlows.coverage(admin, realm);
        assertThat(report.get("gated")).as(report.toString()).isEqualTo(true);
        assertThat(report.get("ungatedFlows")).isEqualTo(List.of());

        // The stock "browser" flow bound as one client's override: that client's logins check passwords ungated.
        String browserId = admin.realm(realm).flows().getFlows().stream().filter(f -> "browser".equals(f.getAlias()))
                .findFirst().orElseThrow().getId();
        ClientResource client = admin.realm(realm).clients()
                .get(admin.realm(realm).clients().findByClientId(RealmBuilder.CLIENT_ID).get(0).getId());
        ClientRepresentation rep = client.toRepresentation();
        rep.setAuthenticationFlowBindingOverrides(Map.of("browser", browserId));
        client.update(rep);
        Map<String, Object> after = GatedFlows.coverage(admin, realm);
        assertThat(after.get("gated")).isEqualTo(false);
        assertThat(after.toString()).contains("browser flow override of client '" + RealmBuilder.CLIENT_ID + "'")
                .contains("auth-username-password-form");
    }

    @Test
    void the_report_needs_manage_users_as_the_state_api_does() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("coverage-auth")).user("viewer", "viewer-pw-1"));
        String token = new TokenClient(server.baseUrl()).passwordGrant(realm, "viewer", "viewer-pw-1", null, "192.0.2.120").accessToken();
        assertThat(admin.sendAs("GET", "/admin/realms/" + AdminClient.seg(realm) + "/abuse-gate/coverage", token).status())
                .as("a user of the realm without manage-users").isEqualTo(403);
    }

    @Test
    void the_start_up_warning_names_master_and_its_ungated_steps() {
        assertThat(server.logLines("WARN", "dev.abusegate")).anySatisfy(line -> assertThat(line)
                .contains("realm 'master' still checks passwords with ungated steps")
                .contains("flow 'browser' (browser flow): Username Password Form [auth-username-password-form], "
                        + "use abuse-gate-username-password-form"));
    }
}
