package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testcontainers.DockerClientFactory;

/**
 * A test class or method that needs the process backend (the default): skipped, with {@link #value()} as the reason,
 * under {@code -Dkeycloak.it.backend=container}. Nothing of a skipped class runs (no {@code @BeforeAll}, no server).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ProcessBackendOnly {

    /** What the test needs that only a local process gives, e.g. "reads the server's providers/ directory". */
    String value();

    /**
     * Whether the selected backend can run a test, decided before anything of it runs (registered for every class by
     * extension auto-detection): on the container backend, every IT is skipped without a Docker engine, and
     * {@link ProcessBackendOnly} classes and methods always, each with its reason.
     */
    final class Condition implements ExecutionCondition {

        /** Asked of testcontainers once per JVM, on first use; the outcome is said once on the console. */
        private static final class Docker {
            static final boolean AVAILABLE = probe();

            private static boolean probe() {
                boolean available;
                try {
                    available = DockerClientFactory.instance().isDockerAvailable();
                } catch (RuntimeException | Error e) {
                    available = false;
                }
                KeycloakServer.log("container backend: " + (available ? "Docker engine found" : "NO Docker engine found; "
                        + "every integration test is SKIPPED (run without -Dkeycloak.it.backend=container to test against "
                        + "the Keycloak distribution as a process)"));
                return available;
            }
        }

        static boolean dockerAvailable() {
            return Docker.AVAILABLE;
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            if (!KeycloakServer.onContainers()) {
                return ConditionEvaluationResult.enabled("process backend");
            }
            if (context.getTestClass().map(c -> c.getSimpleName().endsWith("IT")).orElse(false) && !dockerAvailable()) {
                return ConditionEvaluationResult.disabled("Skipped: -Dkeycloak.it.backend=container needs a Docker engine and "
                        + "testcontainers found none (without the property the ITs run the Keycloak distribution as a process)");
            }
            return context.getElement().flatMap(e -> AnnotationSupport.findAnnotation(e, ProcessBackendOnly.class))
                    .map(a -> ConditionEvaluationResult.disabled(
                            "Skipped on the container backend (needs -Dkeycloak.it.backend=process): " + a.value()))
                    .orElseGet(() -> ConditionEvaluationResult.enabled("container backend"));
        }
    }
}
