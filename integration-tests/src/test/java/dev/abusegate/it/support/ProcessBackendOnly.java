package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * A test class or method that needs the process backend ({@link KeycloakServer.Backend#PROCESS}): it is
 * skipped, with {@link #value()} as the reason, when the run uses {@code -Dkeycloak.it.backend=container}.
 * Nothing of a skipped class runs (no {@code @BeforeAll}, no server start).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(ProcessBackendOnly.Condition.class)
public @interface ProcessBackendOnly {

    /** What the test needs that only a local process gives, e.g. "reads the server's providers/ directory". */
    String value();

    /** Disables annotated tests on the container backend. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getElement()
                    .flatMap(e -> AnnotationSupport.findAnnotation(e, ProcessBackendOnly.class))
                    .filter(a -> KeycloakServer.Backend.selected() == KeycloakServer.Backend.CONTAINER)
                    .map(a -> ConditionEvaluationResult.disabled(
                            "Needs the process backend (-Dkeycloak.it.backend=process): " + a.value()))
                    .orElseGet(() -> ConditionEvaluationResult.enabled("backend " + KeycloakServer.Backend.selected()));
        }
    }
}
