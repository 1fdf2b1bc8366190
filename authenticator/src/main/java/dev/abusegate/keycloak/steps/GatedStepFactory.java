package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.StatelessFactory;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.store.GateStoreProviderFactory;

import java.util.List;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.provider.ProviderConfigProperty;

/**
 * What every gated step's factory gives the admin console alike: its id, name and help text, and the gate's settings
 * as its configuration; and which of Keycloak's password steps it stands in for ({@link #replacedPasswordStep()}).
 * The two shapes of gated step extend it: {@link GatedFormFactory} (a login form, described as the stock form it
 * replaces) and {@link GatedRequestStep} (a step that is its own factory).
 */
public abstract class GatedStepFactory implements AuthenticatorFactory, StatelessFactory<Authenticator> {

    private final String id;
    private final String displayType;
    private final String helpText;
    private final String replacedPasswordStep;

    /**
     * @param id                   the provider id; Keycloak stores it in a 36-character column
     * @param helpText             the step's own help; the gate's common help ({@link GateConfig#STEP_HELP}) follows it
     * @param replacedPasswordStep see {@link #replacedPasswordStep()}
     */
    GatedStepFactory(String id, String displayType, String helpText, String replacedPasswordStep) {
        this.id = id;
        this.displayType = displayType;
        this.helpText = helpText + " " + GateConfig.STEP_HELP;
        this.replacedPasswordStep = replacedPasswordStep;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public String getDisplayType() {
        return displayType;
    }

    @Override
    public String getHelpText() {
        return helpText;
    }

    @Override
    public boolean isConfigurable() {
        return true;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return GateConfig.properties();
    }

    /**
     * The provider id of Keycloak's own step that checks passwords and that this step stands in for; null when this
     * step checks no password. The realm's password coverage (the admin API's {@code coverage} and the start-up WARN)
     * reads it from every gated step the JAR registers.
     */
    public String replacedPasswordStep() {
        return replacedPasswordStep;
    }

    /** The server's runtime, from its owner (the store's factory), for the step this factory creates for a session. */
    static GateRuntime runtime(KeycloakSession session) {
        return GateStoreProviderFactory.of(session.getKeycloakSessionFactory()).runtime(session);
    }
}
