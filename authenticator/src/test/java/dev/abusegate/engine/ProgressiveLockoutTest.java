package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Consecutive locks of one username grow by the progressive factor up to the cap; a success resets the progression. */
class ProgressiveLockoutTest {

    private final GateFixture f = new GateFixture();
    private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60)
            .progressiveLockout(3.0, 600).build();

    private void lockAlice() {
        f.wrongPassword(options, "192.0.2.1", "alice");
        f.wrongPassword(options, "192.0.2.1", "alice");
        assertThat(f.evaluate(options, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    private long lockSeconds() {
        long start = f.clock.millis();
        Decision probe;
        while ((probe = f.evaluate(options, "192.0.2.1", "alice")).outcome() == Outcome.BLOCKED) {
            f.clock.advanceSeconds(1);
        }
        f.gate.notVerified(probe); // a probe, not a login: give its reservation back
        return (f.clock.millis() - start) / 1000;
    }

    @Test
    void each_consecutive_lock_lasts_longer_up_to_the_cap() {
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(60);
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(180);
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(540);
        lockAlice();
        assertThat(lockSeconds()).as("capped").isEqualTo(600);
    }

    @Test
    void a_success_resets_the_progression() {
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(60);
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(180);
        Decision ok = f.evaluate(options, "192.0.2.1", "alice");
        f.gate.passwordSucceeded(ok, java.util.List.of());
        lockAlice();
        assertThat(lockSeconds()).isEqualTo(60);
    }

    @Test
    void the_default_is_a_fixed_lock() {
        GateOptions fixed = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60).build();
        for (int round = 0; round < 3; round++) {
            f.wrongPassword(fixed, "192.0.2.1", "bob");
            f.wrongPassword(fixed, "192.0.2.1", "bob");
            long start = f.clock.millis();
            Decision probe;
            while ((probe = f.evaluate(fixed, "192.0.2.1", "bob")).outcome() == Outcome.BLOCKED) {
                f.clock.advanceSeconds(1);
            }
            f.gate.notVerified(probe);
            assertThat((f.clock.millis() - start) / 1000).isEqualTo(60);
        }
    }

}
