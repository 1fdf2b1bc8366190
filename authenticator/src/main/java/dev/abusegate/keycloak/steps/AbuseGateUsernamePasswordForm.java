package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.runtime.GateRuntime;
import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordForm;
import org.keycloak.models.KeycloakSession;

/**
 * Keycloak's Username Password Form with the gate in front: on every POST the gate runs first, with
 * the submitted username, before any user lookup or hash. A missing (empty or blank) password is then
 * answered from the request alone, the same for every name. Otherwise Keycloak's own logic runs unchanged
 * (dummy hash for unknown users, remember-me, passkeys, brute-force detection), and its outcome feeds the
 * account-lockout layer. On re-authentication (prompt=login, max_age, step-up) Keycloak checks the password of the
 * user it already knows and ignores any username field, so the gate counts that user.
 */
public class AbuseGateUsernamePasswordForm extends UsernamePasswordForm implements GatedForm {

    private final GateRuntime runtime;

    public AbuseGateUsernamePasswordForm(KeycloakSession session, GateRuntime runtime) {
        super(session);
        this.runtime = runtime;
    }

    @Override
    public GateRuntime runtime() {
        return runtime;
    }

    @Override
    protected boolean validateForm(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return gatedCheck(context, formData);
    }
}
