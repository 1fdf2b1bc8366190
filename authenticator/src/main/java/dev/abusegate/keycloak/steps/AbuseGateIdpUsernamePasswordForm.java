package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.runtime.GateRuntime;
import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordForm;
import org.keycloak.models.KeycloakSession;

/**
 * Keycloak's "Username Password Form for identity provider reauthentication" (the first broker login flow's
 * "Authenticate to link your account" page) with the gate in front: on every POST the gate runs first, on the
 * name Keycloak is about to check, before the lookup and the hash. Keycloak's own page, lookup, dummy hash,
 * brute-force detection and linking run unchanged, and their outcome feeds the account-lockout layer.
 *
 * <p>The gate runs in {@code validateUserAndPassword}, after Keycloak's {@code validateForm} has put the
 * account found by the broker into the context: the name counted is the one Keycloak checks (that account
 * when Keycloak ignores the typed name, else the typed name).
 */
public class AbuseGateIdpUsernamePasswordForm extends IdpUsernamePasswordForm implements GatedForm {

    private final GateRuntime runtime;

    public AbuseGateIdpUsernamePasswordForm(KeycloakSession session, GateRuntime runtime) {
        super(session);
        this.runtime = runtime;
    }

    @Override
    public GateRuntime runtime() {
        return runtime;
    }

    @Override
    public boolean validateUserAndPassword(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return gatedCheck(context, formData);
    }

    @Override
    public boolean keycloakCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return super.validateUserAndPassword(context, formData);
    }
}
