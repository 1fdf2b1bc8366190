package dev.abusegate.it.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * A realm to import: no TLS required, the public client {@value #CLIENT_ID}, users with a complete profile, login events
 * stored, and the stock flows unless a gated one is bound.
 */
public final class RealmBuilder {

    public static final String CLIENT_ID = "test-client";
    public static final String REDIRECT_URI = "http://localhost/it-callback";
    public static final String GATED_BROWSER_FLOW = "gated browser";
    public static final String GATED_DIRECT_GRANT_FLOW = "gated direct grant";

    private final String name;
    private final List<Map<String, Object>> users = new ArrayList<>();
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private List<String> eventTypes = List.of("LOGIN", "LOGIN_ERROR");
    private String browserProviderId;
    private Map<String, String> browserConfig;
    /** The first step of an identity-first browser flow; null for a one-page form. */
    private String usernameStep;
    private String directGrantProviderId;
    private Map<String, String> directGrantConfig;

    private RealmBuilder(String name) {
        this.name = name;
    }

    public static RealmBuilder named(String name) {
        return new RealmBuilder(name);
    }

    /** A realm named {@link #uniqueName(String)}. */
    public static RealmBuilder unique(String prefix) {
        return named(uniqueName(prefix));
    }

    /** {@code prefix} plus a random suffix, e.g. "smoke-3f9a1c2e": realms of concurrent tests never clash. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public String name() {
        return name;
    }

    /** Adds an enabled user with a non-temporary password, email {@code <username>@example.com} and a full name. */
    public RealmBuilder user(String username, String password) {
        users.add(userRepresentation(username, password));
        return this;
    }

    /** Which event types are stored (default LOGIN, LOGIN_ERROR). */
    public RealmBuilder eventTypes(String... types) {
        this.eventTypes = List.of(types);
        return this;
    }

    /** Browser flow {@value #GATED_BROWSER_FLOW}: Cookie, or a forms sub-flow with {@code providerId} (config null: defaults). */
    public RealmBuilder gatedBrowserFlow(String providerId, Map<String, String> config) {
        this.browserProviderId = providerId;
        this.browserConfig = config;
        this.usernameStep = null;
        return this;
    }

    /** Like {@link #gatedBrowserFlow} but identity-first: the stock "Username Form" first, then {@code providerId}. */
    public RealmBuilder identityFirstGatedBrowserFlow(String providerId, Map<String, String> config) {
        return identityFirstGatedBrowserFlow("auth-username-form", providerId, config);
    }

    /** Identity-first with both steps chosen, both REQUIRED; a step other than the stock one gets a copy of {@code config}. */
    public RealmBuilder identityFirstGatedBrowserFlow(String usernameProviderId, String passwordProviderId, Map<String, String> config) {
        gatedBrowserFlow(passwordProviderId, config);
        this.usernameStep = usernameProviderId;
        return this;
    }

    /** Direct grant flow {@value #GATED_DIRECT_GRANT_FLOW} with only {@code providerId} REQUIRED (and its config). */
    public RealmBuilder gatedDirectGrantFlow(String providerId, Map<String, String> config) {
        this.directGrantProviderId = providerId;
        this.directGrantConfig = config;
        return this;
    }

    /** Any other top-level realm field, e.g. {@code set("bruteForceProtected", true)}. */
    public RealmBuilder set(String field, Object value) {
        extra.put(field, value);
        return this;
    }

    /** The realm representation as maps and lists (ready for Jackson). */
    public Map<String, Object> toMap() {
        Map<String, Object> r = new LinkedHashMap<>(Map.of("realm", name, "enabled", true, "sslRequired", "none",
                "eventsEnabled", true, "eventsListeners", List.of("jboss-logging"), "enabledEventTypes", eventTypes,
                "adminEventsEnabled", false, "users", users));
        r.put("clients", List.of(Map.of("clientId", CLIENT_ID, "enabled", true, "protocol", "openid-connect",
                "publicClient", true, "standardFlowEnabled", true, "directAccessGrantsEnabled", true,
                "implicitFlowEnabled", false, "redirectUris", List.of(REDIRECT_URI), "webOrigins", List.of("+"))));
        List<Map<String, Object>> flows = new ArrayList<>();
        List<Map<String, Object>> configs = new ArrayList<>();
        if (browserProviderId != null) {
            String forms = GATED_BROWSER_FLOW + " forms";
            List<Map<String, Object>> formExecutions = new ArrayList<>();
            if (usernameStep != null) {
                boolean stock = "auth-username-form".equals(usernameStep);
                formExecutions.add(execution(usernameStep, false, 10,
                        stock ? null : config(configs, GATED_BROWSER_FLOW + " username config", browserConfig)));
            }
            formExecutions.add(execution(browserProviderId, false, 20, config(configs, GATED_BROWSER_FLOW + " config", browserConfig)));
            flows.add(flow(GATED_BROWSER_FLOW, true, List.of(execution("auth-cookie", false, 10, null), execution(forms, true, 30, null))));
            flows.add(flow(forms, false, formExecutions));
            r.put("browserFlow", GATED_BROWSER_FLOW);
        }
        if (directGrantProviderId != null) {
            flows.add(flow(GATED_DIRECT_GRANT_FLOW, true, List.of(execution(directGrantProviderId, false, 10,
                    config(configs, GATED_DIRECT_GRANT_FLOW + " config", directGrantConfig)))));
            r.put("directGrantFlow", GATED_DIRECT_GRANT_FLOW);
        }
        if (!flows.isEmpty()) {
            r.put("authenticationFlows", flows);
            r.put("authenticatorConfig", configs);
        }
        r.putAll(extra);
        return r;
    }

    /** A user representation as used by {@link #user} and {@link AdminClient#createUser}. */
    static Map<String, Object> userRepresentation(String username, String password) {
        return Map.of("username", username, "enabled", true, "email", username.toLowerCase(Locale.ROOT) + "@example.com",
                "emailVerified", true, "firstName", "Test", "lastName", username,
                "credentials", List.of(Map.of("type", "password", "value", password, "temporary", false)));
    }

    private static Map<String, Object> flow(String alias, boolean topLevel, List<Map<String, Object>> executions) {
        return Map.of("alias", alias, "description", "abuse gate integration test flow", "providerId", "basic-flow",
                "topLevel", topLevel, "builtIn", false, "authenticationExecutions", executions);
    }

    /** A REQUIRED step (with its config, or none); a sub-flow and the cookie step are ALTERNATIVE. */
    private static Map<String, Object> execution(String step, boolean subFlow, int priority, String configAlias) {
        Map<String, Object> e = new LinkedHashMap<>(Map.of(subFlow ? "flowAlias" : "authenticator", step, "authenticatorFlow", subFlow,
                "requirement", subFlow || step.equals("auth-cookie") ? "ALTERNATIVE" : "REQUIRED", "priority", priority,
                "userSetupAllowed", false));
        if (configAlias != null) {
            e.put("authenticatorConfig", configAlias);
        }
        return e;
    }

    /** Adds the config {@code alias} with {@code values} to {@code configs} and returns the alias; null for no values. */
    private static String config(List<Map<String, Object>> configs, String alias, Map<String, String> values) {
        if (values == null) {
            return null;
        }
        configs.add(Map.of("alias", alias, "config", new LinkedHashMap<>(values)));
        return alias;
    }
}
