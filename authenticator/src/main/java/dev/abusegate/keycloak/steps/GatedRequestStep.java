package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.runtime.GateRuntime;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.Authenticator;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;

/**
 * A gated step that reads its credentials from the request (no form, nothing to set up for a user) and is its own
 * factory: one stateless instance, as Keycloak's direct grant and HTTP Basic steps are, which {@link #create} binds to
 * the server's runtime for each session. It needs no user before it runs, has no reference category, and offers the
 * requirements it is given.
 */
abstract class GatedRequestStep extends GatedStepFactory {

    private final AuthenticationExecutionModel.Requirement[] requirements;

    GatedRequestStep(String id, String displayType, String helpText, String replacedPasswordStep,
            AuthenticationExecutionModel.Requirement... requirements) {
        super(id, displayType, helpText, replacedPasswordStep);
        this.requirements = requirements;
    }

    /** The step's check of one request, with the server's runtime. */
    abstract void authenticate(AuthenticationFlowContext context, GateRuntime runtime);

    @Override
    public Authenticator create(KeycloakSession session) {
        return new Bound(this, runtime(session));
    }

    @Override
    public String getReferenceCategory() {
        return null;
    }

    @Override
    public AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return requirements;
    }

    @Override
    public boolean isUserSetupAllowed() {
        return false;
    }

    /** Nothing to release. */
    @Override
    public void close() {
    }

    /** The shared step for one session, with the runtime its factory handed it. */
    private record Bound(GatedRequestStep step, GateRuntime runtime) implements Authenticator {

        @Override
        public void authenticate(AuthenticationFlowContext context) {
            step.authenticate(context, runtime);
        }

        @Override
        public void action(AuthenticationFlowContext context) {
        }

        @Override
        public boolean requiresUser() {
            return false;
        }

        @Override
        public boolean configuredFor(KeycloakSession session, RealmModel realm, UserModel user) {
            return true;
        }

        @Override
        public void setRequiredActions(KeycloakSession session, RealmModel realm, UserModel user) {
        }

        @Override
        public void close() {
        }
    }
}
