package dev.abusegate.it.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Keycloak admin REST API client (JDK HTTP client + Jackson, plain maps). Logs in to master with
 * admin-cli (password grant) and renews the token before it expires (master tokens live 60 s).
 * Thread-safe.
 *
 * <p>Typical use:
 * <pre>{@code
 * AdminClient admin = KeycloakServer.shared().admin();
 * String realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("smoke")).user("alice", "pw"));
 * ...
 * admin.deleteRealm(realm);
 * }</pre>
 * Paths passed to the generic methods are relative to the server root, e.g. {@code /admin/realms/x}.
 * Use {@link #seg(String)} to encode path segments that may contain spaces (flow aliases).
 */
public final class AdminClient {

    /** An HTTP answer. */
    public record Response(int status, String body, Map<String, List<String>> headers) {
        /** First value of a header (case-insensitive), if any. */
        public Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
                    .map(e -> e.getValue().get(0))
                    .findFirst();
        }

        public boolean isSuccess() {
            return status >= 200 && status < 300;
        }

        public Map<String, Object> jsonMap() {
            return Json.parseMap(body);
        }

        public List<Map<String, Object>> jsonList() {
            return Json.parseList(body);
        }
    }

    private final String baseUrl;
    private final String username;
    private final String password;
    private final HttpClient http = Http.client();
    private String token;
    private long tokenValidUntilNanos;

    /** Use {@link KeycloakServer#admin()} unless you need another account. */
    public AdminClient(String baseUrl, String username, String password) {
        this.baseUrl = baseUrl;
        this.username = username;
        this.password = password;
    }

    // ------------------------------------------------------------------------------------------
    // Generic requests

    /** Sends a request with the admin token; {@code body} is JSON (string) or an object serialised with Jackson. */
    public Response send(String method, String path, Object body) {
        Response r = sendOnce(method, path, body, token());
        if (r.status() == 401) {
            synchronized (this) {
                token = null;
            }
            r = sendOnce(method, path, body, token());
        }
        return r;
    }

    /** Sends a request without a body as the holder of {@code bearer} (null: anonymous), not with the admin token. */
    public Response sendAs(String method, String path, String bearer) {
        return sendOnce(method, path, null, bearer);
    }

    /** Like {@link #send} but fails unless the status is 2xx. */
    public Response expectSuccess(String method, String path, Object body) {
        Response r = send(method, path, body);
        if (!r.isSuccess()) {
            throw new IllegalStateException(method + " " + path + " -> HTTP " + r.status() + ": " + Json.abbreviate(r.body()));
        }
        return r;
    }

    /** The realm-wide layer's state on this node ({@code GET .../abuse-gate/realm-under-attack}). */
    public Map<String, Object> realmUnderAttack(String realm) {
        return getMap("/admin/realms/" + seg(realm) + "/abuse-gate/realm-under-attack");
    }

    public Map<String, Object> getMap(String path) {
        return expectSuccess("GET", path, null).jsonMap();
    }

    public List<Map<String, Object>> getList(String path) {
        return expectSuccess("GET", path, null).jsonList();
    }

    public Response post(String path, Object body) {
        return expectSuccess("POST", path, body);
    }

    public Response put(String path, Object body) {
        return expectSuccess("PUT", path, body);
    }

    public Response delete(String path) {
        return expectSuccess("DELETE", path, null);
    }

    /** URL-encodes one path segment (spaces become %20). */
    public static String seg(String s) {
        return Http.enc(s).replace("+", "%20");
    }

    // ------------------------------------------------------------------------------------------
    // Realms and users

    /** Imports a realm (POST /admin/realms) from a {@link RealmBuilder}; returns the realm name. */
    public String importRealm(RealmBuilder realm) {
        return importRealm(realm.toMap());
    }

    /** Imports a realm from its JSON representation (string or map); returns the realm name. */
    public String importRealm(Object realmJson) {
        Map<String, Object> rep = realmJson instanceof String s ? Json.parseMap(s) : Json.parseMap(Json.write(realmJson));
        String name = String.valueOf(rep.get("realm"));
        post("/admin/realms", rep);
        return name;
    }

    /** Deletes a realm; no error if it does not exist. */
    public void deleteRealm(String realm) {
        Response r = send("DELETE", "/admin/realms/" + seg(realm), null);
        if (!r.isSuccess() && r.status() != 404) {
            throw new IllegalStateException("DELETE realm " + realm + " -> HTTP " + r.status() + ": " + r.body());
        }
    }

    public boolean realmExists(String realm) {
        return send("GET", "/admin/realms/" + seg(realm), null).status() == 200;
    }

    /** The realm representation. */
    public Map<String, Object> realm(String realm) {
        return getMap("/admin/realms/" + seg(realm));
    }

    /** Partial update of a realm (PUT with only the given fields), e.g. {@code Map.of("bruteForceProtected", true)}. */
    public void updateRealm(String realm, Map<String, ?> fields) {
        put("/admin/realms/" + seg(realm), fields);
    }

    /**
     * Creates an enabled user with a non-temporary password and a complete profile (email, first and
     * last name, so Keycloak asks for no profile update on login); returns the user id.
     */
    public String createUser(String realm, String username, String password) {
        Map<String, Object> user = RealmBuilder.userRepresentation(username, password);
        Response r = post("/admin/realms/" + seg(realm) + "/users", user);
        String location = r.header("Location").orElseThrow(() -> new IllegalStateException("No Location for new user"));
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /** The id of a user by exact username, if present. */
    public Optional<String> findUserId(String realm, String username) {
        return getList("/admin/realms/" + seg(realm) + "/users?exact=true&username=" + seg(username)).stream()
                .map(u -> (String) u.get("id"))
                .findFirst();
    }

    // ------------------------------------------------------------------------------------------
    // Authentication flows (the building blocks of GatedFlows)

    /** All top-level flows of the realm. */
    public List<Map<String, Object>> flows(String realm) {
        return getList("/admin/realms/" + seg(realm) + "/authentication/flows");
    }

    /** Copies a flow (e.g. "browser") to {@code newName}; sub-flows are copied as "{newName} {sub-flow}" ("… forms"). */
    public void copyFlow(String realm, String flowAlias, String newName) {
        post("/admin/realms/" + seg(realm) + "/authentication/flows/" + seg(flowAlias) + "/copy", Map.of("newName", newName));
    }

    /**
     * Executions of a flow, nested ones included (each with id, providerId, displayName, requirement,
     * level, index, authenticationFlow, flowId, authenticationConfig).
     */
    public List<Map<String, Object>> executions(String realm, String flowAlias) {
        return getList("/admin/realms/" + seg(realm) + "/authentication/flows/" + seg(flowAlias) + "/executions");
    }

    /** Adds an execution of {@code providerId} at the end of the (sub-)flow; returns its id (DISABLED until changed). */
    public String addExecution(String realm, String flowAlias, String providerId) {
        Response r = post("/admin/realms/" + seg(realm) + "/authentication/flows/" + seg(flowAlias) + "/executions/execution",
                Map.of("provider", providerId));
        return r.header("Location").map(l -> l.substring(l.lastIndexOf('/') + 1))
                .orElseThrow(() -> new IllegalStateException("No Location for the new execution"));
    }

    /** Sets the requirement (REQUIRED, ALTERNATIVE, DISABLED, CONDITIONAL) of an execution found in {@code flowAlias}. */
    public void setRequirement(String realm, String flowAlias, String executionId, String requirement) {
        Map<String, Object> exec = executions(realm, flowAlias).stream()
                .filter(e -> executionId.equals(e.get("id")))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No execution " + executionId + " in " + flowAlias));
        Map<String, Object> update = new LinkedHashMap<>(exec);
        update.put("requirement", requirement);
        put("/admin/realms/" + seg(realm) + "/authentication/flows/" + seg(flowAlias) + "/executions", update);
    }

    /** Moves an execution one place up in its flow. */
    public void raisePriority(String realm, String executionId) {
        post("/admin/realms/" + seg(realm) + "/authentication/executions/" + seg(executionId) + "/raise-priority", null);
    }

    public void deleteExecution(String realm, String executionId) {
        delete("/admin/realms/" + seg(realm) + "/authentication/executions/" + seg(executionId));
    }

    /** Attaches an authenticator config (string values) to an execution; returns the config id. */
    public String addExecutionConfig(String realm, String executionId, String alias, Map<String, String> config) {
        Response r = post("/admin/realms/" + seg(realm) + "/authentication/executions/" + seg(executionId) + "/config",
                Map.of("alias", alias, "config", config));
        return r.header("Location").map(l -> l.substring(l.lastIndexOf('/') + 1)).orElse(null);
    }

    // ------------------------------------------------------------------------------------------
    // Events, server info

    /**
     * Stored events of the realm, newest first, optionally only the given types (LOGIN, LOGIN_ERROR, ...).
     * Each event has type, realmId, clientId, userId, ipAddress, error, details (map), time.
     */
    public List<Map<String, Object>> events(String realm, String... types) {
        StringBuilder q = new StringBuilder("/admin/realms/" + seg(realm) + "/events?max=10000");
        for (String t : types) {
            q.append("&type=").append(seg(t));
        }
        return getList(q.toString());
    }

    /** Polls {@link #events} until one matches (events are stored when the request's transaction ends). */
    public Map<String, Object> awaitEvent(String realm, Predicate<Map<String, Object>> match, Duration timeout, String... types) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Map<String, Object>> last;
        do {
            last = events(realm, types);
            Optional<Map<String, Object>> hit = last.stream().filter(match).findFirst();
            if (hit.isPresent()) {
                return hit.get();
            }
            GateIt.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("No matching event in realm " + realm + " within " + timeout + "; events: " + last);
    }

    /** GET /admin/serverinfo. */
    public Map<String, Object> serverInfo() {
        return getMap("/admin/serverinfo");
    }

    /** Provider ids the server knows for an SPI (e.g. "authenticator"), from the server info. */
    @SuppressWarnings("unchecked")
    public Set<String> providerIds(String spi) {
        Map<String, Object> providers = (Map<String, Object>) serverInfo().get("providers");
        Map<String, Object> entry = providers == null ? null : (Map<String, Object>) providers.get(spi);
        if (entry == null) {
            return Set.of();
        }
        return new TreeSet<>(((Map<String, Object>) entry.get("providers")).keySet());
    }

    // ------------------------------------------------------------------------------------------

    private Response sendOnce(String method, String path, Object body, String bearer) {
        HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json");
        if (bearer != null) {
            rb.header("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            rb.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        } else {
            rb.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return exchange(rb.build());
    }

    private synchronized String token() {
        if (token != null && System.nanoTime() < tokenValidUntilNanos) {
            return token;
        }
        String form = "grant_type=password&client_id=admin-cli&username=" + seg(username) + "&password=" + seg(password);
        Response r = exchange(HttpRequest.newBuilder(URI.create(baseUrl + "/realms/master/protocol/openid-connect/token"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build());
        if (r.status() != 200) {
            throw new IllegalStateException("Admin login failed: HTTP " + r.status() + ": " + r.body());
        }
        Map<String, Object> json = r.jsonMap();
        token = (String) json.get("access_token");
        long expiresIn = ((Number) json.getOrDefault("expires_in", 60)).longValue();
        tokenValidUntilNanos = System.nanoTime() + Duration.ofSeconds(Math.max(5, expiresIn - 15)).toNanos();
        return token;
    }

    private Response exchange(HttpRequest request) {
        HttpResponse<String> r = Http.send(http, request);
        return new Response(r.statusCode(), r.body(), r.headers().map());
    }
}
