package dev.abusegate.keycloak.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The order in which waiting password checks get their turn: what a real user behind an attacker's burst observes as
 * waiting time. Each check records its name when its turn comes and ends its turn at once, so the record is the order
 * of the turns.
 */
class PasswordCheckQueueTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<String> turns = Collections.synchronizedList(new ArrayList<>());
    private final List<Future<?>> checks = new ArrayList<>();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** Starts a check that waits for its turn, and returns once it is waiting (so arrivals have a known order). */
    private void arrive(PasswordCheckQueue queue, String realm, String lane, String name) throws InterruptedException {
        int before = queue.waiting();
        checks.add(threads.submit(() -> {
            try (PasswordCheckQueue.Turn turn = queue.take(realm, lane)) {
                turns.add(name);
            }
        }));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (queue.waiting() == before) {
            assertThat(System.nanoTime()).as("check " + name + " never started waiting").isLessThan(until);
            Thread.sleep(1);
        }
    }

    private List<String> finish(PasswordCheckQueue.Turn held) throws Exception {
        held.close();
        for (Future<?> f : checks) {
            f.get(10, TimeUnit.SECONDS);
        }
        return turns;
    }

    @Test
    void a_check_from_another_address_waits_for_one_check_of_a_burst_not_the_whole_burst() throws Exception {
        PasswordCheckQueue queue = new PasswordCheckQueue(1);
        PasswordCheckQueue.Turn held = queue.take("realm", "198.51.100.7");
        for (int i = 1; i <= 5; i++) {
            arrive(queue, "realm", "198.51.100.7", "attack" + i);
        }
        arrive(queue, "realm", "203.0.113.1", "user");

        assertThat(finish(held)).containsExactly("attack1", "user", "attack2", "attack3", "attack4", "attack5");
    }

    @Test
    void one_address_keeps_its_own_arrival_order_and_addresses_take_turns() throws Exception {
        PasswordCheckQueue queue = new PasswordCheckQueue(1);
        PasswordCheckQueue.Turn held = queue.take("realm", "a");
        arrive(queue, "realm", "a", "a1");
        arrive(queue, "realm", "a", "a2");
        arrive(queue, "realm", "b", "b1");
        arrive(queue, "realm", "a", "a3");
        arrive(queue, "realm", "b", "b2");
        arrive(queue, "realm", "c", "c1");

        assertThat(finish(held)).containsExactly("a1", "b1", "c1", "a2", "b2", "a3");
    }

    @Test
    void a_realm_flooded_from_many_addresses_takes_one_turn_in_two_against_another_realm() throws Exception {
        PasswordCheckQueue queue = new PasswordCheckQueue(1);
        PasswordCheckQueue.Turn held = queue.take("flooded", "10.0.0.0");
        for (int i = 1; i <= 4; i++) {
            arrive(queue, "flooded", "10.0.0." + i, "bot" + i);
        }
        arrive(queue, "other", "203.0.113.1", "user1");
        arrive(queue, "other", "203.0.113.2", "user2");

        assertThat(finish(held)).containsExactly("bot1", "user1", "bot2", "user2", "bot3", "bot4");
    }

    @Test
    void as_many_checks_as_turns_run_at_once_and_an_ended_turn_is_free_again() throws Exception {
        PasswordCheckQueue queue = new PasswordCheckQueue(2);
        PasswordCheckQueue.Turn first = queue.take("realm", "a");
        PasswordCheckQueue.Turn second = queue.take("realm", "b");
        assertThat(queue.waiting()).isZero();

        CountDownLatch third = new CountDownLatch(1);
        checks.add(threads.submit(() -> {
            try (PasswordCheckQueue.Turn turn = queue.take("realm", "c")) {
                third.countDown();
            }
        }));
        assertThat(third.await(200, TimeUnit.MILLISECONDS)).as("a third check waits while two run").isFalse();
        first.close();
        assertThat(third.await(10, TimeUnit.SECONDS)).as("an ended turn lets the waiting check in").isTrue();
        second.close();
        checks.get(0).get(10, TimeUnit.SECONDS);

        // both turns are free again: two more checks run at once without waiting
        PasswordCheckQueue.Turn a = queue.take("realm", "a");
        PasswordCheckQueue.Turn b = queue.take("realm", "a");
        assertThat(queue.waiting()).isZero();
        a.close();
        b.close();
    }

    @Test
    void closing_a_turn_twice_ends_it_once() throws Exception {
        PasswordCheckQueue queue = new PasswordCheckQueue(1);
        PasswordCheckQueue.Turn held = queue.take("realm", "a");
        held.close();
        held.close();
        PasswordCheckQueue.Turn again = queue.take("realm", "a");

        CountDownLatch other = new CountDownLatch(1);
        checks.add(threads.submit(() -> {
            try (PasswordCheckQueue.Turn turn = queue.take("realm", "b")) {
                other.countDown();
            }
        }));
        assertThat(other.await(200, TimeUnit.MILLISECONDS)).as("one turn, held: the second close freed no extra turn").isFalse();
        again.close();
        assertThat(other.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void a_queue_without_turns_is_refused() {
        assertThatThrownBy(() -> new PasswordCheckQueue(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
