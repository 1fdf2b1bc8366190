package dev.abusegate.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Layer 3's entry as its changes leave it: counts, lock and run read back as written, and nothing kept that holds nothing. */
class LockoutEntryTest {

    private static final long WINDOW = 60_000;

    private static Change.Fail fail(long now, long threshold, double factor, long tag, boolean reserved) {
        return TestChanges.fail(now, threshold, WINDOW, 30_000, factor, 600_000, tag, tag != 0, reserved, false);
    }

    @Test
    void reservations_failures_locks_and_runs_read_back_as_written_at_any_time_the_gate_writes() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 2_000; i++) {
            long now = r.nextLong(1, 1L << 47);
            long threshold = r.nextLong(2, 50);
            long reservations = r.nextLong(1, threshold);
            long[] v = null;
            for (int k = 0; k < reservations; k++) {
                v = next(new Change.Reserve(now, false, new Limit(threshold, Long.MAX_VALUE, WINDOW)), true, v);
            }
            long failures = r.nextLong(0, reservations + 1);
            for (int k = 0; k < failures; k++) {
                v = next(fail(now, threshold, 2.0, r.nextLong(), true), true, v);
            }
            LockoutEntry e = LockoutEntry.of(v);
            assertThat(e.taken(now)).isEqualTo(reservations);
            assertThat(e.confirmed(now)).isEqualTo(failures);
            assertThat(e.failuresRemaining(now)).isEqualTo(WINDOW);
            assertThat(e.lockRemaining(now)).isZero();
            assertThat(e.taken(now + WINDOW)).as("expired").isZero();
            // the failures that reach the threshold lock: 30 s for the first lock of a run, a run of one
            long[] locked = v;
            for (long k = failures; k < threshold; k++) {
                locked = next(fail(now, threshold, 2.0, 0, false), true, locked);
            }
            LockoutEntry l = LockoutEntry.of(locked);
            assertThat(FailureOutcome.of(locked)).isEqualTo(FailureOutcome.LOCKED);
            assertThat(l.lockRemaining(now)).isEqualTo(30_000);
            assertThat(l.lockRun(now)).isEqualTo(1);
            assertThat(l.confirmed(now)).as("the confirmed failures go with the lock").isZero();
            assertThat(l.taken(now)).as("reservations still being checked stay").isEqualTo(reservations - failures);
        }
    }

    @Test
    void an_account_whose_only_reservation_is_given_back_holds_nothing() {
        long now = 1_000;
        long[] v = next(new Change.Reserve(now, false, new Limit(10, Long.MAX_VALUE, WINDOW)), true, null);
        assertThat(AdmissionAnswer.of(v).outcome()).isEqualTo(LayerOutcome.COUNTED);
        assertThat(LockoutEntry.of(v).taken(now)).isEqualTo(1);
        assertThat(next(new Change.GiveBack(now + 1, false), true, v)).as("no entry left").isNull();
        assertThat(next(new Change.Succeed(now + 1, true, false, false), true, v)).as("no entry left").isNull();
    }

    @Test
    void the_same_wrong_password_counts_once_and_a_new_one_counts_again() {
        long now = 1_000;
        Limit limit = new Limit(10, Long.MAX_VALUE, WINDOW);
        long[] v = next(new Change.Reserve(now, false, limit), true, null);
        v = next(fail(now, 10, 1.0, 77, true), true, v);
        assertThat(FailureOutcome.of(v)).isEqualTo(FailureOutcome.COUNTED);
        v = next(new Change.Reserve(now, false, limit), true, v);
        v = next(fail(now, 10, 1.0, 77, true), true, v);
        assertThat(FailureOutcome.of(v)).isEqualTo(FailureOutcome.REPEATED);
        assertThat(LockoutEntry.of(v).confirmed(now)).isEqualTo(1);
        assertThat(LockoutEntry.of(v).taken(now)).as("the repeat's reservation is given back").isEqualTo(1);
        v = next(new Change.Reserve(now, false, limit), true, v);
        v = next(fail(now, 10, 1.0, 78, true), true, v);
        assertThat(LockoutEntry.of(v).confirmed(now)).isEqualTo(2);
    }

    private static long[] next(Change change, boolean create, long[] old) {
        return change.next(create, old);
    }
}
