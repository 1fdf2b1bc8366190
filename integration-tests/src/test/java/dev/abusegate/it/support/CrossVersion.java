package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test class or method into the cross-version subset: the JUnit tag {@value #TAG}, run against each
 * supported Keycloak release with {@code -Dkeycloak.it.groups=versions -Dkeycloak.it.version=<release>}.
 * The subset touches every provider of the JAR (both forms, direct grant, store, admin API, captcha pages)
 * and stays a few minutes long; add a test here when it covers a Keycloak API the others do not.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(CrossVersion.TAG)
public @interface CrossVersion {

    /** The JUnit tag name. */
    String TAG = "versions";
}
