package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static dev.abusegate.engine.GateFixture.attempt;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** A submitted captcha is verified only when the answer depends on it. */
class LazyCaptchaVerificationTest {

    private final GateFixture f = new GateFixture();
    private final GateOptions options = only(Layer.PER_IP, 4, 300).captchaEnabled(true).captchaFactor(0.5).build();
    private final AtomicInteger verifications = new AtomicInteger();

    private BooleanSupplier solution(boolean valid) {
        return () -> {
            verifications.incrementAndGet();
            return valid;
        };
    }

    private Decision attemptWith(BooleanSupplier captcha) {
        return GateFixture.evaluate(f.gate, options, attempt("192.0.2.1", "alice"), captcha);
    }

    @Test
    void below_the_band_a_submitted_solution_is_never_verified() {
        assertThat(attemptWith(solution(true)).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(attemptWith(solution(true)).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(verifications).hasValue(0);
    }

    @Test
    void in_the_band_the_solution_is_verified_once_and_decides() {
        attemptWith(null);
        attemptWith(null);
        assertThat(attemptWith(solution(false)).outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(verifications).hasValue(1);
        assertThat(attemptWith(solution(true)).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(verifications).hasValue(2);
    }

    @Test
    void past_the_threshold_a_submitted_solution_is_never_verified() {
        for (int i = 0; i < 4; i++) {
            f.evaluate(TestOptions.from(options).captchaEnabled(false).build(), "192.0.2.1", "alice");
        }
        assertThat(attemptWith(solution(true)).outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(verifications).hasValue(0);
    }
}
