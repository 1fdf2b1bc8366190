package dev.abusegate.keycloak;

import dev.abusegate.engine.AddressKeys;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.GateKeys;
import dev.abusegate.engine.GateOptions;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.keycloak.events.admin.OperationType;
import org.keycloak.events.admin.ResourceType;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.services.resources.admin.AdminEventBuilder;
import org.keycloak.services.resources.admin.fgap.AdminPermissionEvaluator;

/**
 * {@code /admin/realms/{realm}/abuse-gate}: look up and clear the gate's state for an address, an
 * identifier, or the pair. Needs manage-users in the realm (or an equivalent fine-grained permission).
 * Each clear is an admin event whose representation records the address and identifier as the operator
 * typed them and the counters that were reset. Responses never echo the identifier.
 */
public class GateAdminResource {

    private final KeycloakSession session;
    private final RealmModel realm;
    private final AdminPermissionEvaluator auth;
    private final AdminEventBuilder adminEvent;

    public GateAdminResource(KeycloakSession session, RealmModel realm, AdminPermissionEvaluator auth, AdminEventBuilder adminEvent) {
        this.session = session;
        this.realm = realm;
        this.auth = auth;
        this.adminEvent = adminEvent.resource(ResourceType.CUSTOM);
    }

    @GET
    @Path("state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response state(@QueryParam("address") String address, @QueryParam("identifier") String identifier,
                          @QueryParam("ipv6Prefix") Integer ipv6Prefix) {
        auth.users().requireManage();
        Response bad = validate(address, identifier, ipv6Prefix);
        if (bad != null) {
            return bad;
        }
        GateKeys.Keys k;
        try {
            k = keys(address, identifier, ipv6Prefix);
        } catch (RealmSecrets.NoRealmKey e) {
            return noKey(e);
        }
        CounterStore store = GateSupport.store(session);
        long now = System.currentTimeMillis();
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            if (present(address)) {
                Map<String, Object> a = new LinkedHashMap<>();
                String canonical = AddressKeys.canonical(address, prefix(ipv6Prefix));
                a.put("key", canonical == null ? "(not an IP address; keyed as itself)" : canonical);
                a.put("attempts", store.count(k.perIp(), now));
                a.put("attemptsSecondsLeft", seconds(store.remainingMillis(k.perIp(), now)));
                a.put("distinctIdentifiers", store.distinct(k.identifiers(), k.member(), now).size());
                a.put("distinctIdentifiersSecondsLeft", seconds(store.remainingMillis(k.identifiers(), now)));
                out.put("address", a);
            }
            if (present(identifier)) {
                Map<String, Object> i = new LinkedHashMap<>();
                long lock = store.lockRemainingMillis(k.lock(), now);
                i.put("failures", store.count(k.failures(), now));
                i.put("failuresSecondsLeft", seconds(store.remainingMillis(k.failures(), now)));
                i.put("locked", lock > 0);
                i.put("lockSecondsLeft", seconds(lock));
                out.put("identifier", i);
            }
            if (present(address) && present(identifier)) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("attempts", store.count(k.perIpAccount(), now));
                p.put("attemptsSecondsLeft", seconds(store.remainingMillis(k.perIpAccount(), now)));
                p.put("identifierSeenFromAddress", store.distinct(k.identifiers(), k.member(), now).contains());
                out.put("pair", p);
            }
        } catch (RuntimeException e) {
            return error(Response.Status.SERVICE_UNAVAILABLE, "counter_store_unavailable", "The counter store cannot answer right now.");
        }
        return Response.ok(out).build();
    }

    @DELETE
    @Path("state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response clear(@QueryParam("address") String address, @QueryParam("identifier") String identifier,
                          @QueryParam("ipv6Prefix") Integer ipv6Prefix) {
        auth.users().requireManage();
        Response bad = validate(address, identifier, ipv6Prefix);
        if (bad != null) {
            return bad;
        }
        GateKeys.Keys k;
        try {
            k = keys(address, identifier, ipv6Prefix);
        } catch (RealmSecrets.NoRealmKey e) {
            return noKey(e);
        }
        CounterStore store = GateSupport.store(session);
        Map<String, Object> cleared = new LinkedHashMap<>();
        List<String> reset = new ArrayList<>();
        try {
            if (present(address)) {
                store.clear(k.perIp());
                reset.add("per_ip.attempts");
                store.clear(k.identifiers());
                reset.add("credential_stuffing.distinct_identifiers");
                cleared.put("address", true);
            }
            if (present(identifier)) {
                store.clear(k.failures());
                reset.add("account_lockout.failures");
                store.clear(k.lock());
                reset.add("account_lockout.lock");
                store.clear(k.lockCount());
                reset.add("account_lockout.consecutive_locks");
                store.clear(k.recentWrongPasswords());
                reset.add("account_lockout.recent_wrong_passwords");
                cleared.put("identifier", true);
            }
            if (present(address) && present(identifier)) {
                store.clear(k.perIpAccount());
                reset.add("per_ip_account.attempts");
                cleared.put("pair", true);
            }
        } catch (RuntimeException e) {
            return error(Response.Status.SERVICE_UNAVAILABLE, "counter_store_unavailable", "The counter store cannot answer right now.");
        }
        // The audit trail says what the operator asked for, exactly as typed, and what was reset. It is
        // Keycloak's admin event store (shown to realm administrators only when "Include representation" is
        // on), not a log line; the HTTP answer still never echoes the identifier.
        Map<String, Object> audit = new LinkedHashMap<>();
        if (present(address)) {
            audit.put("address", address);
            String canonical = AddressKeys.canonical(address, prefix(ipv6Prefix));
            audit.put("addressKey", canonical == null ? address : canonical);
        }
        if (present(identifier)) {
            audit.put("identifier", identifier);
        }
        if (ipv6Prefix != null) {
            audit.put("ipv6Prefix", ipv6Prefix);
        }
        audit.put("reset", reset);
        adminEvent.operation(OperationType.DELETE)
                .resourcePath(session.getContext().getUri())
                .representation(audit)
                .success();
        return Response.ok(Map.of("cleared", cleared)).build();
    }

    private GateKeys.Keys keys(String address, String identifier, Integer ipv6Prefix) {
        return GateSupport.keys(session, realm).forAttempt(realm.getId(), address, identifier, prefix(ipv6Prefix));
    }

    /** The realm has no HMAC key: the gate keeps no state it could show or clear. */
    private Response noKey(RuntimeException e) {
        GateSupport.warnNoKey(realm, e);
        return error(Response.Status.SERVICE_UNAVAILABLE, "no_realm_key",
                "The realm has no active HMAC key; add or enable an HMAC key provider in Realm settings > Keys.");
    }

    private static int prefix(Integer ipv6Prefix) {
        return ipv6Prefix == null ? GateOptions.DEFAULT_IPV6_PREFIX : ipv6Prefix;
    }

    private static Response validate(String address, String identifier, Integer ipv6Prefix) {
        if (!present(address) && !present(identifier)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "Give 'address', 'identifier', or both.");
        }
        if ((address != null && address.length() > 256) || (identifier != null && identifier.length() > 1024)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "'address' or 'identifier' is too long.");
        }
        if (ipv6Prefix != null && (ipv6Prefix < 1 || ipv6Prefix > 128)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "'ipv6Prefix' must be between 1 and 128.");
        }
        return null;
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }

    private static long seconds(long millis) {
        return millis < 0 ? -1 : (millis + 999) / 1000;
    }

    private static Response error(Response.Status status, String error, String description) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("error_description", description);
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
