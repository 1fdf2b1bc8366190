package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AbuseGateLayersTest {

    private final GateFixture f = new GateFixture();

    // ---- layer 1 ------------------------------------------------------------------------------

    @Test
    void layer1_counts_all_attempts_and_blocks_the_address_not_the_account() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP, 3, 300).build();
        String ip = "198.51.100.7";

        Decision wrong = f.evaluate(o, ip, "alice");
        assertThat(wrong.outcome()).isEqualTo(Outcome.ALLOW);
        f.gate.passwordFailed(wrong, 0L, java.util.List.of());
        Decision right = f.evaluate(o, ip, "bob");
        assertThat(right.outcome()).isEqualTo(Outcome.ALLOW);
        f.gate.passwordSucceeded(right, java.util.List.of());
        Decision unverified = f.evaluate(o, ip, "carol");
        assertThat(unverified.outcome()).isEqualTo(Outcome.ALLOW);
        f.gate.notVerified(unverified);
        assertThat(f.perIpCount(o, ip)).as("successes, failures and unverified all count").isEqualTo(3);

        Decision blocked = f.evaluate(o, ip, "alice");
        assertThat(blocked.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(blocked.layer()).isEqualTo(Layer.PER_IP);
        assertThat(f.evaluate(o, ip, "dave").layer()).as("any account from this address").isEqualTo(Layer.PER_IP);
        assertThat(f.perIpCount(o, ip)).as("blocked attempts count on layer 1 too").isEqualTo(5);

        assertThat(f.evaluate(o, "203.0.113.9", "alice").outcome())
                .as("the same account from another address passes")
                .isEqualTo(Outcome.ALLOW);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 25})
    void a_threshold_is_how_many_are_let_through(int threshold) {
        GateOptions o = only(Layer.PER_IP, threshold, 300).build();
        for (int i = 1; i <= threshold; i++) {
            assertThat(f.evaluate(o, "198.51.100.1", "user" + i).outcome()).as("attempt %d", i).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.evaluate(o, "198.51.100.1", "another").outcome()).as("attempt %d", threshold + 1)
                .isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void threshold_three_lets_attempts_one_to_three_through_on_every_layer() {
        // Layer 2: the same pair.
        GateOptions o2 = only(Layer.PER_IP_ACCOUNT, 3, 900).build();
        assertThat(outcomes(4, i -> f.evaluate(o2, "198.51.100.2", "alice")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
        // Layer 3: failed verifications.
        GateOptions o3 = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        assertThat(outcomes(4, i -> f.wrongPassword(o3, "198.51.100.3", "bob")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
        // Layer 4: distinct identifiers.
        GateOptions o4 = only(Layer.CREDENTIAL_STUFFING, 3, 600).build();
        assertThat(outcomes(4, i -> f.evaluate(o4, "198.51.100.4", "id" + i)))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    // ---- layer 2 ------------------------------------------------------------------------------

    @Test
    void layer2_counts_per_address_and_identifier_pair() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP_ACCOUNT, 2, 900).build();
        String ip = "198.51.100.20";
        assertThat(f.wrongPassword(o, ip, "alice").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.wrongPassword(o, ip, "Alice ").outcome()).as("same identifier after normalization").isEqualTo(Outcome.ALLOW);
        Decision third = f.evaluate(o, ip, "alice");
        assertThat(third.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(third.layer()).isEqualTo(Layer.PER_IP_ACCOUNT);

        assertThat(f.evaluate(o, ip, "bob").outcome()).as("another identifier from the same address").isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, "203.0.113.20", "alice").outcome()).as("the same identifier from another address")
                .isEqualTo(Outcome.ALLOW);
        assertThat(f.pairCount(o, ip, "alice")).as("the blocked attempt counted on layer 2").isEqualTo(3);
    }

    // ---- layer 3 ------------------------------------------------------------------------------

    @Test
    void layer3_locks_the_account_across_all_addresses_and_expires_by_clock() {
        GateOptions o = TestOptions.builder().captchaEnabled(false)
                .layer(Layer.ACCOUNT_LOCKOUT, 3, 900).lockoutSeconds(900).build();

        assertThat(f.wrongPassword(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(100);
        assertThat(f.wrongPassword(o, "198.51.100.2", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(100);
        assertThat(f.wrongPassword(o, "2001:db8:77::1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        // locked now, measured from here

        Decision fromElsewhere = f.evaluate(o, "203.0.113.50", "alice");
        assertThat(fromElsewhere.outcome()).as("locked from an address that never failed").isEqualTo(Outcome.BLOCKED);
        assertThat(fromElsewhere.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
        assertThat(f.evaluate(o, "198.51.100.1", "bob").outcome()).as("only the account is locked").isEqualTo(Outcome.ALLOW);

        f.clock.advanceSeconds(899);
        assertThat(f.evaluate(o, "198.51.100.9", "alice").outcome()).as("1 s before the lock ends").isEqualTo(Outcome.BLOCKED);
        f.clock.advanceSeconds(1);
        Decision recovered = f.evaluate(o, "198.51.100.1", "alice");
        assertThat(recovered.outcome()).as("lockoutSeconds after the lock").isEqualTo(Outcome.ALLOW);
        f.gate.passwordFailed(recovered, 0L, java.util.List.of());

        // starts from zero: two more failures (three in all since the lock) are still allowed
        assertThat(f.wrongPassword(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.wrongPassword(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void layer3_lock_is_not_extended_by_blocked_attempts() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(600).build();
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.wrongPassword(o, "198.51.100.1", "alice");
        for (int i = 0; i < 59; i++) {
            f.clock.advanceSeconds(10);
            assertThat(f.evaluate(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }
        f.clock.advanceSeconds(10);
        assertThat(f.evaluate(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer3_blocked_attempts_never_add_to_the_failures() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP, 1, 300)
                .layer(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        f.wrongPassword(o, "198.51.100.1", "alice");
        assertThat(f.failures(o, "alice")).isEqualTo(1);
        for (int i = 0; i < 10; i++) {
            Decision d = f.evaluate(o, "198.51.100.1", "alice"); // blocked by layer 1
            assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(d.layer()).isEqualTo(Layer.PER_IP);
            f.gate.passwordFailed(d, 0L, java.util.List.of()); // a careless caller settling a blocked decision changes nothing
        }
        assertThat(f.failures(o, "alice")).isEqualTo(1);
        assertThat(f.evaluate(o, "198.51.100.2", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer3_a_locked_account_does_not_collect_failures_while_locked() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60).build();
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.wrongPassword(o, "198.51.100.1", "alice");
        for (int i = 0; i < 5; i++) {
            assertThat(f.wrongPassword(o, "198.51.100.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }
        assertThat(f.failures(o, "alice")).isZero();
    }

    @Test
    void layer3_a_successful_password_clears_the_failures() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.wrongPassword(o, "198.51.100.1", "alice");
        assertThat(f.failures(o, "alice")).isEqualTo(2);

        Decision ok = f.evaluate(o, "198.51.100.1", "alice");
        assertThat(ok.outcome()).isEqualTo(Outcome.ALLOW);
        f.gate.passwordSucceeded(ok, java.util.List.of());
        assertThat(f.failures(o, "alice")).isZero();

        assertThat(outcomes(4, i -> f.wrongPassword(o, "198.51.100.1", "alice")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    @Test
    void layer3_one_wrong_password_among_attempts_let_through_together_does_not_lock() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        // three attempts let through before any password is checked: every slot is taken
        Decision first = f.evaluate(o, "198.51.100.1", "alice");
        Decision second = f.evaluate(o, "198.51.100.2", "alice");
        Decision third = f.evaluate(o, "198.51.100.3", "alice");
        assertThat(List.of(first.outcome(), second.outcome(), third.outcome())).containsOnly(Outcome.ALLOW);

        f.gate.passwordFailed(first, 0L, java.util.List.of()); // one wrong password; the other two are still being checked
        assertThat(f.evaluate(o, "192.0.2.9", "alice").outcome()).as("all slots taken, not locked")
                .isEqualTo(Outcome.BLOCKED);
        f.gate.passwordSucceeded(second, java.util.List.of());
        f.gate.passwordSucceeded(third, java.util.List.of());

        assertThat(f.evaluate(o, "192.0.2.10", "alice").outcome()).as("one failure never locks at threshold 3")
                .isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer3_a_wrong_password_in_the_last_slot_among_right_ones_does_not_lock() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        Decision first = f.evaluate(o, "198.51.100.1", "alice");
        Decision second = f.evaluate(o, "198.51.100.2", "alice");
        Decision third = f.evaluate(o, "198.51.100.3", "alice");
        f.gate.passwordFailed(third, 0L, java.util.List.of()); // the only wrong password, in the last slot
        assertThat(f.lockRemaining(o, "alice")).as("one confirmed failure of three").isZero();
        f.gate.passwordSucceeded(first, java.util.List.of());
        f.gate.passwordSucceeded(second, java.util.List.of());
        assertThat(f.evaluate(o, "192.0.2.10", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer3_the_lock_comes_with_the_threshold_th_confirmed_failure_in_any_order() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision first = f.evaluate(o, "198.51.100.1", "alice");
        Decision last = f.evaluate(o, "198.51.100.2", "alice");
        f.gate.passwordFailed(last, 0L, java.util.List.of());
        assertThat(f.lockRemaining(o, "alice")).as("one failure confirmed").isZero();
        f.gate.passwordFailed(first, 0L, java.util.List.of());
        assertThat(f.lockRemaining(o, "alice")).as("both confirmed: locked for the lockout").isEqualTo(900_000);
        assertThat(f.failures(o, "alice")).as("the lock cleared the failures").isZero();
        Decision after = f.evaluate(o, "192.0.2.9", "alice");
        assertThat(after.outcome()).as("locked, not just full").isEqualTo(Outcome.BLOCKED);
        assertThat(after.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
    }

    @Test
    void layer3_a_failure_reported_after_a_success_is_not_counted_against_later_attempts() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision a = f.evaluate(o, "198.51.100.1", "alice"); // a slow check
        Decision b = f.evaluate(o, "198.51.100.2", "alice");
        f.gate.passwordSucceeded(b, java.util.List.of()); // while A is still being checked
        Decision u = f.evaluate(o, "198.51.100.3", "alice");
        assertThat(u.outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, "198.51.100.4", "alice").outcome()).as("A and U hold both slots").isEqualTo(Outcome.BLOCKED);
        f.gate.passwordFailed(a, 0L, java.util.List.of());
        f.gate.passwordSucceeded(u, java.util.List.of());
        assertThat(f.lockRemaining(o, "alice")).as("U's right password: no lock").isZero();
        assertThat(f.failures(o, "alice")).isZero();
    }

    @Test
    void layer3_a_give_back_after_a_success_frees_only_its_own_slot() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision a = f.evaluate(o, "198.51.100.1", "alice");
        Decision b = f.evaluate(o, "198.51.100.2", "alice");
        f.gate.passwordSucceeded(b, java.util.List.of());
        Decision x = f.evaluate(o, "198.51.100.3", "alice");
        f.gate.notVerified(a); // A never got to the password check
        Decision y = f.evaluate(o, "198.51.100.4", "alice");
        Decision z = f.evaluate(o, "198.51.100.5", "alice");
        assertThat(List.of(x.outcome(), y.outcome(), z.outcome()))
                .as("after the success, two slots: X and Y").containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    @Test
    void layer3_a_lock_leaves_the_slot_of_an_attempt_still_being_checked_to_that_attempt() {
        // two flows share the account's failures but not their thresholds (a stricter direct grant, say)
        GateOptions form = only(Layer.ACCOUNT_LOCKOUT, 3, 900).lockoutSeconds(60).build();
        GateOptions strict = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60).build();
        Decision w1 = f.evaluate(strict, "198.51.100.2", "alice");
        Decision w2 = f.evaluate(strict, "198.51.100.3", "alice");
        Decision x = f.evaluate(form, "198.51.100.1", "alice"); // the third slot, within the form's threshold
        assertThat(List.of(w1.outcome(), w2.outcome(), x.outcome())).containsOnly(Outcome.ALLOW);
        f.gate.passwordFailed(w1, 0L, java.util.List.of());
        f.gate.passwordFailed(w2, 0L, java.util.List.of()); // while X is being checked
        assertThat(f.lockRemaining(form, "alice")).as("the strict flow locked").isPositive();
        assertThat(f.failures(form, "alice")).as("X's slot outlives the lock").isEqualTo(1);
        f.gate.passwordFailed(x, 0L, java.util.List.of()); // X's wrong password is its own failure, not lost with the lock
        f.clock.advanceSeconds(61);
        assertThat(f.failures(form, "alice")).isEqualTo(1);
        assertThat(outcomes(3, i -> f.wrongPassword(form, "198.51.100.4", "alice")))
                .as("after the lock: two more slots of three").containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    @Test
    void layer3_not_verified_gives_the_reservation_back() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        for (int i = 0; i < 10; i++) {
            Decision d = f.evaluate(o, "198.51.100.1", "alice");
            assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.failures(o, "alice")).as("reserved before verification").isEqualTo(1);
            f.gate.notVerified(d);
            assertThat(f.failures(o, "alice")).isZero();
        }
        assertThat(outcomes(3, i -> f.wrongPassword(o, "198.51.100.1", "alice")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    @Test
    void layer3_failures_slide_and_expire_after_a_quiet_window() {
        GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 3, 100).build();
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.clock.advanceSeconds(100);
        assertThat(f.failures(o, "alice")).isZero();
        assertThat(outcomes(4, i -> f.wrongPassword(o, "198.51.100.1", "alice")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    // ---- layer 4 ------------------------------------------------------------------------------

    @Test
    void layer4_counts_distinct_identifiers_per_address_not_raw_attempts() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.CREDENTIAL_STUFFING, 3, 600).build();
        String ip = "198.51.100.40";
        assertThat(f.evaluate(o, ip, "alice").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, ip, "bob").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, ip, "carol").outcome()).isEqualTo(Outcome.ALLOW);
        for (int i = 0; i < 5; i++) {
            assertThat(f.evaluate(o, ip, i % 2 == 0 ? "alice" : "BOB").outcome())
                    .as("retrying a seen identifier does not advance the layer").isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.distinctIdentifiers(o, ip)).isEqualTo(3);

        Decision fourth = f.evaluate(o, ip, "dave");
        assertThat(fourth.outcome()).as("the (T+1)th new identifier trips it").isEqualTo(Outcome.BLOCKED);
        assertThat(fourth.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        assertThat(f.evaluate(o, "198.51.100.41", "dave").outcome()).as("another address is not affected")
                .isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer4_stays_tripped_while_new_identifiers_keep_coming_and_resets_after_a_quiet_window() {
        GateOptions o = only(Layer.CREDENTIAL_STUFFING, 2, 600).build();
        String ip = "198.51.100.42";
        f.evaluate(o, ip, "a");
        f.evaluate(o, ip, "b");
        for (int i = 0; i < 20; i++) {
            f.clock.advanceSeconds(300);
            assertThat(f.evaluate(o, ip, "new" + i).outcome()).isEqualTo(Outcome.BLOCKED);
        }
        f.clock.advanceSeconds(600);
        assertThat(f.evaluate(o, ip, "fresh").outcome()).isEqualTo(Outcome.ALLOW);
    }

    // ---- sliding windows ----------------------------------------------------------------------

    @Test
    void each_increment_refreshes_the_expiry_so_the_window_slides() {
        GateOptions o = only(Layer.PER_IP, 3, 300).build();
        String ip = "198.51.100.60";
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(200);
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(200);
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(200);
        // 600 s after the first attempt, but never 300 s quiet: a fixed bucket would have reset by now
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void a_full_quiet_window_resets_the_counter() {
        GateOptions o = only(Layer.PER_IP, 2, 300).build();
        String ip = "198.51.100.61";
        f.evaluate(o, ip, "a");
        f.evaluate(o, ip, "a");
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.BLOCKED);
        f.clock.advanceMillis(300_000 - 1);
        assertThat(f.perIpCount(o, ip)).as("one millisecond short of a quiet window").isEqualTo(3);
        f.clock.advanceMillis(1);
        assertThat(f.perIpCount(o, ip)).isZero();
        assertThat(outcomes(3, i -> f.evaluate(o, ip, "a")))
                .containsExactly(Outcome.ALLOW, Outcome.ALLOW, Outcome.BLOCKED);
    }

    @Test
    void a_client_that_keeps_hammering_stays_blocked_until_quiet_for_a_full_window() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP, 3, 300)
                .layer(Layer.PER_IP_ACCOUNT, 1000, 900).build();
        String ip = "198.51.100.62";
        for (int i = 0; i < 3; i++) {
            f.evaluate(o, ip, "alice");
        }
        for (int i = 0; i < 40; i++) { // 40 x 299 s: far beyond the window, never quiet for one
            f.clock.advanceSeconds(299);
            assertThat(f.evaluate(o, ip, "alice").outcome()).as("hammer %d", i).isEqualTo(Outcome.BLOCKED);
        }
        f.clock.advanceSeconds(299);
        assertThat(f.evaluate(o, ip, "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        f.clock.advanceSeconds(300);
        assertThat(f.evaluate(o, ip, "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void layer2_window_slides_too() {
        GateOptions o = only(Layer.PER_IP_ACCOUNT, 1, 900).build();
        f.evaluate(o, "198.51.100.63", "alice");
        f.clock.advanceSeconds(899);
        assertThat(f.evaluate(o, "198.51.100.63", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        f.clock.advanceSeconds(899);
        assertThat(f.evaluate(o, "198.51.100.63", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        f.clock.advanceSeconds(900);
        assertThat(f.evaluate(o, "198.51.100.63", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void disabled_layers_neither_block_nor_count() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).disable(Layer.PER_IP).disable(Layer.PER_IP_ACCOUNT)
                .disable(Layer.ACCOUNT_LOCKOUT).disable(Layer.CREDENTIAL_STUFFING).build();
        for (int i = 0; i < 500; i++) {
            assertThat(f.wrongPassword(o, "198.51.100.64", "user" + (i % 50)).outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.perIpCount(o, "198.51.100.64")).isZero();
        assertThat(f.failures(o, "user1")).isZero();
    }

    private static List<Outcome> outcomes(int n, java.util.function.IntFunction<Decision> attempt) {
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(attempt.apply(i).outcome());
        }
        return out;
    }
}
