package dev.abusegate.it;

import dev.abusegate.it.support.CrossVersion;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.AdminEventRepresentation;
import org.keycloak.representations.idm.RoleRepresentation;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.abusegate.it.support.AdminClient.seg;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator API {@code /admin/realms/{realm}/abuse-gate/state}: look up counters and locks, clear an
 * identifier or an address (each clear an admin event), input validation, and who may call it
 * (manage-users of that realm only).
 */
class AdminResourceIT extends ServerTest {

    private static final int LOCKOUT_SECONDS = 600;


    private static String realm;
    private static String otherRealm;
    private static String normalUserToken;
    private static String viewerToken;
    private static String managerToken;
    private static String otherRealmAdminToken;

    @BeforeAll
    static void createRealmsAndTokens() {
        realm = importClassRealm(RealmBuilder.unique("admin-api")
                .user("alice", "alice-secret-1")
                .user("bob", "bob-secret-1")
                .user("carol", "carol-secret-1")
                .user("norm", "norm-secret-1")
                .user("viewer", "viewer-secret-1")
                .user("manager", "manager-secret-1")
                .set("adminEventsEnabled", true)
                .set("adminEventsDetailsEnabled", true)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", Map.of(
                        "captcha.enabled", "false",
                        "perIp.threshold", "3",
                        "accountLockout.threshold", "2",
                        "accountLockout.lockoutSeconds", Integer.toString(LOCKOUT_SECONDS))));
        otherRealm = importClassRealm(RealmBuilder.unique("admin-api-other")
                .user("otheradmin", "otheradmin-secret-1"));
        grantRealmManagementRole(realm, "viewer", "view-users");
        grantRealmManagementRole(realm, "manager", "manage-users");
        grantRealmManagementRole(otherRealm, "otheradmin", "manage-users");

        // each from its own address so that fetching tokens does not feed the per-address layer
        normalUserToken = token(realm, "norm", "norm-secret-1", "203.0.113.201");
        viewerToken = token(realm, "viewer", "viewer-secret-1", "203.0.113.202");
        managerToken = token(realm, "manager", "manager-secret-1", "203.0.113.203");
        otherRealmAdminToken = token(otherRealm, "otheradmin", "otheradmin-secret-1", "203.0.113.204");
    }

    // ------------------------------------------------------------------------------------------

    @CrossVersion
    @Test
    @SuppressWarnings("unchecked")
    void lookup_shows_counts_locks_and_time_left_without_echoing_the_identifier() {
        String ip = "203.0.113.11";
        assertKeycloakRejected(grant("bob", "wrong-1", ip));

        AdminClient.Response first = state("GET", "address=" + ip + "&identifier=bob", null);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        Map<String, Object> s1 = first.jsonMap();
        assertThat(s1.keySet()).containsExactlyInAnyOrder("address", "identifier", "pair");
        Map<String, Object> addr1 = (Map<String, Object>) s1.get("address");
        Map<String, Object> id1 = (Map<String, Object>) s1.get("identifier");
        Map<String, Object> pair1 = (Map<String, Object>) s1.get("pair");
        assertThat(addr1.get("key")).isEqualTo(ip);
        assertThat(num(addr1, "attempts")).isEqualTo(1);
        assertThat(num(addr1, "attemptsSecondsLeft")).isBetween(1L, 300L);
        assertThat(num(addr1, "distinctIdentifiers")).isEqualTo(1);
        assertThat(num(addr1, "distinctIdentifiersSecondsLeft")).isBetween(1L, 600L);
        assertThat(num(id1, "failures")).isEqualTo(1);
        assertThat(num(id1, "failuresSecondsLeft")).isBetween(1L, 900L);
        assertThat(id1.get("locked")).isEqualTo(false);
        assertThat(num(id1, "lockSecondsLeft")).isEqualTo(0);
        assertThat(num(pair1, "attempts")).isEqualTo(1);
        assertThat(num(pair1, "attemptsSecondsLeft")).isBetween(1L, 900L);
        assertThat(pair1.get("identifierSeenFromAddress")).isEqualTo(true);

        // the second failure locks bob (threshold 2)
        assertKeycloakRejected(grant("bob", "wrong-2", ip));
        AdminClient.Response second = state("GET", "address=" + ip + "&identifier=bob", null);
        Map<String, Object> s2 = second.jsonMap();
        Map<String, Object> id2 = (Map<String, Object>) s2.get("identifier");
        assertThat(GateIt.stateNumber(s2, "address", "attempts")).isEqualTo(2);
        assertThat(GateIt.stateNumber(s2, "pair", "attempts")).isEqualTo(2);
        assertThat(id2.get("locked")).isEqualTo(true);
        assertThat(num(id2, "lockSecondsLeft")).isBetween(LOCKOUT_SECONDS - 60L, (long) LOCKOUT_SECONDS);

        // sections follow the parameters; another identifier and another address have nothing
        Map<String, Object> onlyId = state("GET", "identifier=bob", null).jsonMap();
        assertThat(onlyId.keySet()).containsExactly("identifier");
        assertThat(GateIt.stateValue(onlyId, "identifier", "locked")).isEqualTo(true);
        Map<String, Object> other = state("GET", "address=203.0.113.12&identifier=carol", null).jsonMap();
        assertThat(GateIt.stateNumber(other, "address", "attempts")).isZero();
        assertThat(GateIt.stateValue(other, "identifier", "locked")).isEqualTo(false);
        assertThat(GateIt.stateValue(other, "pair", "identifierSeenFromAddress")).isEqualTo(false);

        for (AdminClient.Response r : List.of(first, second)) {
            assertThat(r.body()).doesNotContainIgnoringCase("bob");
        }
    }

    @CrossVersion
    @Test
    void clearing_an_identifier_lifts_its_lock() {
        assertKeycloakRejected(grant("carol", "wrong-1", "203.0.113.21"));
        assertKeycloakRejected(grant("carol", "wrong-2", "203.0.113.22"));
        TokenResponse locked = grant("carol", "carol-secret-1", "203.0.113.23");
        assertThat(locked.status()).as(locked.toString()).isEqualTo(429);

        AdminClient.Response cleared = state("DELETE", "identifier=carol", null);
        assertThat(cleared.status()).as(cleared.body()).isEqualTo(200);
        assertThat(cleared.jsonMap()).isEqualTo(Map.of("cleared", Map.of("identifier", true)));
        assertThat(cleared.body()).doesNotContainIgnoringCase("carol");
        AdminEventRepresentation audit = awaitClearEvent(e -> String.valueOf(e.getRepresentation()).contains("carol"));
        assertThat(Json.parseMap(audit.getRepresentation()))
                .as("an identifier-only clear names the identifier and resets only its counters")
                .containsEntry("identifier", "carol").doesNotContainKey("address")
                .containsEntry("reset", List.of("account_lockout.failures", "account_lockout.lock",
                        "account_lockout.consecutive_locks", "account_lockout.recent_wrong_passwords"));

        TokenResponse after = grant("carol", "carol-secret-1", "203.0.113.24");
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
    }

    @Test
    void clearing_an_address_lifts_its_per_address_block() {
        String ip = "203.0.113.31";
        for (int i = 0; i < 3; i++) {
            assertStatus(grant("alice", "alice-secret-1", ip), 200);
        }
        TokenResponse blocked = grant("alice", "alice-secret-1", ip);
        assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
        assertThat(blocked.json().get("error")).isEqualTo("blocked");

        AdminClient.Response cleared = state("DELETE", "address=" + ip, null);
        assertThat(cleared.status()).as(cleared.body()).isEqualTo(200);
        assertThat(cleared.jsonMap()).isEqualTo(Map.of("cleared", Map.of("address", true)));
        AdminEventRepresentation audit = awaitClearEvent(e -> String.valueOf(e.getRepresentation()).contains(ip));
        assertThat(Json.parseMap(audit.getRepresentation()))
                .containsEntry("address", ip).containsEntry("addressKey", ip).doesNotContainKey("identifier")
                .containsEntry("reset", List.of("per_ip.attempts", "credential_stuffing.distinct_identifiers"));

        TokenResponse after = grant("alice", "alice-secret-1", ip);
        assertThat(after.status()).as(after.toString()).isEqualTo(200);
    }

    /** The direct grant step's IPv6 prefixes in the realms below: not the defaults (64 and 48). */
    private static final Map<String, String> PREFIX_56 = Map.of("captcha.enabled", "false",
            "ipv6.prefixLength", "56", "ipv6.networkPrefixLength", "40");

    @Test
    @SuppressWarnings("unchecked")
    void without_prefix_parameters_an_ipv6_address_is_looked_up_and_cleared_under_the_realms_prefixes() {
        String v6 = importRealm(RealmBuilder.unique("admin-v6").user("dave", "dave-secret-1")
                .gatedDirectGrantFlow("abuse-gate-direct-grant", PREFIX_56));
        // two addresses of one /56: the gate counts them together
        for (String ip : List.of("2001:db8:77:1::5", "2001:db8:77:1::5", "2001:db8:77:2::9")) {
            assertKeycloakRejected(tokens.passwordGrant(v6, "dave", "wrong", null, ip));
        }
        String query = "address=" + seg("2001:db8:77:1::5") + "&identifier=dave";

        Map<String, Object> s = stateOf(v6, "GET", query).jsonMap();
        assertThat(s.keySet()).containsExactly("address", "network", "identifier", "pair");
        Map<String, Object> addr = (Map<String, Object>) s.get("address");
        assertThat(addr.get("key")).isEqualTo("2001:db8:77:0:0:0:0:0/56");
        assertThat(num(addr, "attempts")).isEqualTo(3);
        Map<String, Object> network = (Map<String, Object>) s.get("network");
        assertThat(network.get("key")).isEqualTo("2001:db8:0:0:0:0:0:0/40");
        assertThat(num(network, "attempts")).isEqualTo(3);
        assertThat(GateIt.stateNumber(s, "pair", "attempts")).isEqualTo(3);
        assertThat(GateIt.stateNumber(s, "identifier", "failures")).isEqualTo(3);

        // a prefix the operator names still wins: nothing is counted under the /64
        Map<String, Object> at64 = stateOf(v6, "GET", query + "&ipv6Prefix=64").jsonMap();
        assertThat(GateIt.stateValue(at64, "address", "key")).isEqualTo("2001:db8:77:1:0:0:0:0/64");
        assertThat(GateIt.stateNumber(at64, "address", "attempts")).isZero();

        AdminClient.Response cleared = stateOf(v6, "DELETE", "address=" + seg("2001:db8:77:1::5"));
        assertThat(cleared.status()).as(cleared.body()).isEqualTo(200);
        assertThat(cleared.jsonMap()).isEqualTo(Map.of("cleared", Map.of("address", true, "network", true)));
        Map<String, Object> after = stateOf(v6, "GET", query).jsonMap();
        assertThat(GateIt.stateNumber(after, "address", "attempts")).isZero();
        assertThat(GateIt.stateNumber(after, "network", "attempts")).isZero();
        assertThat(GateIt.stateNumber(after, "pair", "attempts")).as("an address-only clear keeps the pair").isEqualTo(3);
    }

    @Test
    void where_the_realms_gated_steps_disagree_on_a_prefix_each_is_looked_up_and_cleared() {
        String mixed = importRealm(RealmBuilder.unique("admin-v6-mixed").user("erin", "erin-secret-1")
                .gatedBrowserFlow("abuse-gate-username-password-form", Map.of("captcha.enabled", "false"))
                .gatedDirectGrantFlow("abuse-gate-direct-grant", PREFIX_56));
        String ip = "2001:db8:78:1::5";
        assertKeycloakRejected(tokens.passwordGrant(mixed, "erin", "wrong-1", null, ip));
        assertKeycloakRejected(tokens.passwordGrant(mixed, "erin", "wrong-2", null, ip));

        Map<String, Object> s = stateOf(mixed, "GET", "address=" + seg(ip)).jsonMap();
        assertThat(s).as("no single answer is guessed").doesNotContainKeys("address", "network");
        Map<Object, Map<String, Object>> byPrefix = byPrefix(s);
        assertThat(byPrefix.keySet()).containsExactlyInAnyOrder(56, 64);
        assertThat(byPrefix.get(56)).containsEntry("ipv6NetworkPrefix", 40);
        assertThat(GateIt.stateValue(byPrefix.get(56), "address", "key")).isEqualTo("2001:db8:78:0:0:0:0:0/56");
        assertThat(GateIt.stateNumber(byPrefix.get(56), "address", "attempts")).isEqualTo(2);
        assertThat(GateIt.stateNumber(byPrefix.get(56), "network", "attempts")).isEqualTo(2);
        assertThat(byPrefix.get(64)).containsEntry("ipv6NetworkPrefix", 48);
        assertThat(GateIt.stateValue(byPrefix.get(64), "address", "key")).isEqualTo("2001:db8:78:1:0:0:0:0/64");
        assertThat(GateIt.stateNumber(byPrefix.get(64), "address", "attempts")).isZero();

        AdminClient.Response cleared = stateOf(mixed, "DELETE", "address=" + seg(ip));
        assertThat(cleared.status()).as(cleared.body()).isEqualTo(200);
        assertThat(cleared.jsonMap().get("cleared")).isEqualTo(Map.of("address", true, "network", true));
        assertThat(byPrefix(cleared.jsonMap()).keySet()).containsExactlyInAnyOrder(56, 64);
        Map<String, Object> after = byPrefix(stateOf(mixed, "GET", "address=" + seg(ip)).jsonMap()).get(56);
        assertThat(GateIt.stateNumber(after, "address", "attempts")).isZero();
        assertThat(GateIt.stateNumber(after, "network", "attempts")).isZero();
    }

    /** The {@code byPrefix} entries of an answer by their {@code ipv6Prefix}. */
    @SuppressWarnings("unchecked")
    private static Map<Object, Map<String, Object>> byPrefix(Map<String, Object> answer) {
        assertThat(answer).as("per-prefix entries").containsKey("byPrefix");
        Map<Object, Map<String, Object>> out = new java.util.HashMap<>();
        for (Map<String, Object> e : (List<Map<String, Object>>) answer.get("byPrefix")) {
            out.put(((Number) e.get("ipv6Prefix")).intValue(), e);
        }
        return out;
    }

    @Test
    void missing_parameters_and_a_bad_ipv6_prefix_are_400() {
        for (String method : List.of("GET", "DELETE")) {
            for (String query : List.of("", "address=&identifier=", "address=203.0.113.41&ipv6Prefix=999",
                    "identifier=someone&ipv6Prefix=0")) {
                AdminClient.Response r = state(method, query, null);
                assertThat(r.status()).as(method + " ?" + query + " -> " + r.body()).isEqualTo(400);
                assertThat(r.jsonMap().get("error")).isEqualTo("invalid_request");
                assertThat(r.body()).doesNotContain("someone");
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void each_clear_is_an_admin_event_and_a_lookup_is_not() {
        int before = clearEvents().size();
        assertThat(state("GET", "address=203.0.113.51&identifier=zed-lookup", null).status()).isEqualTo(200);
        assertThat(state("DELETE", "address=203.0.113.51&identifier=zed-secret-name", null).status()).isEqualTo(200);

        GateIt.await("the clear's admin event", Duration.ofSeconds(15), () -> clearEvents().size() >= before + 1);
        List<AdminEventRepresentation> events = clearEvents();
        assertThat(events).hasSize(before + 1);
        AdminEventRepresentation event = events.get(0); // newest first
        assertThat(event.getOperationType()).isEqualTo("DELETE");
        assertThat(event.getResourceType()).isEqualTo("CUSTOM");
        assertThat(event.getResourcePath()).startsWith("abuse-gate/state");
        // the audit trail: what the operator typed and which counters were reset
        assertThat(event.getRepresentation()).as("representation of %s", Json.write(event)).isNotNull();
        Map<String, Object> representation = Json.parseMap(event.getRepresentation());
        assertThat(representation).containsEntry("address", "203.0.113.51").containsEntry("identifier", "zed-secret-name");
        assertThat((List<String>) representation.get("reset")).containsExactlyInAnyOrder(
                "per_ip.attempts", "credential_stuffing.distinct_identifiers", "account_lockout.failures",
                "account_lockout.lock", "account_lockout.consecutive_locks", "account_lockout.recent_wrong_passwords",
                "per_ip_account.attempts");
        assertThat(event.getAuthDetails()).isNotNull();
        assertThat(event.getAuthDetails().getUserId()).isNotNull();
        // the lookup itself produced none
        assertThat(events.stream().filter(e -> !"DELETE".equals(e.getOperationType()))).isEmpty();
    }

    @Test
    void anonymous_callers_get_401() {
        assertThat(call("GET", realm, "address=203.0.113.61", null).status()).isEqualTo(401);
        assertThat(call("DELETE", realm, "address=203.0.113.61", null).status()).isEqualTo(401);
    }

    @CrossVersion
    @Test
    void a_normal_user_of_the_realm_gets_403() {
        assertThat(call("GET", realm, "address=203.0.113.62", normalUserToken).status()).isEqualTo(403);
        assertThat(call("DELETE", realm, "address=203.0.113.62", normalUserToken).status()).isEqualTo(403);
    }

    @Test
    void another_realms_user_admin_is_refused() {
        assertThat(call("GET", realm, "address=203.0.113.63", otherRealmAdminToken).status()).isIn(401, 403);
        assertThat(call("DELETE", realm, "address=203.0.113.63", otherRealmAdminToken).status()).isIn(401, 403);
        // the same token works on its own realm: the refusal is about the realm, not a broken token
        assertThat(call("GET", otherRealm, "address=203.0.113.63", otherRealmAdminToken).status()).isEqualTo(200);
    }

    @Test
    void view_users_alone_is_refused_and_manage_users_is_allowed() {
        String ip = "203.0.113.64";
        assertStatus(grant("alice", "alice-secret-1", ip), 200);

        assertThat(call("GET", realm, "address=" + ip, viewerToken).status()).isEqualTo(403);
        assertThat(call("DELETE", realm, "address=" + ip, viewerToken).status()).isEqualTo(403);
        // the refused DELETE cleared nothing
        Map<String, Object> stillThere = state("GET", "address=" + ip, null).jsonMap();
        assertThat(GateIt.stateNumber(stillThere, "address", "attempts")).isEqualTo(1);

        AdminClient.Response lookup = call("GET", realm, "address=" + ip + "&identifier=alice", managerToken);
        assertThat(lookup.status()).as(lookup.body()).isEqualTo(200);
        assertThat(GateIt.stateNumber(lookup.jsonMap(), "address", "attempts")).isEqualTo(1);
        assertThat(lookup.body()).doesNotContain("alice");
        AdminClient.Response clear = call("DELETE", realm, "address=" + ip, managerToken);
        assertThat(clear.status()).as(clear.body()).isEqualTo(200);
        Map<String, Object> gone = state("GET", "address=" + ip, null).jsonMap();
        assertThat(GateIt.stateNumber(gone, "address", "attempts")).isZero();
    }

    // ------------------------------------------------------------------------------------------

    private static TokenResponse grant(String username, String password, String ip) {
        TokenResponse r = tokens.passwordGrant(realm, username, password, null, ip);
        assertThat(r.status()).as(r.toString()).isLessThan(500);
        return r;
    }

    private static String token(String realmName, String username, String password, String ip) {
        TokenResponse r = tokens.passwordGrant(realmName, username, password, null, ip);
        assertThat(r.status()).as("token for " + username + ": " + r).isEqualTo(200);
        return r.accessToken();
    }

    /** The state endpoint of the test realm as the bootstrap admin (master). */
    private static AdminClient.Response state(String method, String query, Object body) {
        return admin.send(method, "/admin/realms/" + seg(realm) + "/abuse-gate/state" + (query.isEmpty() ? "" : "?" + query), body);
    }

    /** The state endpoint of {@code realmName} as the bootstrap admin. */
    private static AdminClient.Response stateOf(String realmName, String method, String query) {
        return admin.send(method, "/admin/realms/" + seg(realmName) + "/abuse-gate/state?" + query, null);
    }

    /** The state endpoint of {@code realmName} with the given bearer token (none when null). */
    private static AdminClient.Response call(String method, String realmName, String query, String bearer) {
        return admin.sendAs(method, "/admin/realms/" + seg(realmName) + "/abuse-gate/state?" + query, bearer);
    }

    /** Admin events of the test realm with resource type CUSTOM (newest first). */
    private static List<AdminEventRepresentation> clearEvents() {
        return admin.realm(realm).getAdminEvents(null, null, null, null, null, null, List.of("CUSTOM"), null, null, 0, 1000)
                .stream().filter(e -> "CUSTOM".equals(e.getResourceType())).toList();
    }

    /** The newest clear event matching {@code match}, waiting up to 15 s for it to be stored. */
    private static AdminEventRepresentation awaitClearEvent(java.util.function.Predicate<AdminEventRepresentation> match) {
        return GateIt.awaitValue("a clear event matching", Duration.ofSeconds(15),
                () -> clearEvents().stream().filter(match).findFirst(), () -> "events: " + Json.write(clearEvents()));
    }

    private static void grantRealmManagementRole(String realmName, String username, String role) {
        String userId = admin.findUserId(realmName, username).orElseThrow();
        String clientUuid = admin.realm(realmName).clients().findByClientId("realm-management").get(0).getId();
        RoleRepresentation roleRep = admin.realm(realmName).clients().get(clientUuid).roles().get(role).toRepresentation();
        admin.realm(realmName).users().get(userId).roles().clientLevel(clientUuid).add(List.of(roleRep));
    }

    private static long num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        assertThat(v).as(key + " in " + m).isInstanceOf(Number.class);
        return ((Number) v).longValue();
    }

    private static void assertStatus(TokenResponse r, int status) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
    }

    /** Keycloak's own answer to wrong credentials (invalid_grant). */
    private static void assertKeycloakRejected(TokenResponse r) {
        assertThat(r.isKeycloakInvalidGrant()).as(r.toString()).isTrue();
    }
}
