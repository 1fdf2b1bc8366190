package dev.abusegate.it.support;

import jakarta.ws.rs.NotFoundException;
import org.keycloak.admin.client.CreatedResponseUtil;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.KeycloakBuilder;
import org.keycloak.admin.client.resource.AuthenticationManagementResource;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.admin.client.resource.UserResource;
import org.keycloak.representations.idm.AuthenticationExecutionInfoRepresentation;
import org.keycloak.representations.idm.AuthenticationFlowRepresentation;
import org.keycloak.representations.idm.AuthenticatorConfigRepresentation;
import org.keycloak.representations.idm.EventRepresentation;
import org.keycloak.representations.idm.RealmRepresentation;
import org.keycloak.representations.idm.UserRepresentation;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Keycloak's admin client (it renews its token), the gate's endpoints, README's Enable recipes and raw requests. Thread-safe. */
public final class AdminClient {

    public record Response(int status, String body) {
        public boolean isSuccess() {
            return status >= 200 && status < 300;
        }

        public Map<String, Object> jsonMap() {
            return Json.parseMap(body);
        }
    }

    private final String baseUrl;
    private final Keycloak keycloak;
    private final HttpClient http = Http.client();

    public AdminClient(String baseUrl, String username, String password) {
        this.baseUrl = baseUrl;
        this.keycloak = KeycloakBuilder.builder().serverUrl(baseUrl).realm("master").clientId("admin-cli")
                .username(username).password(password).build();
    }

    public Keycloak keycloak() {
        return keycloak;
    }

    public RealmResource realm(String realm) {
        return keycloak.realm(realm);
    }

    public void close() {
        keycloak.close();
    }

    /** A request with the admin token; {@code body} is JSON (string) or an object serialised with Jackson. */
    public Response send(String method, String path, Object body) {
        return sendAs(method, path, body, keycloak.tokenManager().getAccessTokenString());
    }

    /** A request without a body as the holder of {@code bearer} (null: anonymous). */
    public Response sendAs(String method, String path, String bearer) {
        return sendAs(method, path, null, bearer);
    }

    /** Like {@link #send} but fails unless the status is 2xx. */
    public Response expectSuccess(String method, String path, Object body) {
        Response r = send(method, path, body);
        if (!r.isSuccess()) {
            throw new IllegalStateException(method + " " + path + " -> HTTP " + r.status() + ": " + Json.abbreviate(r.body()));
        }
        return r;
    }

    public Map<String, Object> getMap(String path) {
        return expectSuccess("GET", path, null).jsonMap();
    }

    public List<Map<String, Object>> getList(String path) {
        return Json.parseList(expectSuccess("GET", path, null).body());
    }

    public Response post(String path, Object body) {
        return expectSuccess("POST", path, body);
    }

    public Response delete(String path) {
        return expectSuccess("DELETE", path, null);
    }

    /** One URL-encoded path segment (spaces become %20). */
    public static String seg(String s) {
        return Http.enc(s).replace("+", "%20");
    }

    // The gate's own endpoints (/admin/realms/{realm}/abuse-gate/...)

    /** {@code GET .../abuse-gate/state} for an address and/or an identifier (either may be null). */
    public Map<String, Object> gateState(String realm, String address, String identifier) {
        return getMap(statePath(realm, address, identifier));
    }

    /** {@code DELETE .../abuse-gate/state}: an operator clears counters and locks. */
    public Response clearGateState(String realm, String address, String identifier) {
        return delete(statePath(realm, address, identifier));
    }

    public static String statePath(String realm, String address, String identifier) {
        return gatePath(realm, "state?") + (address == null ? "" : "address=" + seg(address) + "&")
                + (identifier == null ? "" : "identifier=" + seg(identifier));
    }

    /** The realm-wide layer's state on this node ({@code GET .../abuse-gate/realm-under-attack}). */
    public Map<String, Object> realmUnderAttack(String realm) {
        return getMap(gatePath(realm, "realm-under-attack"));
    }

    public Map<String, Object> coverage(String realm) {
        return getMap(gatePath(realm, "coverage"));
    }

    /** The aliases of the flows the coverage report lists as ungated. */
    @SuppressWarnings("unchecked")
    public List<String> ungatedFlows(String realm) {
        return ((List<Map<String, Object>>) coverage(realm).get("ungatedFlows")).stream().map(f -> (String) f.get("flow")).toList();
    }

    public static String gatePath(String realm, String rest) {
        return "/admin/realms/" + seg(realm) + "/abuse-gate/" + rest;
    }

    // README's Enable recipes for flows other than the browser one

    /** Copies a stock flow and puts {@code gatedStep} (REQUIRED, with {@code config} if any) where its {@code stockStep} was. */
    public void copyWithGatedStep(String realm, String stockFlow, String copy, String stockStep, String gatedStep,
                                  Map<String, String> config) {
        AuthenticationManagementResource flows = realm(realm).flows();
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
        Supplier<AuthenticationExecutionInfoRepresentation> gated = () -> flows.getExecutions(copy).stream()
                .filter(e -> gatedStep.equals(e.getProviderId())).findFirst().orElseThrow();
        AuthenticationExecutionInfoRepresentation added = gated.get();
        added.setRequirement("REQUIRED");
        flows.updateExecutions(copy, added);
        for (int i = 0; i < 20 && gated.get().getIndex() > stock.getIndex(); i++) {
            flows.raisePriority(added.getId());
        }
        flows.removeExecution(stock.getId());
        if (config != null) {
            AuthenticatorConfigRepresentation rep = new AuthenticatorConfigRepresentation();
            rep.setAlias(copy + " config");
            rep.setConfig(config);
            CreatedResponseUtil.getCreatedId(flows.newExecutionConfig(added.getId(), rep));
        }
    }

    /** Renames a top-level flow, built-in ones too; its id comes from a partial export (the flow list lacks "saml ecp"). */
    public void renameFlow(String realm, String alias, String newAlias) {
        AuthenticationFlowRepresentation flow = realm(realm).partialExport(false, false).getAuthenticationFlows()
                .stream().filter(f -> alias.equals(f.getAlias())).findFirst()
                .orElseThrow(() -> new IllegalStateException("No flow " + alias));
        AuthenticationFlowRepresentation update = realm(realm).flows().getFlow(flow.getId());
        update.setAlias(newAlias);
        realm(realm).flows().updateFlow(flow.getId(), update);
    }

    // Shorthands over the typed client

    /** Imports a realm; returns its name. A raw POST: this older client's {@link RealmRepresentation} could drop fields. */
    public String importRealm(RealmBuilder realm) {
        return importRealm(realm.toMap());
    }

    public String importRealm(Object realmJson) {
        Map<String, Object> rep = Json.parseMap(Json.write(realmJson));
        post("/admin/realms", rep);
        return String.valueOf(rep.get("realm"));
    }

    /** Deletes a realm; no error if it does not exist. */
    public void deleteRealm(String realm) {
        try {
            realm(realm).remove();
        } catch (NotFoundException gone) {
            // nothing to delete
        }
    }

    public boolean realmExists(String realm) {
        try {
            return realm(realm).toRepresentation() != null;
        } catch (NotFoundException absent) {
            return false;
        }
    }

    public String realmId(String realm) {
        return realm(realm).toRepresentation().getId();
    }

    /** Reads the realm, lets {@code change} edit it, writes it back. */
    public void updateRealm(String realm, Consumer<RealmRepresentation> change) {
        RealmRepresentation rep = realm(realm).toRepresentation();
        change.accept(rep);
        realm(realm).update(rep);
    }

    /** Reads a user, lets {@code change} edit it, writes it back. */
    public void updateUser(String realm, String userId, Consumer<UserRepresentation> change) {
        UserResource resource = realm(realm).users().get(userId);
        UserRepresentation rep = resource.toRepresentation();
        change.accept(rep);
        resource.update(rep);
    }

    /** Creates a user as {@link RealmBuilder#user} does; returns its id. */
    public String createUser(String realm, String username, String password) {
        UserRepresentation user = Json.MAPPER.convertValue(RealmBuilder.userRepresentation(username, password),
                UserRepresentation.class);
        try (jakarta.ws.rs.core.Response r = realm(realm).users().create(user)) {
            return CreatedResponseUtil.getCreatedId(r);
        }
    }

    public Optional<String> findUserId(String realm, String username) {
        return realm(realm).users().searchByUsername(username, true).stream().map(UserRepresentation::getId).findFirst();
    }

    public List<AuthenticationExecutionInfoRepresentation> executions(String realm, String flowAlias) {
        return realm(realm).flows().getExecutions(flowAlias);
    }

    /** Stored events of a realm with the given type and error. */
    public List<EventRepresentation> eventsWithError(String realm, String type, String error) {
        return events(realm, type).stream().filter(e -> error.equals(e.getError())).toList();
    }

    /** Stored events of the realm, newest first, optionally only the given types (LOGIN, LOGIN_ERROR, ...). */
    public List<EventRepresentation> events(String realm, String... types) {
        return realm(realm).getEvents(types.length == 0 ? null : List.of(types), null, null, null, null, null, 0, 10000);
    }

    /** Polls {@link #events} until one matches (events are stored when the request's transaction ends). */
    public EventRepresentation awaitEvent(String realm, Predicate<EventRepresentation> match, Duration timeout,
                                          String... types) {
        return GateIt.awaitValue("No matching event in realm " + realm + " within " + timeout, timeout,
                () -> events(realm, types).stream().filter(match).findFirst(), () -> "events: " + Json.write(events(realm, types)));
    }

    private Response sendAs(String method, String path, Object body, String bearer) {
        HttpRequest.Builder rb = Http.request(baseUrl + path, null).header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        if (bearer != null) {
            rb.header("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            rb.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = Http.send(http, rb.build());
        return new Response(r.statusCode(), r.body());
    }
}
