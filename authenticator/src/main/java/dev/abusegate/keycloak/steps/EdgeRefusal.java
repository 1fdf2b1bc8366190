package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.GateSettings;
import dev.abusegate.keycloak.CaptchaConfig;
import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.answer.Refusal;
import dev.abusegate.keycloak.answer.TooManyAttemptsJson;
import dev.abusegate.keycloak.captcha.CaptchaService;
import dev.abusegate.keycloak.events.GateEvents;
import dev.abusegate.keycloak.events.GateMetrics;
import dev.abusegate.keycloak.runtime.GateRuntime;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.keycloak.OAuth2Constants;
import org.keycloak.events.Details;
import org.keycloak.events.EventBuilder;
import org.keycloak.events.EventType;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.AuthenticationFlowBindings;
import org.keycloak.models.AuthenticationFlowModel;
import org.keycloak.models.ClientModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.protocol.oidc.OIDCLoginProtocol;
import org.keycloak.representations.idm.ClientPoliciesRepresentation;
import org.keycloak.representations.idm.ClientPolicyRepresentation;
import org.keycloak.services.clientpolicy.ClientPolicyException;
import org.keycloak.services.clientpolicy.ClientPolicyManager;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.utils.KeycloakSessionUtil;

/**
 * Edge refusal: a password grant from an address the gate has blocked, or keeps answering in the captcha band, is
 * answered before Keycloak creates an authentication session and runs the direct grant flow, with the bytes the flow's
 * {@link AbuseGateDirectGrant} would answer (429 {@code {"error":"blocked",...}}, or {@code captcha_required} with a
 * fresh challenge for an attempt without a solution), counted as the flow counts it ({@code AbuseGate#evaluateAtEdge}).
 *
 * <p>The hook is a RESTEasy Reactive server request filter in the provider JAR (Keycloak 24+ registers a provider
 * JAR's JAX-RS filters; checked on 26.4.7 and 26.7.3). It is not pre-matching, so the {@link KeycloakSession} and its
 * realm are set up. It reads the form only of a form POST to the token endpoint ({@link EdgeFormRead}), once, with
 * Keycloak's own form handler: Keycloak's resource reads the same parsed form afterwards, so no body is consumed, and
 * every other request reaches Keycloak as it came.
 *
 * <p>The answer is given early only where the flow's answer is known to be that 429: every request the token endpoint
 * would answer otherwise before the flow (a confidential or unknown client, client policies, a duplicated parameter,
 * HTTPS required, CORS, DPoP, ...), a realm whose direct grant flow does not start with the gate, a client with its own
 * direct grant flow, and a request whose locale could come from the authentication session go to the flow, as does
 * every address this node has not seen blocked or in the band (that check costs no store call), and every attempt
 * whose answer depends on more than the address's and the pair's counts. The login form is not refused here:
 * its page needs the authentication session (the form's action code, the client, the locale the session keeps).
 */
public class EdgeRefusal {

    private static final Logger LOG = Logger.getLogger(EdgeRefusal.class);
    /** Headers after which the token endpoint's answer depends on more than the gate (client auth, DPoP, CORS). */
    private static final List<String> FLOW_HEADERS = List.of(HttpHeaders.AUTHORIZATION, "DPoP", "Origin");
    /** Form parameters that authenticate a client (then the client's authentication answers first). */
    private static final List<String> CLIENT_AUTH_PARAMS = List.of(OAuth2Constants.CLIENT_SECRET,
            OAuth2Constants.CLIENT_ASSERTION, OAuth2Constants.CLIENT_ASSERTION_TYPE);

    /**
     * The 429 of an attempt decided at the edge, as {@link TooManyAttemptsJson} shows it: blocked, or the band's
     * captcha with the captcha the flow's step would offer ({@code offered}).
     */
    private record EdgeAnswer(CaptchaService captchas, boolean blocked, CaptchaConfig offered) implements Refusal {
        @Override
        public String code() {
            return (blocked ? Outcome.BLOCKED : Outcome.CAPTCHA_REQUIRED).code();
        }

        @Override
        public CaptchaConfig offeredCaptcha() {
            return blocked ? null : offered;
        }

        @Override
        public boolean captchaSubmitted() {
            return false;
        }
    }

    /** The realm's gate as the edge answers for it: its runtime and the settings of its direct grant step. */
    private record EdgeRealm(GateRuntime runtime, GateConfig.Effective settings) {
        GateOptions options() {
            return settings.options();
        }
    }

    /** The filter: null lets the request through to Keycloak. */
    @ServerRequestFilter
    public Response refuse(ContainerRequestContext request) {
        if (EdgeFormRead.Endpoint.of(request) != EdgeFormRead.Endpoint.TOKEN) {
            return null;
        }
        KeycloakSession session = KeycloakSessionUtil.getKeycloakSession();
        if (session == null || session.getContext().getRealm() == null) {
            return null;
        }
        EdgeRealm edge;
        try {
            edge = edgeRealm(session);
        } catch (RuntimeException e) {
            return skipped(e);
        }
        // the form is read only in a realm the edge answers for; a failure to read it is thrown as Keycloak's own
        if (edge == null || !EdgeFormRead.read()) {
            return null;
        }
        try {
            return refuse(session, request, edge);
        } catch (RuntimeException e) {
            return skipped(e);
        }
    }

    /** The flow decides, as if this filter were not there. */
    private static Response skipped(RuntimeException e) {
        LOG.debugf("Abuse gate: edge refusal skipped (%s)", e.getClass().getSimpleName());
        return null;
    }

    /**
     * The realm's gate when the edge answers for it: an enabled realm whose direct grant flow starts with the gate
     * (required), with {@code edge.enabled} on; else null. Reads nothing of the request.
     */
    private static EdgeRealm edgeRealm(KeycloakSession session) {
        RealmModel realm = session.getContext().getRealm();
        AuthenticationExecutionModel gate = realm.isEnabled() ? gateStep(realm) : null;
        if (gate == null) {
            return null;
        }
        GateRuntime runtime = GatedStepFactory.runtime(session);
        GateConfig.Effective settings = runtime.config().effective(realm, gate.getAuthenticatorConfig() == null ? null
                : realm.getAuthenticatorConfigById(gate.getAuthenticatorConfig()));
        return settings.options().get(GateSettings.EDGE_ENABLED) ? new EdgeRealm(runtime, settings) : null;
    }

    private static Response refuse(KeycloakSession session, ContainerRequestContext request, EdgeRealm edge) {
        RealmModel realm = session.getContext().getRealm();
        MultivaluedMap<String, String> form = session.getContext().getHttpRequest().getDecodedFormParameters();
        if (!OAuth2Constants.PASSWORD.equals(form.getFirst(OAuth2Constants.GRANT_TYPE))
                || FLOW_HEADERS.stream().anyMatch(h -> request.getHeaderString(h) != null)
                || CLIENT_AUTH_PARAMS.stream().anyMatch(form::containsKey)
                || form.values().stream().anyMatch(v -> v.size() != 1)
                || realm.isInternationalizationEnabled() && form.containsKey(OIDCLoginProtocol.UI_LOCALES_PARAM)
                || !"https".equals(session.getContext().getUri().getBaseUri().getScheme())
                && realm.getSslRequired().isRequired(session.getContext().getConnection())) {
            return null;
        }
        GateRuntime runtime = edge.runtime();
        GateOptions options = edge.options();
        String clientId = form.getFirst(OAuth2Constants.CLIENT_ID);
        String identifier = form.getFirst(AuthenticationManager.FORM_USERNAME);
        String address = session.getContext().getConnection() == null ? null : session.getContext().getConnection().getRemoteAddr();
        Decision d;
        try {
            // the solution the flow's step would verify
            String token = AbuseGateDirectGrant.verifiedToken(form);
            boolean solutionCarried = token != null && !token.isBlank();
            d = runtime.gate().evaluateAtEdge(options, new Attempt(realm.getId(), address, identifier, null), solutionCarried,
                    () -> publicClientReachingTheGate(session, realm, clientId));
        } catch (RealmSecrets.NoRealmKey e) {
            return null; // the flow reports it
        }
        if (d == null) {
            return null;
        }
        GateEvents events = new GateEvents(realm, () -> new EventBuilder(realm, session, session.getContext().getConnection())
                .event(EventType.LOGIN_ERROR)
                .client(realm.getClientByClientId(clientId))
                .detail(Details.AUTH_METHOD, OIDCLoginProtocol.LOGIN_PROTOCOL)
                .detail(Details.GRANT_TYPE, OAuth2Constants.PASSWORD)
                .detail(Details.USERNAME, identifier)
                .detail(GateEvents.DETAIL_EDGE, "true"), runtime);
        events.storeUnavailable(d.outages(), options.storeFailureEventsPerMinute());
        events.storeDegraded(d.degraded());
        events.decided(d, options.refusalEventsPerMinute());
        GateMetrics.edgeRefusal(realm.getName());
        // the token endpoint sets these on each of its answers, the flow's 429 included
        boolean blocked = d.outcome() == Outcome.BLOCKED;
        // the captcha the flow's step offers: harder while the realm is under attack (GatedAttempt#evaluate)
        CaptchaConfig offered = blocked ? null : edge.settings().captcha(runtime.gate().realmUnderAttack(realm.getId(), options));
        return Response.fromResponse(TooManyAttemptsJson.of(session, realm, new EdgeAnswer(runtime.captcha(), blocked, offered)))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("Pragma", "no-cache")
                .build();
    }

    /** The realm's direct grant flow's first step when it is the gate (required), else null. */
    private static AuthenticationExecutionModel gateStep(RealmModel realm) {
        AuthenticationFlowModel flow = realm.getDirectGrantFlow();
        if (flow == null) {
            return null;
        }
        return realm.getAuthenticationExecutionsStream(flow.getId())
                .filter(e -> e.getRequirement() != AuthenticationExecutionModel.Requirement.DISABLED)
                .findFirst()
                .filter(e -> AbuseGateDirectGrant.ID.equals(e.getAuthenticator())
                        && e.getRequirement() == AuthenticationExecutionModel.Requirement.REQUIRED)
                .orElse(null);
    }

    /**
     * Whether the token endpoint would hand this request to the realm's direct grant flow and its gate without an
     * answer of its own: an enabled public OpenID Connect client allowed the password grant, without consent, without
     * its own direct grant flow, in a realm without client policies. Asked only for an address in this node's edge hints.
     */
    private static boolean publicClientReachingTheGate(KeycloakSession session, RealmModel realm, String clientId) {
        ClientModel client = clientId == null ? null : realm.getClientByClientId(clientId);
        if (client == null || !client.isEnabled() || !client.isPublicClient() || client.isBearerOnly()
                || !client.isDirectAccessGrantsEnabled() || client.isConsentRequired()
                || !OIDCLoginProtocol.LOGIN_PROTOCOL.equals(client.getProtocol())) {
            return false;
        }
        Map<String, String> overrides = client.getAuthenticationFlowBindingOverrides();
        if (overrides != null && overrides.get(AuthenticationFlowBindings.DIRECT_GRANT_BINDING) != null) {
            return false;
        }
        try {
            ClientPolicyManager policies = session.getProvider(ClientPolicyManager.class);
            ClientPoliciesRepresentation set = policies == null ? null : policies.getClientPolicies(realm, true);
            return set != null && noneEnabled(set.getPolicies()) && noneEnabled(set.getGlobalPolicies());
        } catch (ClientPolicyException e) {
            return false;
        }
    }

    private static boolean noneEnabled(List<ClientPolicyRepresentation> policies) {
        return policies == null || policies.stream().noneMatch(p -> !Boolean.FALSE.equals(p.isEnabled()));
    }
}
