package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test class into the extended tier (JUnit tag {@value #TAG}, {@code -Pextended}), out of the default tier's
 * 10 minutes: a class that starts a Keycloak of its own ({@link DedicatedServer} carries this annotation; without it
 * {@code KeycloakServer.builder(..).start()} refuses in the default tier) or floods a store for minutes.
 * CONTRIBUTING.md, "Test tiers".
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(Extended.TAG)
public @interface Extended {

    String TAG = "extended";
}
