package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test into the cross-version subset (JUnit tag {@value #TAG}), run on each supported Keycloak release: a few
 * minutes that touch every provider of the JAR. Add a test when it reaches a Keycloak API the others do not.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(CrossVersion.TAG)
public @interface CrossVersion {

    String TAG = "versions";
}
