package dev.abusegate.it.support;

import org.keycloak.admin.client.CreatedResponseUtil;
import org.keycloak.admin.client.resource.AuthenticationManagementResource;
import org.keycloak.representations.idm.AuthenticationExecutionInfoRepresentation;
import org.keycloak.representations.idm.AuthenticationFlowRepresentation;
import org.keycloak.representations.idm.AuthenticatorConfigRepresentation;

import java.util.List;
import java.util.Map;

/**
 * The README's Enable recipes over the admin REST API, for flows other than the browser one: copy a stock flow,
 * put a gated step where the stock password step was (same sub-flow, same place, REQUIRED, with its config), and
 * rename flows (the SAML ECP endpoint runs the flow named "saml ecp", it has no binding). Plus the coverage report.
 */
public final class GatedFlows {

    private GatedFlows() {
    }

    /**
     * Copies {@code stockFlow} to {@code copy} and replaces the copy's {@code stockStep} execution (wherever it is nested)
     * by {@code gatedStep}, REQUIRED, in the same sub-flow and place, with {@code config} attached when not null.
     */
    public static void copyWithGatedStep(AdminClient admin, String realm, String stockFlow, String copy, String stockStep,
                                         String gatedStep, Map<String, String> config) {
        AuthenticationManagementResource flows = admin.realm(realm).flows();
        CreatedResponseUtil.getCreatedId(flows.copy(stockFlow, Map.of("newName", copy)));
        List<AuthenticationExecutionInfoRepresentation> executions = flows.getExecutions(copy);
        AuthenticationExecutionInfoRepresentation stock = executions.stream()
                .filter(e -> stockStep.equals(e.getProviderId())).findFirst()
                .orElseThrow(() -> new IllegalStateException("No " + stockStep + " in " + copy));
        String parent = copy;
        for (int i = executions.indexOf(stock) - 1; i >= 0 && stock.getLevel() > 0; i--) {
            AuthenticationExecutionInfoRepresentation e = executions.get(i);
            if (Boolean.TRUE.equals(e.getAuthenticationFlow()) && e.getLevel() == stock.getLevel() - 1) {
                parent = e.getDisplayName();
                break;
            }
        }
        flows.addExecution(parent, Map.of("provider", gatedStep));
        AuthenticationExecutionInfoRepresentation gated = gated(flows, copy, gatedStep);
        gated.setRequirement("REQUIRED");
        flows.updateExecutions(copy, gated);
        for (int i = 0; i < 20 && gated(flows, copy, gatedStep).getIndex() > stock.getIndex(); i++) {
            flows.raisePriority(gated.getId());
        }
        flows.removeExecution(stock.getId());
        if (config != null) {
            AuthenticatorConfigRepresentation rep = new AuthenticatorConfigRepresentation();
            rep.setAlias(copy + " config");
            rep.setConfig(config);
            CreatedResponseUtil.getCreatedId(flows.newExecutionConfig(gated.getId(), rep));
        }
    }

    /**
     * Renames a top-level flow (built-in ones too, as Keycloak's admin API allows). Its id comes from a partial export:
     * Keycloak's flow list leaves out the flow named "saml ecp".
     */
    public static void rename(AdminClient admin, String realm, String alias, String newAlias) {
        AuthenticationManagementResource flows = admin.realm(realm).flows();
        AuthenticationFlowRepresentation flow = admin.realm(realm).partialExport(false, false).getAuthenticationFlows()
                .stream().filter(f -> alias.equals(f.getAlias())).findFirst()
                .orElseThrow(() -> new IllegalStateException("No flow " + alias));
        AuthenticationFlowRepresentation update = flows.getFlow(flow.getId());
        update.setAlias(newAlias);
        flows.updateFlow(flow.getId(), update);
    }

    /** GET /admin/realms/{realm}/abuse-gate/coverage. */
    public static Map<String, Object> coverage(AdminClient admin, String realm) {
        return admin.getMap("/admin/realms/" + AdminClient.seg(realm) + "/abuse-gate/coverage");
    }

    /** The aliases of the flows the coverage report lists as ungated. */
    @SuppressWarnings("unchecked")
    public static List<String> ungatedFlows(AdminClient admin, String realm) {
        return ((List<Map<String, Object>>) coverage(admin, realm).get("ungatedFlows")).stream()
                .map(f -> (String) f.get("flow")).toList();
    }

    private static AuthenticationExecutionInfoRepresentation gated(AuthenticationManagementResource flows, String flow,
                                                                   String gatedStep) {
        return flows.getExecutions(flow).stream().filter(e -> gatedStep.equals(e.getProviderId())).findFirst().orElseThrow();
    }
}
