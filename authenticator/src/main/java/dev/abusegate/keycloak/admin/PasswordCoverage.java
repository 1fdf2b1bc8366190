package dev.abusegate.keycloak.admin;

import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.steps.GatedStepFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jboss.logging.Logger;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.common.Profile;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.AuthenticationFlowBindings;
import org.keycloak.models.AuthenticationFlowModel;
import org.keycloak.models.ClientModel;
import org.keycloak.models.IdentityProviderModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.protocol.saml.SamlConfigAttributes;
import org.keycloak.provider.ProviderFactory;

/**
 * Which of a realm's bound flows still check passwords with one of Keycloak's own (ungated) steps, so that
 * "gated everywhere" is something an operator can check. A flow counts where Keycloak runs it: the realm's browser,
 * direct grant, reset credentials and registration bindings, the first and post broker login flows of its identity
 * providers, the clients' flow overrides, the docker authentication flow (docker feature on) and the flow Keycloak's
 * SAML ECP endpoint runs (the one named {@value #ECP_FLOW}, when a client allows ECP). A binding is gated when no
 * password step reachable in its flow (sub-flows included) is one of Keycloak's; disabled steps and sub-flows check
 * nothing and are skipped. Computed on admin requests and once per realm at start-up, never on a login.
 */
final class PasswordCoverage {

    /** Keycloak's SAML ECP endpoint runs the realm's flow of this name; it has no binding. */
    static final String ECP_FLOW = "saml ecp";
    /** Most realms named at start-up, one WARN each; the rest are counted in one line. */
    private static final int MAX_REALMS_WARNED = 50;
    private static final Logger LOG = Logger.getLogger(PasswordCoverage.class);

    private PasswordCoverage() {
    }

    /** A step of a bound flow that checks passwords without the gate. */
    record Step(String providerId, String displayName, String gatedStep) {
    }

    /**
     * A bound flow, where Keycloak runs it, the ungated password steps reachable in it, and the provider ids of the
     * gated steps reachable in it (in flow order, each once).
     */
    record Flow(String alias, List<String> boundAs, List<Step> ungatedSteps, List<String> gatedSteps) {
    }

    /** Where Keycloak runs a flow ({@code boundAs}, e.g. "reset credentials flow") and the flow's id. */
    record Bound(String boundAs, String flowId) {
    }

    /** One binding's answer: where, its flow, and whether every password step reachable there is a gated one. */
    record Binding(String boundAs, Flow flow, boolean gated, boolean checksPasswords) {
    }

    /** Every binding of a realm, in binding order, and its bound flows (each once, in order of first binding). */
    record Report(List<Binding> bindings, List<Flow> flows) {

        /** The bound flows with ungated password steps; empty when the realm is gated everywhere. */
        List<Flow> ungated() {
            return flows.stream().filter(f -> !f.ungatedSteps().isEmpty()).toList();
        }
    }

    /**
     * The gated steps this JAR registers (its {@code META-INF/services} file, so a step the server runs with
     * {@code --spi-authenticator--<id>--enabled=false} is still known, and the stock step it stands in for still
     * reported): every one's provider id, and by the provider id of Keycloak's step that checks passwords, the gated
     * step that stands in for it ({@link GatedStepFactory#replacedPasswordStep()}).
     */
    record GatedSteps(Set<String> ids, Map<String, String> insteadOf) {

        /**
         * Read from the JAR's services file (on admin requests and at start-up, never on a login); should that fail or
         * find none (it is what Keycloak itself read at build time, so it should not), the steps the server has enabled.
         */
        static GatedSteps of(KeycloakSession session) {
            GatedSteps ours = fromJar();
            if (ours != null) {
                return ours;
            }
            return of(session.getKeycloakSessionFactory().getProviderFactoriesStream(Authenticator.class)
                    .filter(GatedStepFactory.class::isInstance)
                    .map(GatedStepFactory.class::cast));
        }

        /** The JAR's gated steps; null when the services file could not be read. */
        private static GatedSteps fromJar() {
            try {
                GatedSteps ours = of(ServiceLoader.load(AuthenticatorFactory.class, PasswordCoverage.class.getClassLoader()).stream()
                        .filter(p -> GatedStepFactory.class.isAssignableFrom(p.type()))
                        .map(p -> (GatedStepFactory) p.get()));
                return ours.ids().isEmpty() ? null : ours;
            } catch (ServiceConfigurationError e) {
                LOG.debugf(e, "Abuse gate: the gated steps are not readable from the services file; using the enabled ones");
                return null;
            }
        }

        static GatedSteps of(Stream<GatedStepFactory> steps) {
            Set<String> ids = new HashSet<>();
            Map<String, String> insteadOf = new HashMap<>();
            steps.forEach(step -> {
                ids.add(step.getId());
                if (step.replacedPasswordStep() != null) {
                    insteadOf.put(step.replacedPasswordStep(), step.getId());
                }
            });
            return new GatedSteps(Set.copyOf(ids), Map.copyOf(insteadOf));
        }
    }

    /** The realm's bound flows that check passwords with an ungated step, in binding order; empty when gated everywhere. */
    static List<Flow> ungated(KeycloakSession session, RealmModel realm) {
        return report(session, realm).ungated();
    }

    /** Every binding of the realm with its flow's password steps, gated and ungated. */
    static Report report(KeycloakSession session, RealmModel realm) {
        Map<String, String> aliases = new HashMap<>();
        List<Bound> bound = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : bindings(session, realm).entrySet()) {
            aliases.put(e.getKey(), realm.getAuthenticationFlowById(e.getKey()).getAlias());
            e.getValue().forEach(where -> bound.add(new Bound(where, e.getKey())));
        }
        Map<String, String> names = new HashMap<>();
        return report(bound, aliases::get, realm::getAuthenticationExecutionsStream, GatedSteps.of(session),
                id -> names.computeIfAbsent(id, x -> displayName(session, x)));
    }

    /**
     * The report over {@code bound} (in binding order): each flow's reachable steps ({@code executions} of a flow id,
     * enabled ones only, sub-flows followed once each), the ungated ones with their gated replacement and display name.
     */
    static Report report(List<Bound> bound, Function<String, String> alias, Function<String, Stream<AuthenticationExecutionModel>> executions,
                         GatedSteps gatedSteps, Function<String, String> displayName) {
        Map<String, List<String>> boundAs = new LinkedHashMap<>();
        bound.forEach(b -> boundAs.computeIfAbsent(b.flowId(), id -> new ArrayList<>()).add(b.boundAs()));
        Map<String, Flow> flows = new LinkedHashMap<>();
        boundAs.forEach((flowId, where) -> {
            List<AuthenticationExecutionModel> found = new ArrayList<>();
            collect(executions, flowId, id -> gatedSteps.insteadOf().containsKey(id) || gatedSteps.ids().contains(id), new HashSet<>(), found);
            List<Step> steps = found.stream().map(AuthenticationExecutionModel::getAuthenticator).filter(gatedSteps.insteadOf()::containsKey)
                    .map(id -> new Step(id, displayName.apply(id), gatedSteps.insteadOf().get(id)))
                    .toList();
            flows.put(flowId, new Flow(alias.apply(flowId), List.copyOf(where), steps,
                    found.stream().map(AuthenticationExecutionModel::getAuthenticator).filter(gatedSteps.ids()::contains).distinct().toList()));
        });
        List<Binding> bindings = bound.stream().map(b -> {
            Flow f = flows.get(b.flowId());
            boolean checks = !f.ungatedSteps().isEmpty() || f.gatedSteps().stream().anyMatch(gatedSteps.insteadOf()::containsValue);
            return new Binding(b.boundAs(), f, f.ungatedSteps().isEmpty(), checks);
        }).toList();
        return new Report(bindings, List.copyOf(flows.values()));
    }

    /** The enabled gated steps of the realm's bound flows (the flows {@link #ungated} looks at), in binding order. */
    static List<AuthenticationExecutionModel> gated(KeycloakSession session, RealmModel realm) {
        GatedSteps gatedSteps = GatedSteps.of(session);
        List<AuthenticationExecutionModel> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String flowId : bindings(session, realm).keySet()) {
            collect(realm::getAuthenticationExecutionsStream, flowId, gatedSteps.ids()::contains, seen, out);
        }
        return out;
    }

    /** The realm's bound flows by id, each with where Keycloak runs it, in binding order. */
    private static Map<String, List<String>> bindings(KeycloakSession session, RealmModel realm) {
        Map<String, List<String>> bindings = new LinkedHashMap<>();
        bind(bindings, realm.getBrowserFlow(), "browser flow");
        boolean directGrants = realm.getClientsStream().anyMatch(ClientModel::isDirectAccessGrantsEnabled);
        if (directGrants) {
            bind(bindings, realm.getDirectGrantFlow(), "direct grant flow");
        }
        // Whether or not the realm allows them now: turning "Forgot password" or "User registration" on changes no flow.
        bind(bindings, realm.getResetCredentialsFlow(), "reset credentials flow");
        bind(bindings, realm.getRegistrationFlow(), "registration flow");
        RealmModel before = session.getContext().getRealm();
        session.getContext().setRealm(realm); // identity providers are read for the context's realm
        try {
            session.identityProviders().getAllStream().filter(IdentityProviderModel::isEnabled).forEach(idp -> {
                String first = idp.getFirstBrokerLoginFlowId();
                bind(bindings, first == null || first.isBlank() ? realm.getFirstBrokerLoginFlow() : realm.getAuthenticationFlowById(first),
                        "first broker login flow of identity provider '" + idp.getAlias() + "'");
                String post = idp.getPostBrokerLoginFlowId();
                if (post != null && !post.isBlank()) {
                    bind(bindings, realm.getAuthenticationFlowById(post), "post broker login flow of identity provider '" + idp.getAlias() + "'");
                }
            });
        } finally {
            session.getContext().setRealm(before);
        }
        boolean ecp = false;
        for (ClientModel client : (Iterable<ClientModel>) realm.getClientsStream()::iterator) {
            Map<String, String> overrides = client.getAuthenticationFlowBindingOverrides();
            String browser = overrides == null ? null : overrides.get(AuthenticationFlowBindings.BROWSER_BINDING);
            if (browser != null) {
                bind(bindings, realm.getAuthenticationFlowById(browser), "browser flow override of client '" + client.getClientId() + "'");
            }
            String directGrant = overrides == null ? null : overrides.get(AuthenticationFlowBindings.DIRECT_GRANT_BINDING);
            if (directGrant != null && client.isDirectAccessGrantsEnabled()) {
                bind(bindings, realm.getAuthenticationFlowById(directGrant), "direct grant flow override of client '" + client.getClientId() + "'");
            }
            ecp |= "saml".equals(client.getProtocol()) && Boolean.parseBoolean(client.getAttribute(SamlConfigAttributes.SAML_ALLOW_ECP_FLOW));
        }
        if (Profile.isFeatureEnabled(Profile.Feature.DOCKER)) {
            bind(bindings, realm.getDockerAuthenticationFlow(), "docker authentication flow");
        }
        if (ecp) {
            bind(bindings, realm.getFlowByAlias(ECP_FLOW), "SAML ECP (the flow named '" + ECP_FLOW + "')");
        }
        return bindings;
    }

    private static void bind(Map<String, List<String>> bindings, AuthenticationFlowModel flow, String where) {
        if (flow != null) {
            bindings.computeIfAbsent(flow.getId(), id -> new ArrayList<>()).add(where);
        }
    }

    /** The enabled steps of a flow and its enabled sub-flows whose provider id matches (flows in {@code seen} skipped). */
    private static void collect(Function<String, Stream<AuthenticationExecutionModel>> executions, String flowId, Predicate<String> providerId,
                                Set<String> seen, List<AuthenticationExecutionModel> out) {
        if (!seen.add(flowId)) {
            return;
        }
        executions.apply(flowId).filter(e -> !e.isDisabled()).forEach(e -> {
            if (e.isAuthenticatorFlow()) {
                if (e.getFlowId() != null) {
                    collect(executions, e.getFlowId(), providerId, seen, out);
                }
            } else if (providerId.test(e.getAuthenticator())) {
                out.add(e);
            }
        });
    }

    private static String displayName(KeycloakSession session, String providerId) {
        ProviderFactory<Authenticator> f = session.getKeycloakSessionFactory().getProviderFactory(Authenticator.class, providerId);
        return f instanceof AuthenticatorFactory a ? a.getDisplayType() : providerId;
    }

    /** One line naming the realm, each flow with where it is bound, and its ungated steps with their gated replacements. */
    static String describe(String realm, List<Flow> flows) {
        StringBuilder sb = new StringBuilder("Abuse gate: realm '").append(realm)
                .append("' still checks passwords with ungated steps: ");
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            sb.append(i == 0 ? "" : "; ").append("flow '").append(f.alias()).append("' (").append(String.join(", ", f.boundAs())).append("): ");
            for (int j = 0; j < f.ungatedSteps().size(); j++) {
                Step s = f.ungatedSteps().get(j);
                sb.append(j == 0 ? "" : ", ").append(s.displayName()).append(" [").append(s.providerId()).append("], use ")
                        .append(s.gatedStep());
            }
        }
        return sb.append(". See README, Enable; GET /admin/realms/").append(realm).append("/abuse-gate/coverage").toString();
    }

    /** At start-up: a WARN for each realm with ungated password steps (at most {@value #MAX_REALMS_WARNED}, then a count). */
    static void warnAll(KeycloakSession session, GateRuntime runtime) {
        int warned = 0;
        int more = 0;
        for (RealmModel realm : (Iterable<RealmModel>) session.realms().getRealmsStream()::iterator) {
            List<Flow> flows;
            try {
                flows = ungated(session, realm);
            } catch (RuntimeException e) {
                runtime.warnEvery("coverage:" + realm.getId(), "Abuse gate: could not read the flows of realm '" + realm.getName()
                        + "' (" + e.getClass().getSimpleName() + ")");
                continue;
            }
            if (flows.isEmpty()) {
                continue;
            }
            if (warned < MAX_REALMS_WARNED) {
                runtime.warnEvery("coverage:" + realm.getId(), describe(realm.getName(), flows));
                warned++;
            } else {
                more++;
            }
        }
        if (more > 0) {
            LOG.warnf("Abuse gate: %d more realms still check passwords with ungated steps (GET /admin/realms/{realm}/abuse-gate/coverage)", more);
        }
    }
}
