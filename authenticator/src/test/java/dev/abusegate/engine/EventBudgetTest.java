package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The realms' budgets of refusal events: per realm, per minute, the left-out count handed to the next recorded one. */
class EventBudgetTest {

    private final MutableClock clock = new MutableClock();
    private final EventBudget budget = new EventBudget(clock);

    /** Takes {@code n} refusals in {@code realm}; returns their answers. */
    private List<Long> take(String realm, int perMinute, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(budget.take(realm, perMinute));
        }
        return out;
    }

    @Test
    void the_first_refusals_of_a_minute_are_recorded_up_to_the_budget_then_left_out() {
        assertThat(take("r1", 3, 10)).containsExactly(0L, 0L, 0L, -1L, -1L, -1L, -1L, -1L, -1L, -1L);
    }

    @Test
    void the_next_recorded_refusal_after_the_minute_carries_how_many_were_left_out_then_the_count_starts_over() {
        take("r1", 3, 10); // 3 recorded, 7 left out
        clock.advanceSeconds(59);
        assertThat(budget.take("r1", 3)).as("still the same minute").isEqualTo(EventBudget.LEAVE_OUT);
        clock.advanceSeconds(1);
        assertThat(budget.take("r1", 3)).as("a new minute: the 8 left out").isEqualTo(8L);
        assertThat(budget.take("r1", 3)).as("handed over once").isZero();
        assertThat(budget.take("r1", 3)).isZero();
        assertThat(budget.take("r1", 3)).isEqualTo(EventBudget.LEAVE_OUT);
    }

    @Test
    void another_realm_has_its_own_budget() {
        take("flooded", 3, 1_000);
        assertThat(take("quiet", 3, 3)).containsExactly(0L, 0L, 0L);
        assertThat(budget.take("quiet", 3)).isEqualTo(EventBudget.LEAVE_OUT);
        clock.advanceSeconds(60);
        assertThat(budget.take("quiet", 3)).isEqualTo(1L);
        assertThat(budget.take("flooded", 3)).isEqualTo(997L);
    }

    @Test
    void zero_records_every_refusal_and_hands_over_what_an_earlier_budget_left_out() {
        assertThat(take("r1", 0, 100)).containsOnly(0L);
        assertThat(budget.tracked()).as("nothing tracked without a budget").isZero();
        take("r1", 2, 5); // 3 left out
        assertThat(budget.take("r1", 0)).isEqualTo(3L);
        assertThat(take("r1", 0, 10)).containsOnly(0L);
    }

    @Test
    void a_time_read_just_before_the_minute_started_is_in_that_minute() {
        assertThat(budget.take("r1", 1)).isZero();
        clock.advanceSeconds(60);
        assertThat(budget.take("r1", 1)).as("a new minute").isZero();
        clock.advanceMillis(-5); // a request that read the time before the one that started the minute
        assertThat(budget.take("r1", 1)).as("the same minute: its budget is spent").isEqualTo(EventBudget.LEAVE_OUT);
    }

    @Test
    void a_clock_set_back_starts_a_new_minute_and_loses_no_count() {
        take("r1", 1, 4); // 1 recorded, 3 left out
        clock.advanceSeconds(-3_600);
        assertThat(budget.take("r1", 1)).isEqualTo(3L);
    }

    @Test
    void at_the_bound_ended_realms_without_left_out_refusals_are_forgotten_and_a_realm_without_room_is_not_limited() {
        EventBudget small = new EventBudget(clock, 2);
        small.take("a", 1);
        small.take("b", 1);
        small.take("b", 1); // b has one left out: never forgotten
        assertThat(small.take("c", 1)).as("no room, nothing ended yet: not limited").isZero();
        assertThat(small.take("c", 1)).isZero();
        assertThat(small.tracked()).isEqualTo(2);
        clock.advanceSeconds(60);
        assertThat(small.take("c", 1)).as("a's minute ended: forgotten, c tracked").isZero();
        assertThat(small.take("c", 1)).isEqualTo(EventBudget.LEAVE_OUT);
        assertThat(small.take("b", 1)).as("b's left-out count survived the sweep").isEqualTo(1L);
        assertThat(small.tracked()).isEqualTo(2);
    }

    @Test
    void concurrent_refusals_lose_no_left_out_count() throws Exception {
        int threads = 8;
        int perThread = 5_000;
        int perMinute = 100;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    long recorded = 0;
                    long handed = 0;
                    for (int i = 0; i < perThread; i++) {
                        if (i == perThread / 2 && Thread.currentThread().getName().endsWith("-1")) {
                            clock.advanceSeconds(60); // a new minute while the others are taking
                        }
                        long r = budget.take("r1", perMinute);
                        if (r != EventBudget.LEAVE_OUT) {
                            recorded++;
                            handed += r;
                        }
                    }
                    return new long[] {recorded, handed};
                }));
            }
            start.countDown();
            long recorded = 0;
            long handed = 0;
            for (Future<long[]> f : results) {
                long[] r = f.get(60, TimeUnit.SECONDS);
                recorded += r[0];
                handed += r[1];
            }
            clock.advanceSeconds(60);
            long rest = budget.take("r1", perMinute);
            long total = (long) threads * perThread;
            assertThat(recorded).as("at most the budget in each of the two minutes").isBetween(1L, 2L * perMinute);
            assertThat(recorded + handed + rest).as("every refusal recorded, or counted in a later recorded one").isEqualTo(total);
        } finally {
            pool.shutdownNow();
        }
    }
}
