package dev.abusegate.keycloak.steps;

import java.util.Set;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.util.function.BiFunction;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;

/**
 * The factory of a gated login form: what the admin console and flows see of the stock form it replaces (reference
 * category, passkey category, requirement choices, user setup) comes from that form's own Keycloak factory; the step
 * adds its id, name, help text and the gate's settings ({@link GatedStepFactory}). A subclass is one constructor call.
 */
abstract class GatedFormFactory extends GatedStepFactory {

    private final AuthenticatorFactory keycloak;
    private final BiFunction<KeycloakSession, GateRuntime, Authenticator> create;

    /**
     * @param keycloak       the stock form's factory, asked for what the admin console and flows see besides the step's
     *                       own name
     * @param checksPassword whether the stock form checks a password (so that this one stands in for it there)
     * @param create         the form for a session, given the server's runtime
     */
    GatedFormFactory(AuthenticatorFactory keycloak, boolean checksPassword, String id, String displayType, String helpText,
            BiFunction<KeycloakSession, GateRuntime, Authenticator> create) {
        super(id, displayType, helpText, checksPassword ? keycloak.getId() : null);
        this.keycloak = keycloak;
        this.create = create;
    }

    @Override
    public Authenticator create(KeycloakSession session) {
        return create.apply(session, runtime(session));
    }

    @Override
    public String getReferenceCategory() {
        return keycloak.getReferenceCategory();
    }

    @Override
    public Set<String> getOptionalReferenceCategories(KeycloakSession session) {
        return keycloak.getOptionalReferenceCategories(session);
    }

    @Override
    public AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return keycloak.getRequirementChoices();
    }

    @Override
    public boolean isUserSetupAllowed() {
        return keycloak.isUserSetupAllowed();
    }
}
