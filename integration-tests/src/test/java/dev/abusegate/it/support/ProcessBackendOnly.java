package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class or method that needs the process backend ({@link KeycloakServer.Backend#PROCESS}): it is
 * skipped, with {@link #value()} as the reason, when the run uses {@code -Dkeycloak.it.backend=container}.
 * Nothing of a skipped class runs (no {@code @BeforeAll}, no server start).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ProcessBackendOnly {

    /** What the test needs that only a local process gives, e.g. "reads the server's providers/ directory". */
    String value();
}
