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
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("realm", name);
        r.put("enabled", true);
        r.put("sslRequired", "none");
        r.put("eventsEnabled", true);
        r.put("eventsListeners", List.of("jboss-logging"));
        r.put("enabledEventTypes", eventTypes);
        r.put("adminEventsEnabled", false);

        Map<String, Object> client = new LinkedHashMap<>();
        client.put("clientId", CLIENT_ID);
        client.put("enabled", true);
        client.put("protocol", "openid-connect");
        client.put("publicClient", true);
        client.put("standardFlowEnabled", true);
        client.put("directAccessGrantsEnabled", true);
        client.put("implicitFlowEnabled", false);
        client.put("redirectUris", List.of(REDIRECT_URI));
        client.put("webOrigins", List.of("+"));
        r.put("clients", List.of(client));
        r.put("users", users);

        List<Map<String, Object>> flows = new ArrayList<>();
        List<Map<String, Object>> configs = new ArrayList<>();
        if (browserProviderId != null) {
            String forms = GATED_BROWSER_FLOW + " forms";
            String configAlias = browserConfig == null ? null : GATED_BROWSER_FLOW + " config";
            List<Map<String, Object>> formExecutions = new ArrayList<>();
            if (identityFirst) {
                boolean stock = "auth-username-form".equals(usernameStepProviderId);
                String usernameConfig = stock || browserConfig == null ? null : GATED_BROWSER_FLOW + " username config";
                formExecutions.add(execution(usernameStepProviderId, false, "REQUIRED", 10, usernameConfig));
                if (usernameConfig != null) {
                    configs.add(config(usernameConfig, browserConfig));
                }
            }
            formExecutions.add(execution(browserProviderId, false, "REQUIRED", 20, configAlias));
            flows.add(flow(GATED_BROWSER_FLOW, true, List.of(
                    execution("auth-cookie", false, "ALTERNATIVE", 10, null),
                    execution(forms, true, "ALTERNATIVE", 30, null))));
            flows.add(flow(forms, false, formExecutions));
            if (configAlias != null) {
                configs.add(config(configAlias, browserConfig));
            }
            r.put("browserFlow", GATED_BROWSER_FLOW);
        }
        if (directGrantProviderId != null) {
            String configAlias = directGrantConfig == null ? null : GATED_DIRECT_GRANT_FLOW + " config";
            flows.add(flow(GATED_DIRECT_GRANT_FLOW, true, List.of(
                    execution(directGrantProviderId, false, "REQUIRED", 10, configAlias))));
            if (configAlias != null) {
                configs.add(config(configAlias, directGrantConfig));
            }
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
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("username", username);
        u.put("enabled", true);
        u.put("email", username.toLowerCase(Locale.ROOT) + "@example.com");
        u.put("emailVerified", true);
        u.put("firstName", "Test");
        u.put("lastName", username);
        u.put("credentials", List.of(Map.of("type", "password", "value", password, "temporary", false)));
        return u;
    }

    private static Map<String, Object> flow(String alias, boolean topLevel, List<Map<String, Object>> executions) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("alias", alias);
        f.put("description", "abuse gate integration test flow");
        f.put("providerId", "basic-flow");
        f.put("topLevel", topLevel);
        f.put("builtIn", false);
        f.put("authenticationExecutions", executions);
        return f;
    }

    /** An execution of the authenticator {@code step} (with its config, or none), or of the sub-flow of that alias. */
    private static Map<String, Object> execution(String step, boolean subFlow, String requirement, int priority, String configAlias) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put(subFlow ? "flowAlias" : "authenticator", step);
        e.put("authenticatorFlow", subFlow);
        e.put("requirement", requirement);
        e.put("priority", priority);
        e.put("userSetupAllowed", false);
        if (configAlias != null) {
            e.put("authenticatorConfig", configAlias);
        }
        return e;
    }

    private static Map<String, Object> config(String alias, Map<String, String> values) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("alias", alias);
        c.put("config", new LinkedHashMap<>(values));
        return c;
    }
}
