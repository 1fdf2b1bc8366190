package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An allowlisted address skips layers 1, 2 and 4 but never layer 3. */
class AllowlistedAddressesTest {

    private final GateFixture f = new GateFixture();

    @Test
    void an_allowlisted_address_is_never_blocked_by_layers_1_2_and_4() {
        GateOptions o = TestOptions.builder().captchaEnabled(false)
                .layer(Layer.PER_IP, 2, 300).layer(Layer.PER_IP_ACCOUNT, 2, 300).layer(Layer.CREDENTIAL_STUFFING, 2, 300)
                .disable(Layer.ACCOUNT_LOCKOUT)
                .allowlist(Allowlist.parse("203.0.113.0/24, 2001:db8:1::/48")).build();
        for (int i = 0; i < 30; i++) {
            assertThat(f.evaluate(o, "203.0.113.77", "user" + (i % 7)).outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.evaluate(o, "2001:db8:1:2::99", "user" + (i % 7)).outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.evaluate(o, "::ffff:203.0.113.9", "same").outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).as("outside the range").isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void layer_3_still_applies_to_an_allowlisted_address() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).allowlist(Allowlist.parse("192.0.2.0/24")).build();
        f.wrongPassword(o, "192.0.2.5", "alice");
        f.wrongPassword(o, "192.0.2.5", "alice");
        assertThat(f.evaluate(o, "192.0.2.5", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
    }

}
