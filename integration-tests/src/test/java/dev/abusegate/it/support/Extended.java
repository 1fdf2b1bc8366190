package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The extended tier ({@code -Pextended}): a class starting a Keycloak of its own or flooding a store (CONTRIBUTING.md). */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(Extended.TAG)
public @interface Extended {

    String TAG = "extended";
}
