package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A gate without keys (the realm has no usable HMAC key) counts nothing and follows each layer's failure mode. */
class GateWithoutKeysTest {

    private final GateFixture f = new GateFixture();

    @Test
    void without_keys_every_enabled_layer_is_unavailable_and_follows_its_failure_mode() {
        GateOptions open = TestOptions.builder().disable(Layer.CREDENTIAL_STUFFING).build();
        Decision d = f.gate.unavailable(open);
        assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(d.unavailable()).containsExactlyInAnyOrder(Layer.PER_IP, Layer.PER_IP_ACCOUNT, Layer.ACCOUNT_LOCKOUT);
        assertThat(f.gate.passwordFailed(d, 0L, java.util.List.of()).unavailable()).as("nothing reserved, nothing to settle").isEmpty();

        GateOptions closed = TestOptions.from(open).failureMode(Layer.ACCOUNT_LOCKOUT, FailureMode.FAIL_CLOSED).build();
        Decision b = f.gate.unavailable(closed);
        assertThat(b.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(b.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
    }
}
