package dev.abusegate.captcha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.VerificationBudget.Answer;
import org.junit.jupiter.api.Test;

class VerificationBudgetTest {

    private static final long WINDOW = 600_000;
    private static final long NOW = 1_800_000_000_000L;

    @Test
    void an_address_gets_its_budget_per_window_and_then_nothing_until_the_window_is_over() {
        VerificationBudget b = new VerificationBudget(100, 100, WINDOW);
        for (int i = 0; i < 3; i++) {
            assertThat(b.tryStart("198.51.100.1", 3, NOW + i)).isEqualTo(Answer.GO);
            b.finish();
        }
        assertThat(b.tryStart("198.51.100.1", 3, NOW + 10)).isEqualTo(Answer.ADDRESS_BUDGET_SPENT);
        assertThat(b.tryStart("198.51.100.1", 3, NOW + WINDOW - 1)).isEqualTo(Answer.ADDRESS_BUDGET_SPENT);
        assertThat(b.tryStart("198.51.100.2", 3, NOW + 10)).as("another address has its own budget").isEqualTo(Answer.GO);
        b.finish();
        assertThat(b.tryStart("198.51.100.1", 3, NOW + WINDOW)).as("a new window").isEqualTo(Answer.GO);
        b.finish();
    }

    @Test
    void no_more_than_the_cap_are_in_flight_and_a_refused_one_costs_the_address_nothing() {
        VerificationBudget b = new VerificationBudget(2, 100, WINDOW);
        assertThat(b.tryStart("a", 5, NOW)).isEqualTo(Answer.GO);
        assertThat(b.tryStart("b", 5, NOW)).isEqualTo(Answer.GO);
        for (int i = 0; i < 10; i++) {
            assertThat(b.tryStart("c", 5, NOW)).isEqualTo(Answer.TOO_MANY_IN_FLIGHT);
        }
        b.finish();
        for (int i = 0; i < 5; i++) {
            assertThat(b.tryStart("c", 5, NOW)).as("c's budget is intact, #%d", i).isEqualTo(Answer.GO);
            b.finish();
        }
        assertThat(b.tryStart("c", 5, NOW)).isEqualTo(Answer.ADDRESS_BUDGET_SPENT);
    }

    @Test
    void a_full_table_refuses_new_addresses_rather_than_growing_and_frees_up_when_windows_end() {
        VerificationBudget b = new VerificationBudget(100, 50, WINDOW);
        for (int i = 0; i < 50; i++) {
            assertThat(b.tryStart("10.0.0." + i, 1, NOW)).isEqualTo(Answer.GO);
            b.finish();
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(b.tryStart("10.1." + (i / 256) + "." + (i % 256), 1, NOW + 1)).isEqualTo(Answer.TOO_MANY_ADDRESSES);
        }
        // The refused addresses were never tracked (their windows, from NOW + 1, would still be open): once the
        // first 50 windows end, the whole table is free again, and holds exactly the addresses let in since.
        assertThat(b.tryStart("10.2.0.1", 1, NOW + WINDOW)).as("old windows are purged").isEqualTo(Answer.GO);
        b.finish();
        for (int i = 2; i <= 50; i++) {
            assertThat(b.tryStart("10.2.0." + i, 1, NOW + WINDOW)).as("address %d of 50", i).isEqualTo(Answer.GO);
            b.finish();
        }
        assertThat(b.tryStart("10.3.0.1", 1, NOW + WINDOW)).as("the 51st address").isEqualTo(Answer.TOO_MANY_ADDRESSES);
    }
}
