package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.keys.CounterKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StoreFailureTest {

    private static final String IP = "198.51.100.99";
    private static final String ID = "alice";

    @Test
    void a_dead_counter_store_fails_open_or_closed_per_layer_policy() {
        GateFixture open = new GateFixture(TestStores.DeadStore.everywhere());
        Decision allowed = open.evaluate(GateOptions.defaults(), IP, ID);
        assertThat(allowed.outcome()).as("FAIL_OPEN everywhere (the default)").isEqualTo(Outcome.ALLOW);
        // every per-subject layer; the password-spray layer runs only for an attempt with a password
        assertThat(allowed.unavailable()).containsExactlyInAnyOrderElementsOf(java.util.EnumSet.complementOf(java.util.EnumSet.of(Layer.PASSWORD_SPRAY)));
        assertThatCode(() -> {
            open.gate.passwordFailed(allowed, 0L, java.util.List.of());
            open.gate.passwordSucceeded(allowed, java.util.List.of());
            open.gate.notVerified(allowed);
        }).doesNotThrowAnyException();

        GateFixture closed = new GateFixture(TestStores.DeadStore.everywhere());
        TestOptions b = TestOptions.builder();
        for (Layer l : Layer.values()) {
            b.failureMode(l, FailureMode.FAIL_CLOSED);
        }
        Decision blocked = closed.evaluate(b.build(), IP, ID);
        assertThat(blocked.outcome()).as("FAIL_CLOSED everywhere").isEqualTo(Outcome.BLOCKED);
        assertThat(blocked.layer()).isEqualTo(Layer.PER_IP);
        assertThat(blocked.unavailable()).contains(Layer.PER_IP);
    }

    @ParameterizedTest
    @EnumSource(value = Layer.class, names = "PASSWORD_SPRAY", mode = EnumSource.Mode.EXCLUDE) // the per-subject layers
    void one_dead_layer_failing_open_passes_and_is_reported_while_the_others_keep_counting(Layer dead) {
        GateOptions o = TestOptions.builder().captchaEnabled(false).failureMode(dead, FailureMode.FAIL_OPEN).build();
        GateFixture f = new GateFixture(TestStores.DeadStore.forKeys(keysOf(dead, o)));

        Decision d = f.evaluate(o, IP, ID);
        assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(d.unavailable()).containsExactlyInAnyOrderElementsOf(sharingAnEntryWith(dead));

        // the working layers still do their job: per-pair threshold (10) for layer 2, or layer 1 otherwise
        Layer witness = dead == Layer.PER_IP_ACCOUNT ? Layer.PER_IP : Layer.PER_IP_ACCOUNT;
        GateOptions tight = TestOptions.from(o).layer(witness, 2, 300).build();
        GateFixture g = new GateFixture(TestStores.DeadStore.forKeys(keysOf(dead, tight)));
        g.evaluate(tight, IP, ID);
        g.evaluate(tight, IP, ID);
        Decision third = g.evaluate(tight, IP, ID);
        assertThat(third.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(third.layer()).isEqualTo(witness);
    }

    @ParameterizedTest
    @EnumSource(value = Layer.class, names = "PASSWORD_SPRAY", mode = EnumSource.Mode.EXCLUDE) // the per-subject layers
    void one_dead_layer_failing_closed_blocks_and_names_that_layer(Layer dead) {
        GateOptions o = TestOptions.builder().captchaEnabled(false).failureMode(dead, FailureMode.FAIL_CLOSED).build();
        GateFixture f = new GateFixture(TestStores.DeadStore.forKeys(keysOf(dead, o)));
        Decision d = f.evaluate(o, IP, ID);
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(dead);
        assertThat(d.unavailable()).containsExactlyInAnyOrderElementsOf(sharingAnEntryWith(dead));

        Decision elsewhere = f.evaluate(o, "203.0.113.1", "bob");
        assertThat(elsewhere.outcome()).as("other keys of the same layer still work").isEqualTo(Outcome.ALLOW);
        assertThat(elsewhere.unavailable()).isEmpty();
    }

    @Test
    void the_same_dead_store_gives_opposite_outcomes_for_opposite_policies_layer_by_layer() {
        Set<CounterKey> deadKeys = new HashSet<>();
        GateOptions probe = GateOptions.defaults();
        deadKeys.addAll(keysOf(Layer.PER_IP, probe));
        deadKeys.addAll(keysOf(Layer.CREDENTIAL_STUFFING, probe));
        GateOptions mixed = TestOptions.builder().captchaEnabled(false)
                .failureMode(Layer.PER_IP, FailureMode.FAIL_OPEN)
                .failureMode(Layer.CREDENTIAL_STUFFING, FailureMode.FAIL_CLOSED).build();
        Decision d = new GateFixture(TestStores.DeadStore.forKeys(deadKeys)).evaluate(mixed, IP, ID);
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        assertThat(d.unavailable()).containsExactlyInAnyOrder(Layer.PER_IP, Layer.CREDENTIAL_STUFFING);

        GateOptions flipped = TestOptions.builder().captchaEnabled(false)
                .failureMode(Layer.PER_IP, FailureMode.FAIL_CLOSED)
                .failureMode(Layer.CREDENTIAL_STUFFING, FailureMode.FAIL_OPEN).build();
        Decision e = new GateFixture(TestStores.DeadStore.forKeys(deadKeys)).evaluate(flipped, IP, ID);
        assertThat(e.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(e.layer()).isEqualTo(Layer.PER_IP);
    }

    @Test
    void a_store_that_dies_while_the_password_is_checked_does_not_break_settlement() {
        Set<CounterKey> dead = new HashSet<>();
        TestStores.DeadStore store = new TestStores.DeadStore(dead::contains);
        GateFixture f = new GateFixture(store);
        GateOptions o = TestOptions.builder().captchaEnabled(false).build();
        Decision d = f.evaluate(o, IP, ID);
        assertThat(d.allowed()).isTrue();
        dead.addAll(keysOf(Layer.ACCOUNT_LOCKOUT, o));
        Set<Layer> reported = EnumSet.noneOf(Layer.class);
        assertThatCode(() -> reported.addAll(f.gate.passwordFailed(d, 0L, java.util.List.of()).unavailable())).doesNotThrowAnyException();
        assertThat(reported).containsExactly(Layer.ACCOUNT_LOCKOUT);
    }

    private static Set<CounterKey> keysOf(Layer layer, GateOptions o) {
        GateFixture probe = new GateFixture();
        AttemptKeys k = probe.keys(o, IP, ID);
        switch (layer) {
            case PER_IP:
            case CREDENTIAL_STUFFING:
                return Set.of(k.address());
            case PER_IP_ACCOUNT:
                return Set.of(k.pair());
            case ACCOUNT_LOCKOUT:
                return Set.of(k.lockout());
            default:
                throw new AssertionError(layer);
        }
    }

    /**
     * The layers whose state lives in the same entry as {@code layer}'s: layers 1 and 4 share the address's
     * entry, so when it is unreachable both are unavailable (each following its own failure mode).
     */
    private static Set<Layer> sharingAnEntryWith(Layer layer) {
        return layer == Layer.PER_IP || layer == Layer.CREDENTIAL_STUFFING
                ? Set.of(Layer.PER_IP, Layer.CREDENTIAL_STUFFING) : Set.of(layer);
    }
}
