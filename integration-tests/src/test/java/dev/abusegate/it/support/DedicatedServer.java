package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A {@link ServerTest} class on a Keycloak of its own with these kc.sh options, stopped after the class; {@link Extended}. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Extended
public @interface DedicatedServer {

    /** The server's name (home directory, log file {@code target/keycloak-<name>.log}, container). */
    String name();

    /** kc.sh options, e.g. {@code --features=docker}. */
    String[] options() default {};

    long startTimeoutSeconds() default 300;
}
