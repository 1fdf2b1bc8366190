package dev.abusegate.keycloak.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.AuthenticationExecutionModel.Requirement;

/**
 * The coverage walk over bound flows, on flows built in memory: a binding is gated only when every password step
 * reachable in its flow (sub-flows included, disabled ones not) is a gated one, each ungated step is named with the
 * gated step to use instead, and the start-up line names where each flow is bound.
 */
class PasswordCoverageTest {

    private static final PasswordCoverage.GatedSteps GATED = new PasswordCoverage.GatedSteps(
            Set.of("abuse-gate-password-form", "abuse-gate-username-form", "abuse-gate-username-password-form"),
            Map.of("auth-password-form", "abuse-gate-password-form",
                    "auth-username-password-form", "abuse-gate-username-password-form"));

    /** Flows by id, each a list of executions; a flow's alias is its id. */
    private final Map<String, List<AuthenticationExecutionModel>> flows = new HashMap<>();

    private void step(String flowId, String providerId, Requirement requirement) {
        AuthenticationExecutionModel e = new AuthenticationExecutionModel();
        e.setAuthenticator(providerId);
        e.setRequirement(requirement);
        e.setAuthenticatorFlow(false);
        flows.computeIfAbsent(flowId, id -> new ArrayList<>()).add(e);
    }

    private void subFlow(String flowId, String subFlowId, Requirement requirement) {
        AuthenticationExecutionModel e = new AuthenticationExecutionModel();
        e.setFlowId(subFlowId);
        e.setRequirement(requirement);
        e.setAuthenticatorFlow(true);
        flows.computeIfAbsent(flowId, id -> new ArrayList<>()).add(e);
        flows.computeIfAbsent(subFlowId, id -> new ArrayList<>());
    }

    private PasswordCoverage.Report report(PasswordCoverage.Bound... bound) {
        return PasswordCoverage.report(List.of(bound), id -> id, id -> flows.getOrDefault(id, List.of()).stream(), GATED,
                id -> id.equals("auth-password-form") ? "Password Form" : id);
    }

    /** The one binding of a report over {@code flowId} bound as {@code boundAs}, checked to be (not) gated and to (not) check passwords. */
    private PasswordCoverage.Binding only(String boundAs, String flowId, boolean gated, boolean checksPasswords) {
        PasswordCoverage.Report report = report(new PasswordCoverage.Bound(boundAs, flowId));
        assertThat(report.bindings()).singleElement().satisfies(b -> {
            assertThat(b.boundAs()).isEqualTo(boundAs);
            assertThat(b.gated()).as("gated").isEqualTo(gated);
            assertThat(b.checksPasswords()).as("checks passwords").isEqualTo(checksPasswords);
        });
        assertThat(report.ungated()).hasSize(gated ? 0 : 1);
        return report.bindings().get(0);
    }

    @Test
    void a_stock_password_form_nested_in_reset_credentials_is_named_with_its_replacement() {
        step("reset", "reset-credentials-choose-user", Requirement.REQUIRED);
        subFlow("reset", "reset check", Requirement.REQUIRED);
        subFlow("reset check", "reset check deeper", Requirement.CONDITIONAL);
        step("reset check deeper", "auth-password-form", Requirement.REQUIRED);

        PasswordCoverage.Binding b = only("reset credentials flow", "reset", false, true);

        assertThat(b.flow().ungatedSteps()).containsExactly(
                new PasswordCoverage.Step("auth-password-form", "Password Form", "abuse-gate-password-form"));
    }

    @Test
    void a_gated_step_with_a_stock_one_beside_it_is_not_gated() {
        step("browser copy", "abuse-gate-username-password-form", Requirement.ALTERNATIVE);
        subFlow("browser copy", "forms", Requirement.ALTERNATIVE);
        step("forms", "auth-username-password-form", Requirement.REQUIRED);

        PasswordCoverage.Binding b = only("browser flow", "browser copy", false, true);

        assertThat(b.flow().gatedSteps()).containsExactly("abuse-gate-username-password-form");
        assertThat(b.flow().ungatedSteps()).extracting(PasswordCoverage.Step::gatedStep).containsExactly("abuse-gate-username-password-form");
    }

    @Test
    void a_disabled_stock_step_or_sub_flow_checks_nothing() {
        step("browser copy", "auth-username-password-form", Requirement.DISABLED);
        subFlow("browser copy", "old forms", Requirement.DISABLED);
        step("old forms", "auth-password-form", Requirement.REQUIRED);
        step("browser copy", "abuse-gate-username-password-form", Requirement.REQUIRED);

        PasswordCoverage.Binding b = only("browser flow", "browser copy", true, true);

        assertThat(b.flow().ungatedSteps()).isEmpty();
    }

    @Test
    void a_flow_without_password_steps_is_gated_and_checks_no_password() {
        step("registration", "registration-page-form", Requirement.REQUIRED);
        step("registration", "abuse-gate-username-form", Requirement.REQUIRED);

        PasswordCoverage.Binding b = only("registration flow", "registration", true, false);

        assertThat(b.flow().gatedSteps()).as("a gated username step checks no password").containsExactly("abuse-gate-username-form");
    }

    @Test
    void a_flow_bound_twice_is_one_flow_and_two_bindings_in_binding_order() {
        step("browser", "auth-username-password-form", Requirement.REQUIRED);
        step("gated", "abuse-gate-password-form", Requirement.REQUIRED);

        PasswordCoverage.Report report = report(new PasswordCoverage.Bound("browser flow", "browser"),
                new PasswordCoverage.Bound("post broker login flow of identity provider 'idp'", "gated"),
                new PasswordCoverage.Bound("browser flow override of client 'app'", "browser"));

        assertThat(report.bindings()).extracting(PasswordCoverage.Binding::boundAs, PasswordCoverage.Binding::gated).containsExactly(
                tuple("browser flow", false),
                tuple("post broker login flow of identity provider 'idp'", true),
                tuple("browser flow override of client 'app'", false));
        assertThat(report.ungated()).singleElement().satisfies(f -> assertThat(f.boundAs())
                .containsExactly("browser flow", "browser flow override of client 'app'"));
    }

    @Test
    void sub_flows_that_refer_to_each_other_are_walked_once() {
        subFlow("a", "b", Requirement.REQUIRED);
        subFlow("b", "a", Requirement.REQUIRED);
        step("b", "auth-password-form", Requirement.REQUIRED);

        PasswordCoverage.Binding b = only("browser flow", "a", false, true);

        assertThat(b.flow().ungatedSteps()).hasSize(1);
    }

    @Test
    void the_start_up_line_names_where_each_flow_is_bound_and_what_to_use_instead() {
        step("reset copy", "auth-password-form", Requirement.REQUIRED);
        step("broker copy", "auth-username-password-form", Requirement.REQUIRED);

        PasswordCoverage.Report report = report(new PasswordCoverage.Bound("reset credentials flow", "reset copy"),
                new PasswordCoverage.Bound("first broker login flow of identity provider 'corp'", "broker copy"));

        assertThat(PasswordCoverage.describe("acme", report.ungated()))
                .contains("realm 'acme' still checks passwords with ungated steps")
                .contains("flow 'reset copy' (reset credentials flow): Password Form [auth-password-form], use abuse-gate-password-form")
                .contains("flow 'broker copy' (first broker login flow of identity provider 'corp'): auth-username-password-form "
                        + "[auth-username-password-form], use abuse-gate-username-password-form");
    }
}
