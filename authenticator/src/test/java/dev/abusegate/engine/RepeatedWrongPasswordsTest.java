package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** With the option on, a repeated identical wrong password never locks; different wrong passwords still do. */
class RepeatedWrongPasswordsTest {

    private final GateFixture f = new GateFixture();
    private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 3, 900).ignoreRepeatedPasswords(true).build();

    private Decision fail(String address, long tag) {
        Decision d = f.evaluate(options, address, "alice");
        if (d.allowed()) {
            f.gate.passwordFailed(d, tag, java.util.List.of());
        }
        return d;
    }

    @Test
    void the_same_typo_repeated_never_locks() {
        for (int i = 0; i < 20; i++) {
            assertThat(fail("192.0.2." + (i % 5 + 1), 0x5eed_5eedL).outcome()).as("attempt " + (i + 1)).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.failures(options, "alice")).isEqualTo(1);
    }

    @Test
    void different_wrong_passwords_still_lock() {
        fail("192.0.2.1", 11);
        fail("192.0.2.1", 12);
        fail("192.0.2.1", 13);
        assertThat(f.evaluate(options, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void without_the_option_repeats_count() {
        GateOptions off = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        for (int i = 0; i < 3; i++) {
            Decision d = f.evaluate(off, "192.0.2.1", "alice");
            f.gate.passwordFailed(d, 42, java.util.List.of());
        }
        assertThat(f.evaluate(off, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
    }
}
