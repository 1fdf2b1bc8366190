package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One warning per topic per period, by the clock; topics are independent and their number is bounded. */
class WarnLimiterTest {

    private final MutableClock clock = new MutableClock(1_000_000);
    private final WarnLimiter limiter = new WarnLimiter(clock, 60_000, 3);

    @Test
    void a_topic_warns_once_a_period() {
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isTrue();
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isFalse();
        clock.advanceMillis(59_999);
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isFalse();
        clock.advanceMillis(1);
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isTrue();
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isFalse();
    }

    @Test
    void another_cause_warns_on_its_own() {
        assertThat(limiter.due("store:r:per_ip:TimeoutException")).isTrue();
        assertThat(limiter.due("store:r:per_ip:CounterStoreException")).isTrue();
        assertThat(limiter.due("store:r:per_ip:CounterStoreException")).isFalse();
    }

    @Test
    void past_its_bound_it_forgets_and_may_warn_again() {
        limiter.due("a");
        limiter.due("b");
        limiter.due("c");
        assertThat(limiter.due("a")).isFalse();
        assertThat(limiter.due("d")).as("a fourth topic clears the table").isTrue();
        assertThat(limiter.due("a")).isTrue();
    }

    @Test
    void rejects_a_period_or_bound_that_is_not_positive() {
        assertThatThrownBy(() -> new WarnLimiter(clock, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarnLimiter(clock, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
