package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.answer.TooManyAttemptsPage;
import dev.abusegate.keycloak.runtime.GateRuntime;
import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator;
import org.keycloak.authentication.authenticators.browser.PasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserModel;

/**
 * Keycloak's Password Form (identity-first flows) with the gate in front. The identifier is the one chosen
 * on the username page. After the gated username step ({@link AbuseGateUsernameForm}) counted this attempt
 * on layers 1, 2 and 4, only layer 3 runs here; on its own (after the stock Username Form, on
 * re-authentication, on a retry on this page) every layer runs.
 */
public class AbuseGatePasswordForm extends PasswordForm implements GatedForm {

    private final GateRuntime runtime;

    public AbuseGatePasswordForm(KeycloakSession session, GateRuntime runtime) {
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

    /** The account Keycloak found on the username page (this step requires one). */
    @Override
    public UserModel knownUser(AuthenticationFlowContext context) {
        return context.getUser();
    }

    /** The account Keycloak already found on the username page (one budget whether typed as name or e-mail). */
    @Override
    public String countedName(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        UserModel user = context.getUser();
        if (user != null) {
            return user.getUsername();
        }
        return context.getAuthenticationSession().getAuthNote(AbstractUsernameFormAuthenticator.ATTEMPTED_USERNAME);
    }

    @Override
    public TooManyAttemptsPage.Fields shownFields(AuthenticationFlowContext context) {
        return TooManyAttemptsPage.Fields.PASSWORD;
    }

    @Override
    public LayerScope scope(AuthenticationFlowContext context) {
        return new IdentityFirstHandover(context).passwordStepScope();
    }

    @Override
    public boolean keycloakCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return super.validateForm(context, formData);
    }
}
