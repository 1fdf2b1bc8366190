package dev.abusegate.keycloak.admin;

import dev.abusegate.engine.keys.AddressKeys;
import dev.abusegate.keycloak.GateRuntime;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.steps.AccountNames;
import dev.abusegate.engine.SubjectState;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.config.GateOptions;
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
import java.util.Locale;
import java.util.Map;
import org.keycloak.events.admin.OperationType;
import org.keycloak.events.admin.ResourceType;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.utils.KeycloakModelUtils;
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
                          @QueryParam("ipv6Prefix") Integer ipv6Prefix, @QueryParam("ipv6NetworkPrefix") Integer ipv6NetworkPrefix) {
        auth.users().requireManage();
        Response bad = validate(address, identifier, ipv6Prefix, ipv6NetworkPrefix);
        if (bad != null) {
            return bad;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            SubjectState st = GateRuntime.of(session).gate().state(realm.getId(), present(address) ? address : null,
                    present(identifier) ? identifier : null, prefix(ipv6Prefix), networkPrefix(ipv6NetworkPrefix));
            if (st.address() != null) {
                Map<String, Object> a = new LinkedHashMap<>();
                String canonical = AddressKeys.canonical(address, prefix(ipv6Prefix));
                a.put("key", canonical == null ? "(not an IP address; keyed as itself)" : canonical);
                a.put("attempts", st.address().attempts());
                a.put("attemptsSecondsLeft", seconds(st.address().attemptsRemainingMillis()));
                a.put("distinctIdentifiers", st.address().distinctIdentifiers());
                a.put("distinctIdentifiersSecondsLeft", seconds(st.address().distinctRemainingMillis()));
                out.put("address", a);
            }
            if (st.network() != null) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("key", AddressKeys.canonical(address, networkPrefix(ipv6NetworkPrefix)));
                n.put("attempts", st.network().attempts());
                n.put("attemptsSecondsLeft", seconds(st.network().attemptsRemainingMillis()));
                out.put("network", n);
            }
            if (st.identifier() != null) {
                Map<String, Object> i = new LinkedHashMap<>();
                i.put("failures", st.identifier().taken());
                i.put("failuresSecondsLeft", seconds(st.identifier().failuresRemainingMillis()));
                i.put("locked", st.identifier().locked());
                i.put("lockSecondsLeft", seconds(st.identifier().lockRemainingMillis()));
                out.put("identifier", i);
            }
            if (st.pair() != null) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("attempts", st.pair().attempts());
                p.put("attemptsSecondsLeft", seconds(st.pair().remainingMillis()));
                p.put("identifierSeenFromAddress", st.pair().identifierSeenFromAddress());
                out.put("pair", p);
            }
        } catch (RealmSecrets.NoRealmKey e) {
            return noKey(e);
        } catch (RuntimeException e) {
            return error(Response.Status.SERVICE_UNAVAILABLE, "counter_store_unavailable", "The counter store cannot answer right now.");
        }
        return Response.ok(out).build();
    }

    /**
     * The fifth layer's state in this realm, as the node answering holds it: whether it is on, under attack, the
     * window's count summed over the nodes, the entry level and the learned baseline. Needs view-realm.
     */
    @GET
    @Path("realm-under-attack")
    @Produces(MediaType.APPLICATION_JSON)
    public Response realmUnderAttack() {
        auth.realm().requireViewRealm();
        RealmWatch watch = GateRuntime.of(session).gate().realmWatch();
        Map<String, Object> out = new LinkedHashMap<>();
        RealmWatch.State st = watch == null ? null : watch.state(realm.getId());
        out.put("enabled", st != null && st.enabled());
        out.put("underAttack", st != null && st.underAttack());
        out.put("failuresInWindow", st == null ? 0 : st.count());
        out.put("entryLevel", st == null || st.entryLevel() == Long.MAX_VALUE ? null : st.entryLevel());
        out.put("baseline", st == null ? 0 : Math.round(st.baseline() * 10) / 10.0);
        out.put("sinceSecondsAgo", st == null || st.sinceMillis() == 0 ? null : (System.currentTimeMillis() - st.sinceMillis()) / 1000);
        return Response.ok(out).build();
    }

    @DELETE
    @Path("state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response clear(@QueryParam("address") String address, @QueryParam("identifier") String identifier,
                          @QueryParam("ipv6Prefix") Integer ipv6Prefix, @QueryParam("ipv6NetworkPrefix") Integer ipv6NetworkPrefix) {
        auth.users().requireManage();
        Response bad = validate(address, identifier, ipv6Prefix, ipv6NetworkPrefix);
        if (bad != null) {
            return bad;
        }
        Map<String, Object> cleared = new LinkedHashMap<>();
        List<String> reset = new ArrayList<>();
        try {
            for (SubjectState.Part part : GateRuntime.of(session).gate().clear(realm.getId(), present(address) ? address : null,
                    present(identifier) ? identifier : null, prefix(ipv6Prefix), networkPrefix(ipv6NetworkPrefix))) {
                cleared.put(part.name().toLowerCase(Locale.ROOT), true);
                switch (part) {
                    case ADDRESS:
                        reset.add("per_ip.attempts");
                        reset.add("credential_stuffing.distinct_identifiers");
                        break;
                    case NETWORK:
                        reset.add("per_ip.network_attempts");
                        break;
                    case IDENTIFIER:
                        reset.add("account_lockout.failures");
                        reset.add("account_lockout.lock");
                        reset.add("account_lockout.consecutive_locks");
                        reset.add("account_lockout.recent_wrong_passwords");
                        break;
                    default:
                        reset.add("per_ip_account.attempts");
                }
            }
            // Layer 3 keeps one budget per account under each of its login names (docs/lockout.md): lifting
            // the lock under the name the operator typed lifts it under the account's other name too.
            for (String other : otherLoginNames(identifier)) {
                GateRuntime.of(session).gate().clear(realm.getId(), null, other, prefix(ipv6Prefix));
            }
        } catch (RealmSecrets.NoRealmKey e) {
            return noKey(e);
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
        if (ipv6NetworkPrefix != null) {
            audit.put("ipv6NetworkPrefix", ipv6NetworkPrefix);
        }
        audit.put("reset", reset);
        adminEvent.operation(OperationType.DELETE)
                .resourcePath(session.getContext().getUri())
                .representation(audit)
                .success();
        return Response.ok(Map.of("cleared", cleared)).build();
    }

    /**
     * {@code GET coverage}: the realm's bound flows that still check passwords with one of Keycloak's ungated steps,
     * each with where Keycloak runs it and the gated step to use instead. {@code gated} is true when there are none.
     * Needs manage-users, as the state API does.
     */
    @GET
    @Path("coverage")
    @Produces(MediaType.APPLICATION_JSON)
    public Response coverage() {
        auth.users().requireManage();
        List<Map<String, Object>> flows = new ArrayList<>();
        for (PasswordCoverage.Flow f : PasswordCoverage.ungated(session, realm)) {
            List<Map<String, Object>> steps = new ArrayList<>();
            for (PasswordCoverage.Step s : f.ungatedSteps()) {
                Map<String, Object> step = new LinkedHashMap<>();
                step.put("providerId", s.providerId());
                step.put("displayName", s.displayName());
                step.put("gatedStep", s.gatedStep());
                steps.add(step);
            }
            Map<String, Object> flow = new LinkedHashMap<>();
            flow.put("flow", f.alias());
            flow.put("boundAs", f.boundAs());
            flow.put("ungatedSteps", steps);
            flows.add(flow);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("gated", flows.isEmpty());
        out.put("ungatedFlows", flows);
        return Response.ok(out).build();
    }

    /** The realm has no HMAC key: the gate keeps no state it could show or clear. */
    private Response noKey(RuntimeException e) {
        GateRuntime.of(session).warnNoKey(realm, e);
        return error(Response.Status.SERVICE_UNAVAILABLE, "no_realm_key",
                "The realm has no active HMAC key; add or enable an HMAC key provider in Realm settings > Keys.");
    }

    private static int prefix(Integer ipv6Prefix) {
        return ipv6Prefix == null ? GateOptions.DEFAULT_IPV6_PREFIX : ipv6Prefix;
    }

    private static int networkPrefix(Integer ipv6NetworkPrefix) {
        return ipv6NetworkPrefix == null ? GateOptions.DEFAULT_IPV6_NETWORK_PREFIX : ipv6NetworkPrefix;
    }

    /** The account's login names other than the one typed (its username, its e-mail where e-mail login is on). */
    private List<String> otherLoginNames(String identifier) {
        if (!present(identifier)) {
            return List.of();
        }
        String typed = identifier.trim();
        UserModel user = KeycloakModelUtils.findUserByNameOrEmail(session, realm, typed);
        if (user == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>(AccountNames.of(realm, user));
        names.removeIf(typed::equalsIgnoreCase);
        return names;
    }

    private static Response validate(String address, String identifier, Integer ipv6Prefix, Integer ipv6NetworkPrefix) {
        if (!present(address) && !present(identifier)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "Give 'address', 'identifier', or both.");
        }
        if ((address != null && address.length() > 256) || (identifier != null && identifier.length() > 1024)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "'address' or 'identifier' is too long.");
        }
        if (ipv6Prefix != null && (ipv6Prefix < 1 || ipv6Prefix > 128)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "'ipv6Prefix' must be between 1 and 128.");
        }
        if (ipv6NetworkPrefix != null && (ipv6NetworkPrefix < 1 || ipv6NetworkPrefix > 128)) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "'ipv6NetworkPrefix' must be between 1 and 128.");
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
