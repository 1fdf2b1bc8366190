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

/** A test that needs the process backend: skipped, with {@link #value()} as the reason, on the container backend. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ProcessBackendOnly {

    /** What the test needs that only a local process gives, e.g. "reads the server's providers/ directory". */
    String value();

    /**
     * Whether a test can run here (every class, by extension auto-detection): without Chromium a {@link NeedsChromium} test
     * is skipped (unless CI=true), and on the container backend every IT without Docker and {@link ProcessBackendOnly} ones.
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
            String chromium = HeadlessChromium.missing();
            if (chromium != null && !"true".equalsIgnoreCase(System.getenv("CI"))
                    && context.getElement().flatMap(e -> AnnotationSupport.findAnnotation(e, NeedsChromium.class)).isPresent()) {
                KeycloakServer.log("SKIPPED " + context.getDisplayName() + ": " + chromium);
                return ConditionEvaluationResult.disabled("SKIPPED " + context.getDisplayName() + ": " + chromium);
            }
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
