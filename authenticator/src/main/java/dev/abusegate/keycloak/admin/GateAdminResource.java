package dev.abusegate.keycloak.admin;

import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.steps.AccountNames;
import dev.abusegate.engine.SubjectState;
import dev.abusegate.engine.keys.Attempt;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.keycloak.events.admin.OperationType;
import org.keycloak.events.admin.ResourceType;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.AuthenticatorConfigModel;
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
 * <p>
 * An IPv6 address is keyed under the prefixes the realm's gated steps use ({@code ipv6.prefixLength},
 * {@code ipv6.networkPrefixLength}, each step's effective settings) unless the operator names them; where the steps
 * disagree, the answer has one entry per prefix ({@code byPrefix}) and a clear clears under each.
 */
public class GateAdminResource {

    private final KeycloakSession session;
    private final RealmModel realm;
    private final AdminPermissionEvaluator auth;
    private final AdminEventBuilder adminEvent;
    private final GateRuntime runtime;

    /** {@code runtime}: the server's, which the resource's factory hands it. */
    public GateAdminResource(KeycloakSession session, RealmModel realm, AdminPermissionEvaluator auth, AdminEventBuilder adminEvent,
                             GateRuntime runtime) {
        this.session = session;
        this.realm = realm;
        this.auth = auth;
        this.adminEvent = adminEvent.resource(ResourceType.CUSTOM);
        this.runtime = runtime;
    }

    @GET
    @Path("state")
    @Produces(MediaType.APPLICATION_JSON)
    public Response state(@QueryParam("address") String address, @QueryParam("identifier") String identifier,
                          @QueryParam("ipv6Prefix") Integer ipv6Prefix, @QueryParam("ipv6NetworkPrefix") Integer ipv6NetworkPrefix) {
        return forSubject(address, identifier, ipv6Prefix, ipv6NetworkPrefix, this::describe, out -> Response.ok(out).build());
    }

    /** The state of the named subject under each of {@code keyed} (an entry per prefix when there are several). */
    private Map<String, Object> describe(String addr, String id, List<KeyPrefixes> keyed) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Map<String, Object>> byPrefix = new ArrayList<>();
        Map<String, Object> identifierPart = null;
        for (KeyPrefixes kp : keyed) {
            SubjectState st = runtime.gate().state(realm.getId(), addr, id, kp.address(), kp.network());
            Map<String, Object> entry = keyed.size() == 1 ? out : kp.describe();
            if (st.address() != null) {
                Map<String, Object> a = new LinkedHashMap<>();
                String canonical = kp.addressKey(addr);
                a.put("key", canonical == null ? "(not an IP address; keyed as itself)" : canonical);
                a.put("attempts", st.address().attempts());
                a.put("attemptsSecondsLeft", seconds(st.address().attemptsRemainingMillis()));
                a.put("distinctIdentifiers", st.address().distinctIdentifiers());
                a.put("distinctIdentifiersSecondsLeft", seconds(st.address().distinctRemainingMillis()));
                entry.put("address", a);
            }
            if (st.network() != null) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("key", kp.networkKey(addr));
                n.put("attempts", st.network().attempts());
                n.put("attemptsSecondsLeft", seconds(st.network().attemptsRemainingMillis()));
                entry.put("network", n);
            }
            if (st.identifier() != null && identifierPart == null) {
                identifierPart = new LinkedHashMap<>();
                identifierPart.put("failures", st.identifier().taken());
                identifierPart.put("failuresSecondsLeft", seconds(st.identifier().failuresRemainingMillis()));
                identifierPart.put("locked", st.identifier().locked());
                identifierPart.put("lockSecondsLeft", seconds(st.identifier().lockRemainingMillis()));
                out.put("identifier", identifierPart);
            }
            if (st.pair() != null) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("attempts", st.pair().attempts());
                p.put("attemptsSecondsLeft", seconds(st.pair().remainingMillis()));
                p.put("identifierSeenFromAddress", st.pair().identifierSeenFromAddress());
                entry.put("pair", p);
            }
            if (entry != out) {
                byPrefix.add(entry);
            }
        }
        if (!byPrefix.isEmpty()) {
            // the realm's gated steps key this address under different prefixes: each is shown, none is guessed
            out.put("byPrefix", byPrefix);
        }
        return out;
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
        RealmWatch watch = runtime.gate().realmWatch();
        Map<String, Object> out = new LinkedHashMap<>();
        RealmWatch.State st = watch == null ? null : watch.state(realm.getId());
        out.put("enabled", st != null && st.enabled());
        out.put("underAttack", st != null && st.underAttack());
        out.put("failuresInWindow", st == null ? 0 : st.count());
        out.put("networksInWindow", st == null ? 0 : st.networks());
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
        return forSubject(address, identifier, ipv6Prefix, ipv6NetworkPrefix, this::clear,
                done -> audited(done, ipv6Prefix, ipv6NetworkPrefix));
    }

    /** What a clear did: the parts cleared, the layers reset, and each prefix's part when there are several. */
    private record Cleared(String address, String identifier, List<KeyPrefixes> keyed, Map<String, Object> cleared,
                           Set<String> reset, List<Map<String, Object>> byPrefix) {
    }

    /** Clears the named subject under each of {@code keyed}. */
    private Cleared clear(String addr, String id, List<KeyPrefixes> keyed) {
        Map<String, Object> cleared = new LinkedHashMap<>();
        Set<String> reset = new LinkedHashSet<>();
        List<Map<String, Object>> byPrefix = new ArrayList<>();
        for (KeyPrefixes kp : keyed) {
            Map<String, Object> partsCleared = new LinkedHashMap<>();
            for (SubjectState.Part part : runtime.gate().clear(realm.getId(), addr, id, kp.address(), kp.network())) {
                partsCleared.put(part.name().toLowerCase(Locale.ROOT), true);
                reset.addAll(RESET.get(part));
            }
            cleared.putAll(partsCleared);
            Map<String, Object> entry = kp.describe();
            entry.put("cleared", partsCleared);
            byPrefix.add(entry);
        }
        // Layer 3 keeps one budget per account under each of its login names (docs/lockout.md): lifting
        // the lock under the name the operator typed lifts it under the account's other name too.
        for (String other : otherLoginNames(id)) {
            runtime.gate().clear(realm.getId(), null, other, keyed.get(0).address());
        }
        return new Cleared(addr, id, keyed, cleared, reset, byPrefix);
    }

    /**
     * Records what the operator asked for and what was reset as an admin event, after the clear (a failure to record
     * it is not the store's), and answers what was cleared.
     */
    private Response audited(Cleared done, Integer ipv6Prefix, Integer ipv6NetworkPrefix) {
        String addr = done.address();
        String id = done.identifier();
        List<KeyPrefixes> keyed = done.keyed();
        // The audit trail says what the operator asked for, exactly as typed, and what was reset. It is
        // Keycloak's admin event store (shown to realm administrators only when "Include representation" is
        // on), not a log line; the HTTP answer still never echoes the identifier.
        Map<String, Object> audit = new LinkedHashMap<>();
        if (addr != null) {
            audit.put("address", addr);
            List<String> keys = new ArrayList<>();
            for (KeyPrefixes kp : keyed) {
                keys.add(Attempt.addressKey(addr, kp.address()));
            }
            if (keys.size() == 1) {
                audit.put("addressKey", keys.get(0));
            } else {
                audit.put("addressKeys", keys);
            }
        }
        if (id != null) {
            audit.put("identifier", id);
        }
        if (ipv6Prefix != null) {
            audit.put("ipv6Prefix", ipv6Prefix);
        }
        if (ipv6NetworkPrefix != null) {
            audit.put("ipv6NetworkPrefix", ipv6NetworkPrefix);
        }
        audit.put("reset", List.copyOf(done.reset()));
        adminEvent.operation(OperationType.DELETE)
                .resourcePath(session.getContext().getUri())
                .representation(audit)
                .success();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cleared", done.cleared());
        if (keyed.size() > 1) {
            // the realm's gated steps key this address under different prefixes: each was cleared
            out.put("byPrefix", done.byPrefix());
        }
        return Response.ok(out).build();
    }

    /**
     * {@code GET coverage}: the realm's bound flows that still check passwords with one of Keycloak's ungated steps,
     * each with where Keycloak runs it and the gated step to use instead ({@code ungatedFlows}); and every binding
     * Keycloak runs for the realm, each with its flow, whether it is gated and the steps that decide it
     * ({@code bindings}). {@code gated} is true when no binding has an ungated step. Needs manage-users, as the state
     * API does.
     */
    @GET
    @Path("coverage")
    @Produces(MediaType.APPLICATION_JSON)
    public Response coverage() {
        auth.users().requireManage();
        PasswordCoverage.Report report = PasswordCoverage.report(session, realm);
        List<Map<String, Object>> flows = new ArrayList<>();
        for (PasswordCoverage.Flow f : report.ungated()) {
            Map<String, Object> flow = new LinkedHashMap<>();
            flow.put("flow", f.alias());
            flow.put("boundAs", f.boundAs());
            flow.put("ungatedSteps", steps(f));
            flows.add(flow);
        }
        List<Map<String, Object>> bindings = new ArrayList<>();
        for (PasswordCoverage.Binding b : report.bindings()) {
            Map<String, Object> binding = new LinkedHashMap<>();
            binding.put("boundAs", b.boundAs());
            binding.put("flow", b.flow().alias());
            binding.put("gated", b.gated());
            binding.put("checksPasswords", b.checksPasswords());
            binding.put("ungatedSteps", steps(b.flow()));
            binding.put("gatedSteps", b.flow().gatedSteps());
            bindings.add(binding);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("gated", flows.isEmpty());
        out.put("ungatedFlows", flows);
        out.put("bindings", bindings);
        return Response.ok(out).build();
    }

    /** A flow's ungated password steps as the coverage answer shows them. */
    private static List<Map<String, Object>> steps(PasswordCoverage.Flow f) {
        List<Map<String, Object>> steps = new ArrayList<>();
        for (PasswordCoverage.Step s : f.ungatedSteps()) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("providerId", s.providerId());
            step.put("displayName", s.displayName());
            step.put("gatedStep", s.gatedStep());
            steps.add(step);
        }
        return steps;
    }

    /** What the state lookup and the clear do in the store with the subject an operator names (absent parts null). */
    private interface SubjectCall<T> {
        T run(String address, String identifier, List<KeyPrefixes> keyed);
    }

    /**
     * The state API's common part: manage-users, the query checked (400 with what is wrong), blank parts as absent,
     * the prefixes the subject is keyed under, and a 503 (never a 500) when the store or the realm's key fails
     * during {@code call}; {@code answer} then turns its result into the answer, outside that scope.
     */
    private <T> Response forSubject(String address, String identifier, Integer ipv6Prefix, Integer ipv6NetworkPrefix,
                                    SubjectCall<T> call, Function<T, Response> answer) {
        auth.users().requireManage();
        Response bad = validate(address, identifier, ipv6Prefix, ipv6NetworkPrefix);
        if (bad != null) {
            return bad;
        }
        String addr = present(address) ? address : null;
        T result;
        try {
            result = call.run(addr, present(identifier) ? identifier : null, prefixes(addr, ipv6Prefix, ipv6NetworkPrefix));
        } catch (RealmSecrets.NoRealmKey e) {
            return noKey(e);
        } catch (RuntimeException e) {
            return error(Response.Status.SERVICE_UNAVAILABLE, "counter_store_unavailable", "The counter store cannot answer right now.");
        }
        return answer.apply(result);
    }

    /** The realm has no HMAC key: the gate keeps no state it could show or clear. */
    private Response noKey(RuntimeException e) {
        runtime.warnNoKey(realm, e);
        return error(Response.Status.SERVICE_UNAVAILABLE, "no_realm_key",
                "The realm has no active HMAC key; add or enable an HMAC key provider in Realm settings > Keys.");
    }

    /**
     * The prefixes to look up or clear {@code address} under: the operator's where given, else those of the realm's
     * gated steps (each step's effective settings: the realm's overlaid with the step's), or the realm's settings
     * where no bound flow has a gated step. One entry per distinct set of keys.
     */
    private List<KeyPrefixes> prefixes(String address, Integer ipv6Prefix, Integer ipv6NetworkPrefix) {
        List<GateOptions> inUse = new ArrayList<>();
        if (address != null && (ipv6Prefix == null || ipv6NetworkPrefix == null)) {
            GateConfig.Cache config = runtime.config();
            for (AuthenticationExecutionModel step : PasswordCoverage.gated(session, realm)) {
                String configId = step.getAuthenticatorConfig();
                AuthenticatorConfigModel stepConfig = configId == null ? null : realm.getAuthenticatorConfigById(configId);
                inUse.add(config.effective(realm, stepConfig).options());
            }
            if (inUse.isEmpty()) {
                inUse.add(config.effective(realm, null).options());
            }
        }
        return KeyPrefixes.of(ipv6Prefix, ipv6NetworkPrefix, inUse, address);
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

    /** What a cleared part resets, by counter name. */
    private static final Map<SubjectState.Part, List<String>> RESET = Map.of(
            SubjectState.Part.ADDRESS, List.of("per_ip.attempts", "credential_stuffing.distinct_identifiers"),
            SubjectState.Part.NETWORK, List.of("per_ip.network_attempts"),
            SubjectState.Part.IDENTIFIER, List.of("account_lockout.failures", "account_lockout.lock",
                    "account_lockout.consecutive_locks", "account_lockout.recent_wrong_passwords"),
            SubjectState.Part.PAIR, List.of("per_ip_account.attempts"));

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
