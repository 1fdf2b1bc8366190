package dev.abusegate.it.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a test class or method that drives {@link HeadlessChromium}: without Chromium on this machine the test is
 * reported as skipped with the install command as its reason, and the run goes on; with {@code CI=true} it runs
 * and fails instead (CI runs every browser test).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(HeadlessChromium.Condition.class)
public @interface NeedsChromium {
}
