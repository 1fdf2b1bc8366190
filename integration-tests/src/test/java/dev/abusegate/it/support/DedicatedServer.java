package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link ServerTest} class: the class runs on a Keycloak of its own, started with these kc.sh options
 * beside the shared one, and stopped after the class. Such a class is in the {@link Extended} tier.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Extended
public @interface DedicatedServer {

    /** Names the server (home directory, log file {@code target/keycloak-<name>.log}, container). */
    String name();

    /** kc.sh options, e.g. {@code --features=docker}. */
    String[] options() default {};

    /** How long to wait for the server to be ready. */
    long startTimeoutSeconds() default 300;
}
