package dev.abusegate.it.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testcontainers.DockerClientFactory;

/**
 * Whether the selected backend can run a test class, decided before anything of it runs (registered for every class
 * by extension auto-detection): on the container backend, every IT is skipped without a Docker engine, and
 * {@link ProcessBackendOnly} classes and methods always, each with its reason.
 */
public final class BackendCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        KeycloakServer.Backend backend = KeycloakServer.Backend.selected();
        if (backend == KeycloakServer.Backend.PROCESS) {
            return ConditionEvaluationResult.enabled("process backend");
        }
        boolean integrationTest = context.getTestClass().map(c -> c.getSimpleName().endsWith("IT")).orElse(false);
        if (integrationTest && !dockerAvailable()) {
            return ConditionEvaluationResult.disabled("Skipped: -Dkeycloak.it.backend=container needs a Docker engine and "
                    + "testcontainers found none (without the property the ITs run the Keycloak distribution as a process)");
        }
        return context.getElement()
                .flatMap(e -> AnnotationSupport.findAnnotation(e, ProcessBackendOnly.class))
                .map(a -> ConditionEvaluationResult.disabled(
                        "Skipped on the container backend (needs -Dkeycloak.it.backend=process): " + a.value()))
                .orElseGet(() -> ConditionEvaluationResult.enabled("container backend"));
    }

    /** Asks testcontainers once per JVM (on first use); says the outcome once on the console. */
    static boolean dockerAvailable() {
        return Docker.AVAILABLE;
    }

    private static final class Docker {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            boolean available;
            try {
                available = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | Error e) {
                available = false;
            }
            System.out.println("[keycloak-it] container backend: " + (available
                    ? "Docker engine found"
                    : "NO Docker engine found; every integration test is SKIPPED (run without -Dkeycloak.it.backend=container "
                      + "to test against the Keycloak distribution as a process)"));
            return available;
        }
    }
}
