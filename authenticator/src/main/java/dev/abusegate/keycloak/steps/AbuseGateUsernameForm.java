package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.answer.TooManyAttemptsPage;
import dev.abusegate.keycloak.runtime.GateRuntime;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.UsernameForm;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordForm;
import org.keycloak.forms.login.LoginFormsProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.services.messages.Messages;

/**
 * The identity-first username page with the gate in front: layers 1, 2 and 4 and their captcha band run on
 * the typed name and the client address before Keycloak looks the name up. When Keycloak then chooses a
 * user, a server-side auth note ({@link IdentityFirstHandover}) tells the gated password step
 * ({@link AbuseGatePasswordForm}) that this attempt is already counted there, so it runs only layer 3.
 *
 * <p>Keycloak's {@code UsernameForm} is final: this is a {@code UsernamePasswordForm} with the same
 * overrides (username-only page and messages), and the page itself is shown by a {@code UsernameForm}.
 */
public class AbuseGateUsernameForm extends UsernamePasswordForm implements GatedForm {

    private final KeycloakSession session;
    private final GateRuntime runtime;

    public AbuseGateUsernameForm(KeycloakSession session, GateRuntime runtime) {
        super(session);
        this.session = session;
        this.runtime = runtime;
    }

    @Override
    public GateRuntime runtime() {
        return runtime;
    }

    @Override
    public void authenticate(AuthenticationFlowContext context) {
        // Keycloak's own Username Form decides whether to show the page (it skips it on re-authentication
        // unless the user has linked identity providers).
        new UsernameForm(session).authenticate(context);
    }

    @Override
    protected boolean validateForm(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return gatedCheck(context, formData);
    }

    @Override
    public TooManyAttemptsPage.Fields shownFields(AuthenticationFlowContext context) {
        return TooManyAttemptsPage.Fields.USERNAME;
    }

    @Override
    public LayerScope scope(AuthenticationFlowContext context) {
        return LayerScope.BEFORE_LOOKUP;
    }

    @Override
    public boolean keycloakCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return validateUser(context, formData);
    }

    @Override
    protected Response challenge(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        LoginFormsProvider forms = context.form();
        if (!formData.isEmpty()) {
            forms.setFormData(formData);
        }
        return forms.createLoginUsername();
    }

    @Override
    protected Response createLoginForm(LoginFormsProvider form) {
        return form.createLoginUsername();
    }

    @Override
    protected String getDefaultChallengeMessage(AuthenticationFlowContext context) {
        return context.getRealm().isLoginWithEmailAllowed() ? Messages.INVALID_USERNAME_OR_EMAIL : Messages.INVALID_USERNAME;
    }
}
