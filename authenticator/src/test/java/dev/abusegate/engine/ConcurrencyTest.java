package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.ReferenceCounterStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real threads released at once by a latch, on the reference store (one atomic change per entry). The
 * thresholds run with the captcha disabled: the counting alone must be exact. The captcha band's edge has tests
 * of its own, with a store that holds every racer's first change until all of them have sent it.
 */
class ConcurrencyTest {

    static final int THREADS = 64;
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Runs {@code THREADS} tasks released together; returns their results. */
    static <T> List<T> race(ExecutorService pool, int n, IntFunction<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            futures.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return task.apply(id);
            }));
        }
        ready.await();
        go.countDown();
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get(30, TimeUnit.SECONDS));
        }
        return out;
    }

    private static long allowed(List<Decision> ds) {
        return ds.stream().filter(Decision::allowed).count();
    }

    @RepeatedTest(10)
    void layer1_lets_exactly_threshold_through_however_many_arrive_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP, 7, 300).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.1", "user" + i));
        assertThat(allowed(ds)).isEqualTo(7);
        assertThat(ds).filteredOn(d -> !d.allowed()).allMatch(d -> d.layer() == Layer.PER_IP);
        assertThat(f.perIpCount(o, "198.51.100.1")).as("every attempt counted").isEqualTo(THREADS);
    }

    @RepeatedTest(10)
    void layer2_lets_exactly_threshold_through_however_many_arrive_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP_ACCOUNT, 5, 900).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.2", "alice"));
        assertThat(allowed(ds)).isEqualTo(5);
    }

    @RepeatedTest(10)
    void layer4_lets_exactly_threshold_distinct_identifiers_through() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.CREDENTIAL_STUFFING, 9, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.4", "victim" + i));
        assertThat(allowed(ds)).isEqualTo(9);
    }

    @RepeatedTest(10)
    void layer4_retries_of_seen_identifiers_race_without_advancing() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.CREDENTIAL_STUFFING, 4, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "198.51.100.5", "victim" + (i % 4)));
        assertThat(allowed(ds)).isEqualTo(THREADS);
    }

    @RepeatedTest(10)
    void layer3_reserves_before_verifying_so_at_most_threshold_can_fail_at_once() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 6, 900).build();
        AtomicInteger failedVerifications = new AtomicInteger();
        // every racer comes from its own address, and every password is wrong
        List<Decision> ds = race(pool, THREADS, i -> {
            Decision d = f.evaluate(o, "10.0." + (i / 250) + "." + (i % 250), "alice");
            if (d.allowed()) {
                failedVerifications.incrementAndGet();
                f.gate.passwordFailed(d, 0L, java.util.List.of());
            }
            return d;
        });
        assertThat(allowed(ds)).isEqualTo(6);
        assertThat(failedVerifications.get()).isEqualTo(6);
        assertThat(f.evaluate(o, "192.0.2.200", "alice").outcome()).as("locked afterwards").isEqualTo(Outcome.BLOCKED);
    }

    /**
     * A store that runs {@code afterNextReservation[0]} (once) right after the next layer-3 reservation is taken,
     * before its attempt is answered: a deterministic stand-in for another thread running at that moment.
     */
    private static java.util.function.Function<TimeSource, CounterStore> runningAfterNextReservation(Runnable[] afterNextReservation) {
        return clock -> {
            return new TestStores.Forwarding(new ReferenceCounterStore(clock)) {
                @Override
                public java.util.concurrent.CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
                    java.util.concurrent.CompletableFuture<long[]> result = super.apply(key, change, ttlMillis);
                    Runnable r = afterNextReservation[0];
                    if (r != null && change instanceof Change.Reserve) {
                        afterNextReservation[0] = null;
                        r.run();
                    }
                    return result;
                }
            };
        };
    }

    /**
     * The worst interleaving, made deterministic: attempt A takes slot 1, and before A is answered, attempt Z
     * takes slot 2 and fails, which locks. A was let through before any lock existed and must get through.
     */
    @Test
    void layer3_a_failure_confirmed_meanwhile_never_turns_away_an_attempt_that_holds_a_slot() {
        Runnable[] afterNextReservation = {null};
        GateFixture f = new GateFixture(runningAfterNextReservation(afterNextReservation));
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision[] z = {null};
        afterNextReservation[0] = () -> {
            z[0] = f.evaluate(o, "198.51.100.2", "alice");
            f.gate.passwordFailed(z[0], 0L, java.util.List.of());
        };
        Decision a = f.evaluate(o, "198.51.100.1", "alice");
        assertThat(z[0].allowed()).isTrue();
        assertThat(a.outcome()).as("both slots' holders get through").isEqualTo(Outcome.ALLOW);
        f.gate.passwordFailed(a, 0L, java.util.List.of());
        assertThat(f.evaluate(o, "192.0.2.9", "alice").outcome()).as("two failures: locked").isEqualTo(Outcome.BLOCKED);
    }

    /**
     * The same, across a right password: A is still being checked when B succeeds. A's failure, reported
     * later, must not be counted against the slots taken after B (review of 8161e77).
     */
    @Test
    void layer3_a_failure_reported_after_a_success_never_turns_away_a_later_slot_holder() {
        Runnable[] afterNextReservation = {null};
        GateFixture f = new GateFixture(runningAfterNextReservation(afterNextReservation));
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        Decision a = f.evaluate(o, "198.51.100.1", "alice");
        Decision b = f.evaluate(o, "198.51.100.2", "alice");
        f.gate.passwordSucceeded(b, java.util.List.of()); // A is still being checked
        Decision[] x = {null};
        afterNextReservation[0] = () -> { // Y has just taken its slot
            x[0] = f.evaluate(o, "198.51.100.4", "alice");
            f.gate.passwordFailed(a, 0L, java.util.List.of());
            if (x[0].allowed()) {
                f.gate.passwordFailed(x[0], 0L, java.util.List.of());
            }
        };
        Decision y = f.evaluate(o, "198.51.100.3", "alice");
        assertThat(y.outcome()).as("Y took its slot before any lock existed").isEqualTo(Outcome.ALLOW);
        assertThat(x[0].outcome()).as("A and Y hold both slots").isEqualTo(Outcome.BLOCKED);
    }

    @RepeatedTest(5)
    void layer3_racers_that_keep_retrying_still_fail_at_most_threshold_times_per_window() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 4, 900).lockoutSeconds(900).build();
        AtomicInteger failed = new AtomicInteger();
        race(pool, THREADS, i -> {
            for (int round = 0; round < 50; round++) {
                Decision d = f.evaluate(o, "10.1.0." + (i % 250), "alice");
                if (d.allowed()) {
                    failed.incrementAndGet();
                    f.gate.passwordFailed(d, 0L, java.util.List.of());
                }
            }
            return null;
        });
        assertThat(failed.get()).isLessThanOrEqualTo(4);
    }

    @RepeatedTest(5)
    void layer3_reservations_given_back_are_reusable() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        race(pool, THREADS, i -> {
            for (int round = 0; round < 20; round++) {
                Decision d = f.evaluate(o, "10.2.0." + (i % 250), "alice");
                f.gate.notVerified(d);
            }
            return null;
        });
        assertThat(f.failures(o, "alice")).as("every reservation given back").isZero();
        assertThat(f.wrongPassword(o, "10.2.0.1", "alice").outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void all_layers_together_with_solved_captchas_let_through_the_smallest_threshold() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 30, 300).layer(Layer.PER_IP_ACCOUNT, 12, 900)
                .layer(Layer.ACCOUNT_LOCKOUT, 40, 900).layer(Layer.CREDENTIAL_STUFFING, 20, 600).build();
        List<Decision> ds = race(pool, THREADS, i -> GateFixture.evaluate(f.gate, o, GateFixture.attempt("198.51.100.9", "alice"), GateFixture.SOLVED));
        assertThat(allowed(ds)).isEqualTo(12);
    }

    @RepeatedTest(5)
    void many_addresses_at_once_each_get_their_own_threshold() throws Exception {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP, 3, 300).build();
        List<Decision> ds = race(pool, THREADS, i -> f.evaluate(o, "2001:db8:" + (i % 8) + "::" + i, "u"));
        assertThat(allowed(ds)).as("8 prefixes x 3").isEqualTo(24);
    }

    // ---- the captcha band's edge ----

    /**
     * Holds each racer's first change until {@code parties} of them have sent one, then lets them all reach the
     * store together: the band's decision must be exact when every racer has already passed any check made
     * before the change.
     */
    static final class HoldingStore extends TestStores.Forwarding {
        private final CountDownLatch arrived;
        final AtomicInteger heldTogether = new AtomicInteger();

        HoldingStore(CounterStore delegate, int parties) {
            super(delegate);
            this.arrived = new CountDownLatch(parties);
        }

        @Override
        public java.util.concurrent.CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            if (arrived.getCount() > 0) {
                arrived.countDown();
                try {
                    if (arrived.await(20, TimeUnit.SECONDS)) {
                        heldTogether.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.apply(key, change, ttlMillis);
        }
    }

    static final int GUESSES = 20;

    /**
     * Twenty simultaneous wrong guesses with one layer on (threshold 10, captcha factor 0.5): exactly five reach
     * the password check without a captcha, the other fifteen are asked for one, none is blocked, and what was
     * asked for a captcha counted nothing.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Layer.class, names = "PASSWORD_SPRAY", mode = EnumSource.Mode.EXCLUDE) // the per-subject layers
    void twenty_simultaneous_wrong_guesses_let_exactly_the_band_start_through_without_a_captcha(Layer layer) throws Exception {
        for (int round = 0; round < 10; round++) {
            HoldingStore[] held = {null};
            GateFixture f = new GateFixture(clock -> held[0] = new HoldingStore(new ReferenceCounterStore(clock), GUESSES));
            GateOptions o = GateFixture.only(layer, 10, 900).captchaEnabled(true).captchaFactor(0.5).build();
            // layer 4 counts distinct identifiers, so its guesses try twenty accounts from the address;
            // the others guess one account's password twenty times from one address
            List<Decision> ds = race(pool, GUESSES, i -> f.wrongPassword(o, "198.51.100.7",
                    layer == Layer.CREDENTIAL_STUFFING ? "victim" + i : "alice"));

            assertThat(held[0].heldTogether.get()).as("every racer's first change reached the store together").isEqualTo(GUESSES);
            assertThat(allowed(ds)).as("%s, round %d: let through without a captcha", layer, round).isEqualTo(5);
            assertThat(ds).filteredOn(d -> !d.allowed()).hasSize(15)
                    .allMatch(d -> d.outcome() == Outcome.CAPTCHA_REQUIRED && d.layer() == layer);
            switch (layer) {
                case PER_IP -> assertThat(f.perIpCount(o, "198.51.100.7")).isEqualTo(5);
                case PER_IP_ACCOUNT -> assertThat(f.pairCount(o, "198.51.100.7", "alice")).isEqualTo(5);
                case ACCOUNT_LOCKOUT -> {
                    assertThat(f.failures(o, "alice")).as("five confirmed failures").isEqualTo(5);
                    assertThat(f.lockRemaining(o, "alice")).isZero();
                }
                case CREDENTIAL_STUFFING -> assertThat(f.distinctIdentifiers(o, "198.51.100.7")).isEqualTo(5);
            }
        }
    }
}
