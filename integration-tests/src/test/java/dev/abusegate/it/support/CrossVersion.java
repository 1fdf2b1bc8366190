package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The cross-version subset (tag {@value #TAG}), run on each supported release: a test reaching a Keycloak API no other does. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(CrossVersion.TAG)
public @interface CrossVersion {

    String TAG = "versions";
}
