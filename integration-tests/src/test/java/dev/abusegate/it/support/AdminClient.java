package dev.abusegate.it.support;

import jakarta.ws.rs.NotFoundException;
import org.keycloak.admin.client.CreatedResponseUtil;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.KeycloakBuilder;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.admin.client.resource.UserResource;
import org.keycloak.representations.idm.AuthenticationExecutionInfoRepresentation;
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

/**
 * The admin side of a server: Keycloak's own admin client ({@link #keycloak()}, {@link #realm}; logged in to master as
 * the bootstrap admin, it renews its token itself), one-line shorthands for what many tests do, and raw requests (paths
 * from the server root, {@link #seg} for segments with spaces) for the gate's own endpoints and for tests that assert on
 * status codes and bodies. Thread-safe.
 */
public final class AdminClient {

    /** An HTTP answer. */
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

    /** Use {@link KeycloakServer#admin()} unless you need another account. */
    public AdminClient(String baseUrl, String username, String password) {
        this.baseUrl = baseUrl;
        this.keycloak = KeycloakBuilder.builder().serverUrl(baseUrl).realm("master").clientId("admin-cli")
                .username(username).password(password).build();
    }

    /** Keycloak's admin client, logged in as this client's account. */
    public Keycloak keycloak() {
        return keycloak;
    }

    public RealmResource realm(String realm) {
        return keycloak.realm(realm);
    }

    /** Closes Keycloak's admin client (its HTTP connections); the server's own {@link KeycloakServer#close()} calls it. */
    public void close() {
        keycloak.close();
    }

    // ------------------------------------------------------------------------------------------
    // Raw requests

    /** Sends a request with the admin token; {@code body} is JSON (string) or an object serialised with Jackson. */
    public Response send(String method, String path, Object body) {
        return sendAs(method, path, body, keycloak.tokenManager().getAccessTokenString());
    }

    /** Sends a request without a body as the holder of {@code bearer} (null: anonymous), not with the admin token. */
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

    /** The realm-wide layer's state on this node ({@code GET .../abuse-gate/realm-under-attack}). */
    public Map<String, Object> realmUnderAttack(String realm) {
        return getMap("/admin/realms/" + seg(realm) + "/abuse-gate/realm-under-attack");
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

    /** URL-encodes one path segment (spaces become %20). */
    public static String seg(String s) {
        return Http.enc(s).replace("+", "%20");
    }

    // ------------------------------------------------------------------------------------------
    // One-line shorthands over the typed client, for what many tests do

    /**
     * Imports a realm from a {@link RealmBuilder}; returns its name. Raw POST of the builder's JSON: a round trip
     * through {@link RealmRepresentation} of this older client could drop fields the server knows.
     */
    public String importRealm(RealmBuilder realm) {
        return importRealm(realm.toMap());
    }

    /** Imports a realm from its JSON representation (string or map); returns the realm name. */
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

    /** Reads the realm, lets {@code change} edit the representation, writes it back. */
    public void updateRealm(String realm, Consumer<RealmRepresentation> change) {
        RealmRepresentation rep = realm(realm).toRepresentation();
        change.accept(rep);
        realm(realm).update(rep);
    }

    /** Reads a user, lets {@code change} edit the representation, writes it back. */
    public void updateUser(String realm, String userId, Consumer<UserRepresentation> change) {
        UserResource resource = realm(realm).users().get(userId);
        UserRepresentation rep = resource.toRepresentation();
        change.accept(rep);
        resource.update(rep);
    }

    /**
     * Creates an enabled user with a non-temporary password and a complete profile (email, first and
     * last name, so Keycloak asks for no profile update on login); returns the user id.
     */
    public String createUser(String realm, String username, String password) {
        UserRepresentation user = Json.MAPPER.convertValue(RealmBuilder.userRepresentation(username, password),
                UserRepresentation.class);
        try (jakarta.ws.rs.core.Response r = realm(realm).users().create(user)) {
            return CreatedResponseUtil.getCreatedId(r);
        }
    }

    /** The id of a user by exact username, if present. */
    public Optional<String> findUserId(String realm, String username) {
        return realm(realm).users().searchByUsername(username, true).stream().map(UserRepresentation::getId).findFirst();
    }

    /** Executions of a flow, nested ones included. */
    public List<AuthenticationExecutionInfoRepresentation> executions(String realm, String flowAlias) {
        return realm(realm).flows().getExecutions(flowAlias);
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

    // ------------------------------------------------------------------------------------------

    private Response sendAs(String method, String path, Object body, String bearer) {
        HttpRequest.Builder rb = Http.request(baseUrl + path, null).header("Accept", "application/json");
        if (bearer != null) {
            rb.header("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            rb.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        } else {
            rb.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = Http.send(http, rb.build());
        return new Response(r.statusCode(), r.body());
    }
}
