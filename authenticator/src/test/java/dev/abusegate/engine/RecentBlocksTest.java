package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreException;
import dev.abusegate.engine.store.ReferenceCounterStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A gate with a hold (as in a cluster): after the store blocked an address on layer 1, that address's attempts are
 * answered as blocked without a store change for the hold, and one of them per hold is written. Counted with a
 * store that counts changes, timed with a clock the test moves.
 */
class RecentBlocksTest {

    private static final long HOLD = 1_000;
    private static final String ADDRESS = "203.0.113.10";

    /** Counts changes; fails every change while {@link #failing}; runs {@link #afterAddressChange} once, if set. */
    static final class CountingStore extends TestStores.Forwarding {
        int changes;
        boolean failing;
        Runnable afterAddressChange;

        CountingStore(CounterStore delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            changes++;
            if (failing) {
                return CompletableFuture.failedFuture(new CounterStoreException("down"));
            }
            CompletableFuture<long[]> answer = super.apply(key, change, ttlMillis);
            Runnable hook = afterAddressChange;
            if (hook != null && key.kind() == CounterKey.Kind.ADDRESS) {
                afterAddressChange = null;
                hook.run();
            }
            return answer;
        }
    }

    private final MutableClock clock = new MutableClock();
    private final CountingStore store = new CountingStore(new ReferenceCounterStore(clock));
    private final AbuseGate gate = new AbuseGate(store, clock, GateFixture.SECRETS, HOLD);
    /** Layer 1 at 3 in 60 s; layers 2 and 4 on with high thresholds, so their counting of blocked attempts shows. */
    private final GateOptions options = TestOptions.builder().captchaEnabled(false)
            .layer(Layer.PER_IP, 3, 60).layer(Layer.PER_IP_ACCOUNT, 1_000, 900).layer(Layer.CREDENTIAL_STUFFING, 1_000, 3600)
            .disable(Layer.ACCOUNT_LOCKOUT).build();

    private Decision attempt(GateOptions o, String realm, String address, String user) {
        return GateFixture.evaluate(gate, o, new Attempt(realm, address, user, null), null);
    }

    private Decision attempt(String address, String user) {
        return attempt(options, GateFixture.REALM, address, user);
    }

    private long perIpCount(String address) {
        return GateFixture.state(gate, GateFixture.REALM, address, null, options.ipv6PrefixLength()).address().attempts();
    }

    /** Three allowed attempts, then the fourth is blocked by the store. */
    private void block(String address) {
        for (int i = 0; i < 3; i++) {
            assertThat(attempt(address, "user-" + i).allowed()).isTrue();
        }
        Decision d = attempt(address, "user-3");
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(d.layer()).isEqualTo(Layer.PER_IP);
    }

    @Test
    void a_blocked_address_is_answered_without_a_store_change_during_the_hold_then_one_attempt_is_written() {
        block(ADDRESS);
        assertThat(perIpCount(ADDRESS)).isEqualTo(4);
        store.changes = 0;
        for (int i = 0; i < 100; i++) {
            clock.advanceMillis(9);
            Decision d = attempt(ADDRESS, "flood-" + i);
            assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(d.layer()).isEqualTo(Layer.PER_IP);
            assertThat(d.unavailable()).isEmpty();
        }
        assertThat(store.changes).as("store changes during the hold").isZero();
        assertThat(perIpCount(ADDRESS)).isEqualTo(4);

        clock.advanceMillis(HOLD - 900); // the hold is over
        assertThat(attempt(ADDRESS, "after-hold").outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.changes).as("address and pair written once").isEqualTo(2);
        assertThat(perIpCount(ADDRESS)).isEqualTo(5);
        store.changes = 0;
        assertThat(attempt(ADDRESS, "after-hold-2").outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.changes).as("held again").isZero();
    }

    @Test
    void while_the_flood_lasts_the_window_keeps_sliding_and_the_block_ends_at_most_the_hold_sooner() {
        block(ADDRESS);
        for (int i = 0; i < 3_000; i++) { // five minutes, an attempt every 100 ms
            clock.advanceMillis(100);
            assertThat(attempt(ADDRESS, "flood").outcome()).isEqualTo(Outcome.BLOCKED);
        }
        // the flood stops; 58.9 s later (window 60 s, hold 1 s) the address is still blocked
        clock.advanceMillis(58_900);
        assertThat(attempt(ADDRESS, "probe").outcome()).isEqualTo(Outcome.BLOCKED);
        // after a full quiet window it recovers by itself
        clock.advanceMillis(60_000);
        assertThat(attempt(ADDRESS, "later").allowed()).isTrue();
    }

    @Test
    void a_block_is_not_answered_from_memory_under_another_threshold_or_window() {
        block(ADDRESS);
        GateOptions higher = TestOptions.from(options).layer(Layer.PER_IP, 10, 60).build();
        assertThat(attempt(higher, GateFixture.REALM, ADDRESS, "x").allowed()).as("threshold raised to 10 at count 4").isTrue();

        block("198.51.100.1");
        GateOptions longer = TestOptions.from(options).layer(Layer.PER_IP, 3, 120).build();
        store.changes = 0;
        assertThat(attempt(longer, GateFixture.REALM, "198.51.100.1", "x").outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.changes).as("another window asks the store").isPositive();
    }

    @Test
    void clearing_the_address_forgets_its_block_at_once() {
        block(ADDRESS);
        gate.clear(GateFixture.REALM, ADDRESS, null, options.ipv6PrefixLength());
        assertThat(attempt(ADDRESS, "after-clear").allowed()).isTrue();
    }

    @Test
    void other_addresses_and_the_same_address_in_another_realm_are_not_answered_from_it() {
        block(ADDRESS);
        assertThat(attempt("203.0.113.11", "alice").allowed()).isTrue();
        assertThat(attempt(options, "realm-b", ADDRESS, "alice").allowed()).isTrue();
    }

    @Test
    void a_layer_that_failed_closed_is_not_remembered() {
        GateOptions closed = TestOptions.from(options).failureMode(Layer.PER_IP, FailureMode.FAIL_CLOSED).build();
        store.failing = true;
        Decision d = attempt(closed, GateFixture.REALM, ADDRESS, "alice");
        assertThat(d.outcome()).isEqualTo(Outcome.BLOCKED);
        store.failing = false;
        assertThat(attempt(closed, GateFixture.REALM, ADDRESS, "alice").allowed()).as("the store is back").isTrue();
    }

    @Test
    void a_block_on_another_layer_is_not_remembered() {
        GateOptions pairOnly = TestOptions.from(options).layer(Layer.PER_IP, 1_000, 60).layer(Layer.PER_IP_ACCOUNT, 2, 900).build();
        for (int i = 0; i < 2; i++) {
            assertThat(attempt(pairOnly, GateFixture.REALM, ADDRESS, "alice").allowed()).isTrue();
        }
        assertThat(attempt(pairOnly, GateFixture.REALM, ADDRESS, "alice").layer()).isEqualTo(Layer.PER_IP_ACCOUNT);
        assertThat(attempt(pairOnly, GateFixture.REALM, ADDRESS, "bob").allowed()).as("the address is not blocked").isTrue();
    }

    @Test
    void with_more_blocked_addresses_than_slots_every_answer_is_still_the_stores() {
        GateOptions one = TestOptions.from(options).layer(Layer.PER_IP, 1, 60).build();
        int n = RecentBlocks.SLOTS * 2;
        for (int i = 0; i < n; i++) {
            String a = "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff);
            assertThat(attempt(one, GateFixture.REALM, a, "u").allowed()).isTrue();
            assertThat(attempt(one, GateFixture.REALM, a, "u").outcome()).isEqualTo(Outcome.BLOCKED);
        }
        // every slot now holds some blocked address; fresh addresses in the same slots are not blocked
        for (int i = 0; i < 2_000; i++) {
            assertThat(attempt(one, GateFixture.REALM, "172.16." + (i >> 8) + "." + (i & 0xff), "u").allowed()).isTrue();
        }
        // and the first addresses, pushed out of the table, are still blocked (by the store)
        for (int i = 0; i < 100; i++) {
            assertThat(attempt(one, GateFixture.REALM, "10.0." + (i >> 8) + "." + (i & 0xff), "u").outcome()).isEqualTo(Outcome.BLOCKED);
        }
    }

    @Test
    void a_clear_that_lands_between_the_stores_answer_and_the_hold_is_not_undone() {
        for (int i = 0; i < 3; i++) {
            assertThat(attempt(ADDRESS, "user-" + i).allowed()).isTrue();
        }
        // the 4th attempt's change answers "blocked"; an operator clears the address before the gate holds it
        store.afterAddressChange = () -> gate.clear(GateFixture.REALM, ADDRESS, null, options.ipv6PrefixLength());
        assertThat(attempt(ADDRESS, "user-3").outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(attempt(ADDRESS, "after-clear").allowed()).as("the count was cleared").isTrue();
    }

    @Test
    void a_block_is_not_answered_from_memory_once_the_address_is_allowlisted_or_layer_one_is_off() {
        block(ADDRESS);
        GateOptions allowlisted = TestOptions.from(options).allowlist(Allowlist.parse(ADDRESS)).build();
        assertThat(attempt(allowlisted, GateFixture.REALM, ADDRESS, "x").allowed()).isTrue();
        GateOptions off = TestOptions.from(options).disable(Layer.PER_IP).build();
        assertThat(attempt(off, GateFixture.REALM, ADDRESS, "y").allowed()).isTrue();
    }

    @Test
    void an_ipv6_block_holds_its_prefix_and_nothing_else() {
        block("2001:db8:0:1::1");
        store.changes = 0;
        assertThat(attempt("2001:db8:0:1::2", "x").outcome()).as("same /64").isEqualTo(Outcome.BLOCKED);
        assertThat(store.changes).as("held").isZero();
        assertThat(attempt("2001:db8:0:2::1", "x").allowed()).as("another /64").isTrue();
    }

    @Test
    void a_clock_that_went_back_asks_the_store() {
        block(ADDRESS);
        clock.advanceMillis(-5_000);
        store.changes = 0;
        assertThat(attempt(ADDRESS, "x").outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(store.changes).isPositive();
    }

    // ---- the table itself

    private static final LayerPolicy P = GateOptions.defaults().policy(Layer.PER_IP);

    @Test
    void keys_in_the_same_slot_that_differ_only_in_realm_or_shape_are_not_answered_for_each_other() {
        RecentBlocks t = new RecentBlocks(HOLD, 42);
        CounterKey v4 = new CounterKey("realm-a", CounterKey.Kind.ADDRESS, CounterKey.IPV4, 0, 0xC0000207L);
        CounterKey v6 = new CounterKey("realm-a", CounterKey.Kind.ADDRESS, CounterKey.IPV6, 0, 0xC0000207L);
        assertThat(t.index(v6)).isEqualTo(t.index(v4));
        CounterKey otherRealm = null;
        for (int r = 0; otherRealm == null; r++) {
            CounterKey k = new CounterKey("realm-" + r, CounterKey.Kind.ADDRESS, CounterKey.IPV4, 0, 0xC0000207L);
            if (k.realmTag() != v4.realmTag() && t.index(k) == t.index(v4)) {
                otherRealm = k;
            }
        }
        t.remember(v4, P, 0, t.clears());
        assertThat(t.holds(v4, P, 1)).isTrue();
        assertThat(t.holds(v6, P, 1)).as("same bits, another shape").isFalse();
        assertThat(t.holds(otherRealm, P, 1)).as("same bits, another realm, same slot").isFalse();
    }

    @Test
    void addresses_a_client_picks_do_not_share_slots_more_than_chance_says() {
        // IPv4 keys are the address bits: a table indexed by those bits would put a and a + 4096 in one slot always
        RecentBlocks t = new RecentBlocks(HOLD);
        int shared = 0;
        for (long a = 0; a < 10_000; a++) {
            CounterKey x = new CounterKey("realm-a", CounterKey.Kind.ADDRESS, CounterKey.IPV4, 0, 0x0A000000L + a);
            CounterKey y = new CounterKey("realm-a", CounterKey.Kind.ADDRESS, CounterKey.IPV4, 0, 0x0A000000L + a + RecentBlocks.SLOTS);
            if (t.index(x) == t.index(y)) {
                shared++;
            }
        }
        assertThat(shared).as("pairs sharing a slot, of 10,000 (chance: about 2)").isLessThan(30);
    }

    @Test
    void a_hold_is_never_negative() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AbuseGate(store, clock, GateFixture.SECRETS, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
