package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.ReferenceCounterStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How many times one attempt waits for the store, counted: each change is one round trip in a cluster (a
 * compute on the entry's primary owner), and changes sent before the gate waits for any of them travel
 * together. A round is the set of changes sent between two waits.
 */
class RoundTripsTest {

    /** Tags each change with how many waits came before it; the distinct tags of an attempt are its rounds. */
    static final class RoundCountingStore extends TestStores.Forwarding {
        private int waits;
        private final Set<Integer> rounds = new HashSet<>();
        int changes;

        RoundCountingStore(CounterStore delegate) {
            super(delegate);
        }

        int peeks;

        @Override
        public synchronized CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            changes++;
            return counted(delegate.apply(key, change, ttlMillis).join());
        }

        @Override
        public synchronized CompletableFuture<long[]> peek(CounterKey key) {
            peeks++;
            return counted(delegate.peek(key).join());
        }

        /** A call sent in the current round, whose answer is a wait when joined. */
        private CompletableFuture<long[]> counted(long[] v) {
            rounds.add(waits);
            return new CompletableFuture<>() {
                {
                    complete(v);
                }

                @Override
                public long[] join() {
                    synchronized (RoundCountingStore.this) {
                        waits++;
                    }
                    return super.join();
                }
            };
        }

        synchronized int roundsSinceReset() {
            return rounds.size();
        }

        synchronized void reset() {
            rounds.clear();
            changes = 0;
            peeks = 0;
        }
    }

    private final MutableClock clock = new MutableClock();
    private final RoundCountingStore store = new RoundCountingStore(new ReferenceCounterStore(clock));
    private final AbuseGate gate = new AbuseGate(store, clock, GateFixture.SECRETS, 0);
    private final GateOptions defaults = GateOptions.defaults();

    private Attempt attempt(String address, String user) {
        return new Attempt(GateFixture.REALM, address, user, null);
    }

    @Test
    void an_allowed_login_with_all_four_layers_waits_for_the_store_at_most_three_times() {
        store.reset();
        Decision d = GateFixture.evaluate(gate, defaults, attempt("192.0.2.1", "alice"), null);
        assertThat(d.allowed()).isTrue();
        gate.passwordSucceeded(d, java.util.List.of("alice", "alice@example.com"));
        assertThat(store.roundsSinceReset()).isEqualTo(3);

        store.reset();
        Decision wrong = GateFixture.evaluate(gate, defaults, attempt("192.0.2.1", "alice"), null);
        gate.passwordFailed(wrong, 0L, java.util.List.of("alice", "alice@example.com"));
        assertThat(store.roundsSinceReset()).isEqualTo(3);
    }

    @Test
    void the_password_spray_layer_adds_a_read_and_a_write_and_no_round_trip() {
        long bucket = gate.passwordBucket(defaults, GateFixture.REALM, () -> new byte[] {1, 2, 3}, "Winter2026!");
        store.reset();
        Decision d = gate.evaluate(defaults, attempt("192.0.2.5", "grace"), null, true, bucket);
        assertThat(d.allowed()).isTrue();
        gate.passwordFailed(d, 0L, java.util.List.of("grace"));
        assertThat(store.peeks).as("the bucket's read, sent with the admission's changes").isEqualTo(1);
        assertThat(store.roundsSinceReset()).as("as many waits as a failure without the layer").isEqualTo(3);
        int withBucket = store.changes;

        store.reset();
        Decision plain = gate.evaluate(defaults, attempt("192.0.2.6", "heidi"), null, true, AbuseGate.NO_PASSWORD_BUCKET);
        gate.passwordFailed(plain, 0L, java.util.List.of("heidi"));
        assertThat(store.peeks).isZero();
        assertThat(store.roundsSinceReset()).isEqualTo(3);
        assertThat(withBucket).as("one more change: the bucket's, sent with layer 3's failure").isEqualTo(store.changes + 1);
    }

    @Test
    void an_ipv6_login_counts_its_network_in_the_same_round_trip_as_its_address() {
        store.reset();
        Decision d = GateFixture.evaluate(gate, defaults, attempt("2001:db8:1:2::3", "erin"), null);
        assertThat(d.allowed()).isTrue();
        assertThat(store.changes).as("address, network, pair, reservation").isEqualTo(4);
        gate.passwordSucceeded(d, java.util.List.of("erin", "erin@example.com"));
        assertThat(store.roundsSinceReset()).isEqualTo(3);

        GateOptions tight = TestOptions.from(defaults).captchaEnabled(false).ipv6Network(48, 2).build();
        for (int i = 0; i < 2; i++) {
            gate.notVerified(GateFixture.evaluate(gate, tight, attempt("2001:db8:7:" + i + "::1", "frank-" + i), null));
        }
        store.reset();
        Decision blocked = GateFixture.evaluate(gate, tight, attempt("2001:db8:7:99::1", "frank-x"), null);
        assertThat(blocked.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(blocked.layer()).isEqualTo(Layer.PER_IP);
        assertThat(store.roundsSinceReset()).as("blocked by its network").isEqualTo(1);
    }

    @Test
    void an_attempt_blocked_by_an_address_layer_waits_once() {
        GateOptions tight = TestOptions.from(defaults).captchaEnabled(false).layer(Layer.PER_IP_ACCOUNT, 2, 900).build();
        for (int i = 0; i < 2; i++) {
            gate.passwordFailed(GateFixture.evaluate(gate, tight, attempt("192.0.2.2", "bob"), null), 0L, java.util.List.of());
        }
        store.reset();
        Decision d = GateFixture.evaluate(gate, tight, attempt("192.0.2.2", "bob"), null);
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.roundsSinceReset()).isEqualTo(1);
    }

    @Test
    void an_attempt_on_a_locked_account_waits_twice() {
        GateOptions tight = TestOptions.from(defaults).captchaEnabled(false).layer(Layer.ACCOUNT_LOCKOUT, 2, 900).build();
        for (int i = 0; i < 2; i++) {
            gate.passwordFailed(GateFixture.evaluate(gate, tight, attempt("198.51.100." + (i + 1), "carol"), null), 0L, java.util.List.of());
        }
        store.reset();
        Decision d = GateFixture.evaluate(gate, tight, attempt("203.0.113.9", "carol"), null);
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
        assertThat(store.roundsSinceReset()).isEqualTo(2);
    }

    @Test
    void an_attempt_in_the_captcha_band_without_a_solution_waits_at_most_twice() {
        GateOptions o = TestOptions.from(defaults).layer(Layer.PER_IP_ACCOUNT, 4, 900).build();
        for (int i = 0; i < 2; i++) {
            gate.passwordFailed(GateFixture.evaluate(gate, o, attempt("192.0.2.3", "dave"), null), 0L, java.util.List.of());
        }
        store.reset();
        Decision d = GateFixture.evaluate(gate, o, attempt("192.0.2.3", "dave"), null);
        assertThat(d.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(store.roundsSinceReset()).isLessThanOrEqualTo(2);
    }
}
