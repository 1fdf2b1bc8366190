package dev.abusegate.it.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * A realm for {@link AdminClient#importRealm(RealmBuilder)}: {@code sslRequired: none}, the public client
 * {@value #CLIENT_ID} (standard flow and direct grants, redirect URI {@value #REDIRECT_URI}, never contacted), users
 * with a complete profile, LOGIN and LOGIN_ERROR events stored, and optionally a gated browser flow
 * {@value #GATED_BROWSER_FLOW} (cookie, then a forms sub-flow with the gated step) and a gated direct grant flow
 * {@value #GATED_DIRECT_GRANT_FLOW}, bound to the realm. Without them the realm keeps the stock flows.
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
    private boolean identityFirst;
    private String usernameStepProviderId = "auth-username-form";
    private String directGrantProviderId;
    private Map<String, String> directGrantConfig;

    private RealmBuilder(String name) {
        this.name = name;
    }

    /** A realm with this exact name. */
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

    /**
     * Browser flow {@value #GATED_BROWSER_FLOW}: Cookie (ALTERNATIVE), then sub-flow
     * "{@value #GATED_BROWSER_FLOW} forms" (ALTERNATIVE) with {@code providerId} REQUIRED; {@code config}
     * (may be null = no config, the authenticator's defaults) attached as "{@value #GATED_BROWSER_FLOW} config".
     */
    public RealmBuilder gatedBrowserFlow(String providerId, Map<String, String> config) {
        this.browserProviderId = providerId;
        this.browserConfig = config;
        this.identityFirst = false;
        return this;
    }

    /**
     * Like {@link #gatedBrowserFlow} but identity-first: the forms sub-flow runs the stock
     * "Username Form" ({@code auth-username-form}) first, then {@code providerId} (e.g.
     * {@code abuse-gate-password-form}), both REQUIRED.
     */
    public RealmBuilder identityFirstGatedBrowserFlow(String providerId, Map<String, String> config) {
        gatedBrowserFlow(providerId, config);
        this.identityFirst = true;
        return this;
    }

    /**
     * Identity-first with both steps chosen: {@code usernameProviderId} (e.g. {@code abuse-gate-username-form})
     * then {@code passwordProviderId}, both REQUIRED; a non-stock username step gets its own copy of
     * {@code config} ("{@value #GATED_BROWSER_FLOW} username config").
     */
    public RealmBuilder identityFirstGatedBrowserFlow(String usernameProviderId, String passwordProviderId, Map<String, String> config) {
        identityFirstGatedBrowserFlow(passwordProviderId, config);
        this.usernameStepProviderId = usernameProviderId;
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
            if (identityFirst) {
                boolean stock = "auth-username-form".equals(usernameStepProviderId);
                formExecutions.add(execution(usernameStepProviderId, false, 10,
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

    /**
     * A REQUIRED execution of the authenticator {@code step} (with its config, or none), or ALTERNATIVE of the sub-flow of
     * that alias; the cookie step of the browser flow is ALTERNATIVE too.
     */
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
