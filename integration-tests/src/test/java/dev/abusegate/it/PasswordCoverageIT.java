package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.CreatedResponseUtil;
import org.keycloak.admin.client.resource.AuthenticationManagementResource;
import org.keycloak.admin.client.resource.ClientResource;
import org.keycloak.representations.idm.AuthenticationExecutionInfoRepresentation;
import org.keycloak.representations.idm.AuthenticationFlowRepresentation;
import org.keycloak.representations.idm.ClientRepresentation;
import org.keycloak.representations.idm.IdentityProviderRepresentation;

/**
 * The coverage report an operator reads: {@code GET /admin/realms/{realm}/abuse-gate/coverage} lists the realm's bound
 * flows that still check passwords with one of Keycloak's ungated steps, where each is bound and what to use instead;
 * a realm gated everywhere answers {@code gated: true}; {@code bindings} says for every binding Keycloak runs (realm
 * bindings, identity providers' flows, clients' overrides) whether it is gated. The start-up WARN says the same for the
 * realms present then.
 */
class PasswordCoverageIT extends ServerTest {

    @Test
    @SuppressWarnings("unchecked")
    void a_realm_with_keycloaks_own_password_steps_is_reported_flow_by_flow() {
        String realm = importRealm(RealmBuilder.unique("coverage-stock").user("alice", "pw-1"));
        Map<String, Object> report = admin.coverage(realm);
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
        String realm = importRealm(RealmBuilder.unique("coverage-gated").user("alice", "pw-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null));
        Map<String, Object> report = admin.coverage(realm);
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
        Map<String, Object> after = admin.coverage(realm);
        assertThat(after.get("gated")).isEqualTo(false);
        assertThat(after.toString()).contains("browser flow override of client '" + RealmBuilder.CLIENT_ID + "'")
                .contains("auth-username-password-form");
        assertThat(binding(after, "browser flow override of client '" + RealmBuilder.CLIENT_ID + "'"))
                .containsEntry("flow", "browser").containsEntry("gated", false);
        assertThat(binding(after, "browser flow")).containsEntry("flow", RealmBuilder.GATED_BROWSER_FLOW).containsEntry("gated", true);
    }

    @Test
    void a_stock_password_form_in_a_bound_copy_of_reset_credentials_is_not_gated_until_the_gated_form_replaces_it() {
        String realm = importRealm(gatedRealm("coverage-reset"));
        AuthenticationManagementResource flows = admin.realm(realm).flows();
        CreatedResponseUtil.getCreatedId(flows.copy("reset credentials", Map.of("newName", "reset with password")));
        String stockForm = addStep(realm, "reset with password", "auth-password-form");
        admin.updateRealm(realm, r -> r.setResetCredentialsFlow("reset with password"));
        assertThat(admin.coverage(realm).get("gated")).as("a step added DISABLED checks nothing").isEqualTo(true);

        require(flows, "reset with password", stockForm);
        Map<String, Object> report = admin.coverage(realm);
        assertThat(report.get("gated")).isEqualTo(false);
        assertUngated(report, "reset with password", "reset credentials flow", "auth-password-form", "Password Form",
                "abuse-gate-password-form");

        admin.copyWithGatedStep(realm, "reset with password", "reset with gated password", "auth-password-form",
                "abuse-gate-password-form", null);
        admin.updateRealm(realm, r -> r.setResetCredentialsFlow("reset with gated password"));
        assertGated(admin.coverage(realm), "reset credentials flow", "reset with gated password", "abuse-gate-password-form");
    }

    @Test
    void a_clients_browser_and_direct_grant_overrides_with_stock_steps_are_not_gated_and_with_gated_ones_are() {
        String realm = importRealm(gatedRealm("coverage-client"));
        CreatedResponseUtil.getCreatedId(admin.realm(realm).flows().copy("browser", Map.of("newName", "browser stock copy")));
        String browserClient = "browser flow override of client '" + RealmBuilder.CLIENT_ID + "'";
        String grantClient = "direct grant flow override of client '" + RealmBuilder.CLIENT_ID + "'";

        overrideFlows(realm, "browser stock copy", "direct grant");
        Map<String, Object> report = admin.coverage(realm);
        assertThat(report.get("gated")).isEqualTo(false);
        assertUngated(report, "browser stock copy", browserClient, "auth-username-password-form", "Username Password Form",
                "abuse-gate-username-password-form");
        assertUngated(report, "direct grant", grantClient, "direct-grant-validate-password", "Password",
                "abuse-gate-direct-grant");

        overrideFlows(realm, RealmBuilder.GATED_BROWSER_FLOW, RealmBuilder.GATED_DIRECT_GRANT_FLOW);
        Map<String, Object> gated = admin.coverage(realm);
        assertGated(gated, browserClient, RealmBuilder.GATED_BROWSER_FLOW, GateIt.USERNAME_PASSWORD_FORM);
        assertGated(gated, grantClient, RealmBuilder.GATED_DIRECT_GRANT_FLOW, "abuse-gate-direct-grant");
    }

    @Test
    void an_identity_providers_first_and_post_broker_login_flows_with_stock_forms_are_not_gated_and_with_gated_ones_are() {
        String realm = importRealm(gatedRealm("coverage-idp"));
        AuthenticationManagementResource flows = admin.realm(realm).flows();
        CreatedResponseUtil.getCreatedId(flows.copy("first broker login", Map.of("newName", "first login stock copy")));
        AuthenticationFlowRepresentation post = new AuthenticationFlowRepresentation();
        post.setAlias("post login stock");
        post.setProviderId("basic-flow");
        post.setTopLevel(true);
        CreatedResponseUtil.getCreatedId(flows.createFlow(post));
        require(flows, "post login stock", addStep(realm, "post login stock", "auth-password-form"));
        IdentityProviderRepresentation idp = new IdentityProviderRepresentation();
        idp.setAlias("corp");
        idp.setProviderId("oidc");
        idp.setEnabled(true);
        idp.setConfig(idpConfig());
        idp.setFirstBrokerLoginFlowAlias("first login stock copy");
        idp.setPostBrokerLoginFlowAlias("post login stock");
        CreatedResponseUtil.getCreatedId(admin.realm(realm).identityProviders().create(idp));
        String first = "first broker login flow of identity provider 'corp'";
        String postLogin = "post broker login flow of identity provider 'corp'";

        Map<String, Object> report = admin.coverage(realm);
        assertThat(report.get("gated")).isEqualTo(false);
        assertUngated(report, "first login stock copy", first, "idp-username-password-form",
                "Username Password Form for identity provider reauthentication", "abuse-gate-idp-username-password");
        assertUngated(report, "post login stock", postLogin, "auth-password-form", "Password Form", "abuse-gate-password-form");

        admin.copyWithGatedStep(realm, "first login stock copy", "first login gated", "idp-username-password-form",
                "abuse-gate-idp-username-password", null);
        admin.copyWithGatedStep(realm, "post login stock", "post login gated", "auth-password-form",
                "abuse-gate-password-form", null);
        IdentityProviderRepresentation rep = admin.realm(realm).identityProviders().get("corp").toRepresentation();
        rep.setFirstBrokerLoginFlowAlias("first login gated");
        rep.setPostBrokerLoginFlowAlias("post login gated");
        admin.realm(realm).identityProviders().get("corp").update(rep);
        Map<String, Object> gated = admin.coverage(realm);
        assertGated(gated, first, "first login gated", "abuse-gate-idp-username-password");
        assertGated(gated, postLogin, "post login gated", "abuse-gate-password-form");
    }

    @Test
    void the_report_needs_manage_users_as_the_state_api_does() {
        String realm = importRealm(RealmBuilder.unique("coverage-auth").user("viewer", "viewer-pw-1"));
        String token = tokens.passwordGrant(realm, "viewer", "viewer-pw-1", null, "192.0.2.120").accessToken();
        assertThat(admin.sendAs("GET", AdminClient.gatePath(realm, "coverage"), token).status())
                .as("a user of the realm without manage-users").isEqualTo(403);
    }

    @Test
    void the_start_up_warning_names_master_and_its_ungated_steps() {
        assertThat(server.logLines("WARN", "dev.abusegate")).anySatisfy(line -> assertThat(line)
                .contains("realm 'master' still checks passwords with ungated steps")
                .contains("flow 'browser' (browser flow): Username Password Form [auth-username-password-form], "
                        + "use abuse-gate-username-password-form"));
    }

    /** A realm whose browser and direct grant bindings are gated, and whose other flows are Keycloak's own. */
    private static RealmBuilder gatedRealm(String prefix) {
        return RealmBuilder.unique(prefix).user("alice", "pw-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null);
    }

    /** Adds {@code providerId} at the top level of {@code flow} (Keycloak adds it DISABLED); its execution id. */
    private String addStep(String realm, String flow, String providerId) {
        AuthenticationManagementResource flows = admin.realm(realm).flows();
        flows.addExecution(flow, Map.of("provider", providerId));
        return flows.getExecutions(flow).stream().filter(e -> providerId.equals(e.getProviderId()) && e.getLevel() == 0)
                .findFirst().orElseThrow().getId();
    }

    private static void require(AuthenticationManagementResource flows, String flow, String executionId) {
        AuthenticationExecutionInfoRepresentation e = flows.getExecutions(flow).stream()
                .filter(x -> executionId.equals(x.getId())).findFirst().orElseThrow();
        e.setRequirement("REQUIRED");
        flows.updateExecutions(flow, e);
    }

    /** Binds the test client's browser and direct grant overrides to the flows of these aliases. */
    private void overrideFlows(String realm, String browser, String directGrant) {
        Map<String, String> ids = new LinkedHashMap<>();
        admin.realm(realm).flows().getFlows().forEach(f -> ids.put(f.getAlias(), f.getId()));
        ClientResource client = admin.realm(realm).clients()
                .get(admin.realm(realm).clients().findByClientId(RealmBuilder.CLIENT_ID).get(0).getId());
        ClientRepresentation rep = client.toRepresentation();
        rep.setAuthenticationFlowBindingOverrides(Map.of("browser", ids.get(browser), "direct_grant", ids.get(directGrant)));
        client.update(rep);
    }

    /** The report's entry for the binding {@code boundAs}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> binding(Map<String, Object> report, String boundAs) {
        assertThat(report).containsKey("bindings");
        return ((List<Map<String, Object>>) report.get("bindings")).stream().filter(b -> boundAs.equals(b.get("boundAs")))
                .findFirst().orElseThrow(() -> new AssertionError("no binding '" + boundAs + "' in " + report));
    }

    /** {@code flow}, bound as {@code boundAs}, is listed with the one stock step and its replacement, and that binding is not gated. */
    @SuppressWarnings("unchecked")
    private static void assertUngated(Map<String, Object> report, String flow, String boundAs, String stockStep, String displayName,
                                      String gatedStep) {
        Map<String, String> step = Map.of("providerId", stockStep, "displayName", displayName, "gatedStep", gatedStep);
        assertThat((List<Map<String, Object>>) report.get("ungatedFlows")).as(report.toString())
                .anySatisfy(f -> {
                    assertThat(f.get("flow")).isEqualTo(flow);
                    assertThat((List<String>) f.get("boundAs")).contains(boundAs);
                    assertThat(f.get("ungatedSteps")).isEqualTo(List.of(step));
                });
        Map<String, Object> b = binding(report, boundAs);
        assertThat(b).as(b.toString()).containsEntry("flow", flow).containsEntry("gated", false).containsEntry("checksPasswords", true);
        assertThat(b.get("ungatedSteps")).isEqualTo(List.of(step));
    }

    /** The realm is gated everywhere and the binding {@code boundAs} runs {@code flow}, which checks passwords with {@code gatedStep}. */
    private static void assertGated(Map<String, Object> report, String boundAs, String flow, String gatedStep) {
        assertThat(report.get("gated")).as(report.toString()).isEqualTo(true);
        assertThat(report.get("ungatedFlows")).isEqualTo(List.of());
        Map<String, Object> b = binding(report, boundAs);
        assertThat(b).as(b.toString()).containsEntry("flow", flow).containsEntry("gated", true).containsEntry("checksPasswords", true)
                .containsEntry("ungatedSteps", List.of()).containsEntry("gatedSteps", List.of(gatedStep));
    }

    /** An OIDC identity provider that is never contacted (the report reads only its flows). */
    private Map<String, String> idpConfig() {
        String base = server.baseUrl() + "/realms/master/protocol/openid-connect";
        return Map.of("authorizationUrl", base + "/auth", "tokenUrl", base + "/token", "clientId", "broker",
                "clientSecret", "broker-secret-1", "clientAuthMethod", "client_secret_post");
    }
}
