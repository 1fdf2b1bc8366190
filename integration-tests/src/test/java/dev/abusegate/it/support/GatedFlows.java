package dev.abusegate.it.support;

import java.util.LinkedHashMap;
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
        admin.copyFlow(realm, stockFlow, copy);
        List<Map<String, Object>> executions = admin.executions(realm, copy);
        int at = -1;
        for (int i = 0; i < executions.size(); i++) {
            if (stockStep.equals(executions.get(i).get("providerId"))) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            throw new IllegalStateException("No " + stockStep + " in " + copy);
        }
        Map<String, Object> stock = executions.get(at);
        int level = ((Number) stock.get("level")).intValue();
        String parent = copy;
        for (int i = at - 1; i >= 0 && level > 0; i--) {
            Map<String, Object> e = executions.get(i);
            if (Boolean.TRUE.equals(e.get("authenticationFlow")) && ((Number) e.get("level")).intValue() == level - 1) {
                parent = (String) e.get("displayName");
                break;
            }
        }
        String id = admin.addExecution(realm, parent, gatedStep);
        admin.setRequirement(realm, copy, id, "REQUIRED");
        int stockIndex = ((Number) stock.get("index")).intValue();
        for (int i = 0; i < 20 && index(admin, realm, copy, id) > stockIndex; i++) {
            admin.raisePriority(realm, id);
        }
        admin.deleteExecution(realm, (String) stock.get("id"));
        if (config != null) {
            admin.addExecutionConfig(realm, id, copy + " config", config);
        }
    }

    /**
     * Renames a top-level flow (built-in ones too, as Keycloak's admin API allows). Its id comes from a partial export:
     * Keycloak's flow list leaves out the flow named "saml ecp".
     */
    @SuppressWarnings("unchecked")
    public static void rename(AdminClient admin, String realm, String alias, String newAlias) {
        Map<String, Object> export = admin.post("/admin/realms/" + AdminClient.seg(realm)
                + "/partial-export?exportClients=false&exportGroupsAndRoles=false", null).jsonMap();
        String id = ((List<Map<String, Object>>) export.get("authenticationFlows")).stream()
                .filter(f -> alias.equals(f.get("alias"))).map(f -> (String) f.get("id")).findFirst()
                .orElseThrow(() -> new IllegalStateException("No flow " + alias));
        String path = "/admin/realms/" + AdminClient.seg(realm) + "/authentication/flows/" + AdminClient.seg(id);
        Map<String, Object> update = new LinkedHashMap<>(admin.getMap(path));
        update.put("alias", newAlias);
        admin.put(path, update);
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

    private static int index(AdminClient admin, String realm, String flow, String executionId) {
        return admin.executions(realm, flow).stream().filter(e -> executionId.equals(e.get("id")))
                .map(e -> ((Number) e.get("index")).intValue()).findFirst().orElseThrow();
    }
}
