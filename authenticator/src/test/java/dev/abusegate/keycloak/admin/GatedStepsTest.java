package dev.abusegate.keycloak.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordFormFactory;
import org.keycloak.authentication.authenticators.browser.PasswordFormFactory;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordFormFactory;
import org.keycloak.authentication.authenticators.directgrant.ValidatePassword;
import org.keycloak.models.KeycloakSession;
import org.keycloak.protocol.docker.DockerAuthenticator;
import org.keycloak.protocol.saml.profile.ecp.authenticator.HttpBasicAuthenticatorFactory;

/**
 * The password coverage check learns from the JAR's gated steps which of Keycloak's steps check passwords and what
 * stands in for each: every step the JAR registers is known, each of Keycloak's password steps has its replacement,
 * and none of it depends on which steps the server has enabled.
 */
class GatedStepsTest {

    /** A session that fails on any use: the steps must come from the JAR itself, not from the server's enabled ones. */
    private static final KeycloakSession UNTOUCHED = (KeycloakSession) Proxy.newProxyInstance(KeycloakSession.class.getClassLoader(),
            new Class<?>[] {KeycloakSession.class}, (p, m, a) -> {
                throw new AssertionError("the session was asked: " + m.getName());
            });

    @Test
    void each_of_keycloaks_password_steps_has_its_gated_step() {
        PasswordCoverage.GatedSteps steps = PasswordCoverage.GatedSteps.of(UNTOUCHED);

        assertThat(steps.insteadOf()).isEqualTo(Map.of(
                UsernamePasswordFormFactory.PROVIDER_ID, "abuse-gate-username-password-form",
                PasswordFormFactory.PROVIDER_ID, "abuse-gate-password-form",
                ValidatePassword.PROVIDER_ID, "abuse-gate-direct-grant",
                IdpUsernamePasswordFormFactory.PROVIDER_ID, "abuse-gate-idp-username-password",
                HttpBasicAuthenticatorFactory.PROVIDER_ID, "abuse-gate-http-basic",
                DockerAuthenticator.ID, "abuse-gate-docker-http-basic"));
    }

    @Test
    void every_gated_step_of_the_jar_counts_as_gated_and_no_stock_step_does() {
        PasswordCoverage.GatedSteps steps = PasswordCoverage.GatedSteps.of(UNTOUCHED);

        assertThat(steps.ids()).containsExactlyInAnyOrder("abuse-gate-username-password-form", "abuse-gate-password-form",
                "abuse-gate-username-form", "abuse-gate-direct-grant", "abuse-gate-idp-username-password",
                "abuse-gate-http-basic", "abuse-gate-docker-http-basic");
    }
}
