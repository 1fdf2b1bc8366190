package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test class into the extended tier (JUnit tag {@value #TAG}): it runs with {@code ./mvnw -B verify
 * -Pextended} (and in {@code .ci/extended}), not with README's test command, which runs the unit tests and the
 * ITs on the one shared Keycloak and must stay within 10 minutes on 2 cores.
 *
 * <p>A class belongs here when it starts a Keycloak of its own (every {@link DedicatedServer} class is here
 * already: that annotation carries this one; a class that calls {@code KeycloakServer.builder(..).start()}
 * must say it itself, or the default tier refuses the start), or when it floods a store for minutes.
 * Placement is explained in CONTRIBUTING.md ("Test tiers").
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(Extended.TAG)
public @interface Extended {

    /** The JUnit tag name. */
    String TAG = "extended";
}
