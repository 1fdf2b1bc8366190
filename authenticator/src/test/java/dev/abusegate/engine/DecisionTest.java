package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A decision is a value: it is handed to events, metrics and the settlement after the password check, and none of
 * them may see it change. Every field is final, set when it is made.
 */
class DecisionTest {

    @Test
    void every_field_of_a_decision_is_final() {
        assertThat(Arrays.stream(Decision.class.getDeclaredFields())
                .filter(f -> !f.isSynthetic() && !Modifier.isFinal(f.getModifiers()))
                .map(Field::getName))
                .as("fields set after construction")
                .isEmpty();
    }
}
