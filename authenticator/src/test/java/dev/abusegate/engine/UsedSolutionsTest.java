package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A captcha solution is read as used only once {@link AbuseGate#firstUse} recorded it, and only until it expires. */
class UsedSolutionsTest {

    private final GateFixture f = new GateFixture();
    private final byte[] digest = digest(7);

    private static byte[] digest(int b) {
        byte[] d = new byte[32];
        Arrays.fill(d, (byte) b);
        return d;
    }

    @Test
    void reading_a_solution_records_nothing_and_the_first_use_still_counts() {
        long expiry = f.clock.millis() + 60_000;
        assertThat(f.gate.used(GateFixture.REALM, digest)).isFalse();
        assertThat(f.gate.used(GateFixture.REALM, digest)).as("a read wrote nothing").isFalse();
        assertThat(f.gate.firstUse(GateFixture.REALM, digest, expiry)).isTrue();
        assertThat(f.gate.used(GateFixture.REALM, digest)).isTrue();
        assertThat(f.gate.firstUse(GateFixture.REALM, digest, expiry)).as("a replay").isFalse();
    }

    @Test
    void a_record_is_read_per_realm_and_until_it_expires() {
        assertThat(f.gate.firstUse(GateFixture.REALM, digest, f.clock.millis() + 60_000)).isTrue();
        assertThat(f.gate.used("realm-b", digest)).as("another realm's record").isFalse();
        assertThat(f.gate.used(GateFixture.REALM, digest(8))).as("another solution").isFalse();
        f.clock.advanceMillis(60_001);
        assertThat(f.gate.used(GateFixture.REALM, digest)).as("expired").isFalse();
    }
}
