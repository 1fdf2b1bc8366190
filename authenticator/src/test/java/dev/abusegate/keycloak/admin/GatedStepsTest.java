package dev.abusegate.keycloak.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordFormFactory;
import org.keycloak.authentication.authenticators.browser.PasswordFormFactory;
import org.keycloak.authentication.authenticators.browser.UsernamePasswordFormFactory;
import org.keycloak.authentication.authenticators.directgrant.ValidatePassword;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.protocol.docker.DockerAuthenticator;
import org.keycloak.protocol.saml.profile.ecp.authenticator.HttpBasicAuthenticatorFactory;
import org.junit.jupiter.api.Test;

/**
 * The password coverage check learns from the registered gated steps which of Keycloak's steps check passwords and
 * what stands in for each: every step the JAR registers is known, and every Keycloak step that checks a password
 * has exactly one gated replacement.
 */
class GatedStepsTest {

    /** The server's authenticator factories as Keycloak hands them out: ours, from the JAR's service file, and one stock one. */
    private static KeycloakSessionFactory serverWith(List<AuthenticatorFactory> factories) {
        return (KeycloakSessionFactory) Proxy.newProxyInstance(KeycloakSessionFactory.class.getClassLoader(),
                new Class<?>[] {KeycloakSessionFactory.class}, (p, m, a) -> {
                    if (m.getName().equals("getProviderFactoriesStream") && a[0] == Authenticator.class) {
                        return factories.stream();
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
    }

    private static List<AuthenticatorFactory> registered() {
        List<AuthenticatorFactory> out = new ArrayList<>();
        ServiceLoader.load(AuthenticatorFactory.class).stream()
                .filter(p -> p.type().getName().startsWith("dev.abusegate."))
                .forEach(p -> out.add(p.get()));
        out.add(new UsernamePasswordFormFactory());
        return out;
    }

    @Test
    void each_of_keycloaks_password_steps_has_its_gated_step() {
        PasswordCoverage.GatedSteps steps = PasswordCoverage.GatedSteps.of(serverWith(registered()));

        assertThat(steps.insteadOf()).isEqualTo(Map.of(
                UsernamePasswordFormFactory.PROVIDER_ID, "abuse-gate-username-password-form",
                PasswordFormFactory.PROVIDER_ID, "abuse-gate-password-form",
                ValidatePassword.PROVIDER_ID, "abuse-gate-direct-grant",
                IdpUsernamePasswordFormFactory.PROVIDER_ID, "abuse-gate-idp-username-password",
                HttpBasicAuthenticatorFactory.PROVIDER_ID, "abuse-gate-http-basic",
                DockerAuthenticator.ID, "abuse-gate-docker-http-basic"));
    }

    @Test
    void every_registered_gated_step_counts_as_gated_and_no_stock_step_does() {
        PasswordCoverage.GatedSteps steps = PasswordCoverage.GatedSteps.of(serverWith(registered()));

        assertThat(steps.ids()).containsExactlyInAnyOrder("abuse-gate-username-password-form", "abuse-gate-password-form",
                "abuse-gate-username-form", "abuse-gate-direct-grant", "abuse-gate-idp-username-password",
                "abuse-gate-http-basic", "abuse-gate-docker-http-basic");
    }
}
