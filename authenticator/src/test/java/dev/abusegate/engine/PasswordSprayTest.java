package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import static dev.abusegate.engine.GateFixture.REALM;
import static dev.abusegate.engine.GateFixture.SOLVED;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.spray.PasswordBuckets;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The password-spray layer on the reference store and a hand-moved clock: one password failing for its threshold of
 * distinct accounts sends every later attempt with it to the captcha, never to a block.
 */
class PasswordSprayTest {

    private static final byte[] KEY = "spray-key-of-realm-a".getBytes(StandardCharsets.UTF_8);
    private static final String SPRAYED = "Winter2026!";

    private final GateFixture f = new GateFixture();
    private final GateOptions options = only(Layer.PASSWORD_SPRAY, 10, 3600).build();

    private long bucket(String password) {
        return f.gate.passwordBucket(options, REALM, () -> KEY, password);
    }

    private Decision attempt(GateOptions o, int client, String name, String password, BooleanSupplier captcha) {
        return f.gate.evaluate(o, new Attempt(REALM, "198.51.100." + client, name, null), captcha, true, bucket(password));
    }

    /** An attempt whose password check fails when the gate lets it through. */
    private Decision fail(GateOptions o, int client, String name, String password) {
        Decision d = attempt(o, client, name, password, null);
        if (d.allowed()) {
            f.gate.passwordFailed(d, 0L, List.of());
        }
        return d;
    }

    private void spray(GateOptions o, int accounts) {
        for (int i = 1; i <= accounts; i++) {
            assertThat(fail(o, i, "user" + i, SPRAYED).outcome()).as("account " + i).isEqualTo(Outcome.ALLOW);
        }
    }

    @Test
    void ten_accounts_failing_one_password_send_the_eleventh_attempt_to_the_captcha() {
        spray(options, 10);
        Decision eleventh = attempt(options, 11, "user11", SPRAYED, null);
        assertThat(eleventh.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(eleventh.layer()).isEqualTo(Layer.PASSWORD_SPRAY);
        assertThat(eleventh.layer().label()).isEqualTo("password_spray");
        // an account already counted gets the same answer: the bucket is sprayed, whoever types it
        assertThat(attempt(options, 12, "user3", SPRAYED, null).outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
    }

    @Test
    void a_solved_captcha_passes_and_a_right_password_there_is_marked_for_operators() {
        spray(options, 10);
        Decision solved = attempt(options, 11, "alice", SPRAYED, SOLVED);
        assertThat(solved.outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(solved.passwordSprayed()).isTrue();
        assertThat(attempt(options, 11, "alice", "another password", null).passwordSprayed()).isFalse();
    }

    @Test
    void another_password_passes_meanwhile() {
        spray(options, 10);
        assertThat(attempt(options, 50, "alice", "correct horse battery staple", null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void the_window_expires_and_the_bucket_starts_afresh() {
        spray(options, 10);
        f.clock.advanceSeconds(3599);
        assertThat(attempt(options, 11, "user11", SPRAYED, null).outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        f.clock.advanceSeconds(2);
        assertThat(attempt(options, 11, "user11", SPRAYED, null).outcome()).isEqualTo(Outcome.ALLOW);
        spray(options, 9);
        assertThat(attempt(options, 11, "user11", SPRAYED, null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void retrying_the_same_account_counts_once() {
        for (int i = 0; i < 30; i++) {
            fail(options, i % 200 + 1, i % 2 == 0 ? "alice" : "ALICE ", SPRAYED);
        }
        spray(options, 8); // alice and 8 others: 9 accounts
        assertThat(attempt(options, 99, "bob", SPRAYED, null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void blank_passwords_have_no_bucket_and_are_never_counted() {
        assertThat(bucket(null)).isEqualTo(AbuseGate.NO_PASSWORD_BUCKET);
        assertThat(bucket("")).isEqualTo(AbuseGate.NO_PASSWORD_BUCKET);
        assertThat(bucket(" \t\n")).isEqualTo(AbuseGate.NO_PASSWORD_BUCKET);
        for (int i = 1; i <= 30; i++) {
            fail(options, i, "user" + i, "   ");
        }
        assertThat(attempt(options, 31, "user31", "   ", null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void the_layer_never_blocks() {
        for (int i = 1; i <= 100; i++) {
            assertThat(fail(options, i, "user" + i, SPRAYED).outcome()).as("attempt " + i).isNotEqualTo(Outcome.BLOCKED);
        }
    }

    @Test
    void buckets_keep_twenty_bits() {
        for (int i = 0; i < 1000; i++) {
            assertThat(bucket("password" + i)).isBetween(0L, (1L << PasswordBuckets.BITS) - 1);
        }
        assertThat(f.gate.passwordBucket(options, REALM, () -> "another key".getBytes(StandardCharsets.UTF_8), SPRAYED)).isNotEqualTo(bucket(SPRAYED));
    }

    @Test
    void a_rotated_key_resets_the_counts() {
        spray(options, 10);
        byte[] rotated = "rotated spray key".getBytes(StandardCharsets.UTF_8);
        long fresh = f.gate.passwordBucket(options, REALM, () -> rotated, SPRAYED);
        Decision d = f.gate.evaluate(options, new Attempt(REALM, "198.51.100.11", "user11", null), null, true, fresh);
        assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void only_a_failed_check_counts_a_bucket() {
        for (int i = 1; i <= 20; i++) {
            Decision d = attempt(options, i, "user" + i, SPRAYED, null);
            f.gate.notVerified(d); // no password checked
            f.gate.passwordSucceeded(attempt(options, i, "user" + i, SPRAYED, null), List.of());
        }
        assertThat(attempt(options, 21, "user21", SPRAYED, null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void the_layer_off_counts_nothing() {
        GateOptions off = TestOptions.from(options).disable(Layer.PASSWORD_SPRAY).build();
        for (int i = 1; i <= 20; i++) {
            fail(off, i, "user" + i, SPRAYED);
        }
        assertThat(attempt(options, 21, "user21", SPRAYED, null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void a_step_that_cannot_carry_a_captcha_counts_but_is_not_asked() {
        for (int i = 1; i <= 10; i++) {
            Decision d = f.gate.evaluate(options, new Attempt(REALM, "198.51.100." + i, "user" + i, null), null, false, bucket(SPRAYED));
            assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
            f.gate.passwordFailed(d, 0L, List.of());
        }
        assertThat(f.gate.evaluate(options, new Attempt(REALM, "198.51.100.11", "user11", null), null, false, bucket(SPRAYED))
                .outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(attempt(options, 11, "user11", SPRAYED, null).outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
    }

    @Test
    void a_captcha_for_the_spray_gives_back_what_the_address_layers_counted() {
        GateOptions withPerIp = TestOptions.from(options).layer(Layer.PER_IP, 3, 300).build();
        spray(withPerIp, 10);
        for (int i = 0; i < 10; i++) {
            assertThat(attempt(withPerIp, 200, "victim", SPRAYED, null).outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        }
        // the address was not counted by the refused attempts: its three attempts are all still there
        for (int i = 0; i < 3; i++) {
            assertThat(attempt(withPerIp, 200, "victim", "other", null).outcome()).as("attempt " + i).isEqualTo(Outcome.ALLOW);
        }
    }

    @Test
    void a_store_that_fails_follows_the_failure_mode_and_never_blocks() {
        GateFixture dead = new GateFixture(TestStores.DeadStore.everywhere());
        long b = dead.gate.passwordBucket(options, REALM, () -> KEY, SPRAYED);
        Decision open = dead.gate.evaluate(options, new Attempt(REALM, "198.51.100.1", "alice", null), null, true, b);
        assertThat(open.outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(open.unavailable()).isEqualTo(Set.of(Layer.PASSWORD_SPRAY));
        assertThat(dead.gate.passwordFailed(open, 0L, List.of()).unavailable()).contains(Layer.PASSWORD_SPRAY);
        GateOptions closed = TestOptions.from(options).failureMode(Layer.PASSWORD_SPRAY, FailureMode.FAIL_CLOSED).build();
        Decision d = dead.gate.evaluate(closed, new Attempt(REALM, "198.51.100.1", "alice", null), null, true, b);
        assertThat(d.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(dead.gate.evaluate(closed, new Attempt(REALM, "198.51.100.1", "alice", null), SOLVED, true, b).passwordSprayed())
                .as("a failed read says nothing about the password").isFalse();
    }

    @Test
    void a_flood_of_distinct_buckets_switches_no_layer_off() {
        GateFixture small = new GateFixture(clock -> new ReferenceCounterStore(clock, 64, 64));
        GateOptions o = TestOptions.from(options).layer(Layer.PER_IP, 3, 300).build();
        java.util.function.BiFunction<Integer, String, Decision> failing = (i, pw) -> {
            Decision d = small.gate.evaluate(o, new Attempt(REALM, "10.0." + i / 250 + "." + (i % 250 + 1), "user" + i, null),
                    SOLVED, true, small.gate.passwordBucket(o, REALM, () -> KEY, pw));
            if (d.allowed()) {
                small.gate.passwordFailed(d, 0L, List.of());
            }
            return d;
        };
        for (int i = 0; i < 10; i++) {
            failing.apply(i, SPRAYED);
        }
        // a flood of distinct passwords, one failure each, from fresh accounts and addresses of the same realm
        for (int i = 10; i < 2010; i++) {
            assertThat(failing.apply(i, "flood password " + i).outcome()).isEqualTo(Outcome.ALLOW);
        }
        Decision sprayed = small.gate.evaluate(o, new Attempt(REALM, "198.51.100.77", "late", null), null, true,
                small.gate.passwordBucket(o, REALM, () -> KEY, SPRAYED));
        assertThat(sprayed.outcome()).as("the sprayed bucket still asks for a captcha").isEqualTo(Outcome.CAPTCHA_REQUIRED);
        // layer 1 still counts an address of its own
        for (int i = 0; i < 3; i++) {
            small.gate.evaluate(o, new Attempt(REALM, "198.51.100.88", "someone", null), SOLVED, true, small.gate.passwordBucket(o, REALM, () -> KEY, "x" + i));
        }
        assertThat(small.gate.evaluate(o, new Attempt(REALM, "198.51.100.88", "someone", null), SOLVED, true, AbuseGate.NO_PASSWORD_BUCKET)
                .outcome()).isNotEqualTo(Outcome.ALLOW);
    }
}
