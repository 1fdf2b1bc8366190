package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.TestChanges;
import dev.abusegate.engine.store.FailureOutcome;
import dev.abusegate.engine.store.LayerOutcome;
import dev.abusegate.engine.store.Limit;
import dev.abusegate.engine.store.LockoutEntry;
import dev.abusegate.engine.store.SlotCommand;
import dev.abusegate.engine.store.Slots;
import dev.abusegate.engine.store.StoreCodec;
import dev.abusegate.engine.store.Subject;
import dev.abusegate.engine.store.TableShape;
import dev.abusegate.engine.store.Versions;
import java.util.UUID;
import org.infinispan.Cache;
import org.infinispan.manager.EmbeddedCacheManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A rolling upgrade forgets nothing: slots written by the previous release (format 2, built word for word by
 * {@link FormatTwoSlot}) are read by this build's store on a LOCAL cache, a lock still blocks, a failure count
 * goes on from where it was, and the next change writes the slot in this build's format. The same bytes, as a
 * clustered cache holds them, go through the function a slot's owner runs ({@link ClusterSlots}).
 */
class StoreUpgradeTest {

    private static final long WINDOW = 600_000;
    private static EmbeddedCacheManager manager;
    private final String realm = "realm-" + UUID.randomUUID();

    @BeforeAll
    static void start() {
        manager = LocalCaches.start();
    }

    @AfterAll
    static void stop() {
        manager.stop();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private CounterKey key(CounterKey.Kind kind, long n) {
        return CounterKey.of(realm, kind, 0x5eed, n);
    }

    private static long[] subject(CounterKey k) {
        return new long[] {k.kind().ordinal(), k.shape(), k.hi(), k.lo()};
    }

    private static Change fail(long threshold) {
        return TestChanges.fail(now(), threshold, WINDOW, 60_000, 1.0, 0, 0, false, false, false);
    }

    @Test
    void a_lock_and_a_failure_count_written_by_the_previous_release_survive_the_upgrade() {
        assertThat(Versions.readable(2)).as("the previous release's format is read").isTrue();
        InfinispanCounterStore store = new InfinispanCounterStore(manager.getCache(InfinispanGateStoreProviderFactory.CACHE_NAME),
                Long.MAX_VALUE, manager.getCache(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME), Long.MAX_VALUE, 7);
        long now = now();
        long tag = key(CounterKey.Kind.ACCOUNT, 1).realmTag();
        CounterKey locked = key(CounterKey.Kind.ACCOUNT, 1);
        CounterKey failing = key(CounterKey.Kind.ACCOUNT, 2);
        CounterKey address = key(CounterKey.Kind.ADDRESS, 3);
        put(store, locked, new FormatTwoSlot(tag).lockout(subject(locked), new long[] {0, 0, now + 300_000}, now + WINDOW).words());
        put(store, failing, new FormatTwoSlot(tag).lockout(subject(failing), new long[] {2, 2, 0}, now + WINDOW).words());
        put(store, address, new FormatTwoSlot(tag).address(subject(address), 4, now + WINDOW).words());

        assertThat(LockoutEntry.of(store.read(locked)).lockRemaining(now())).as("the lock is read").isPositive();
        assertThat(LockoutEntry.of(store.read(failing)).confirmed(now())).as("the failures are read").isEqualTo(2);

        Change reserve = new Change.Reserve(now(), false, new Limit(3, Long.MAX_VALUE, WINDOW));
        assertThat(AdmissionAnswer.of(store.apply(locked, reserve, WINDOW).join()).outcome())
                .as("the lock still blocks").isEqualTo(LayerOutcome.BLOCKED);
        assertThat(FailureOutcome.of(store.apply(failing, fail(3), WINDOW).join()))
                .as("the third failure locks: the count went on from 2").isEqualTo(FailureOutcome.LOCKED);
        Change admit = new Change.AdmitAddress(now(), false, new Limit(5, Long.MAX_VALUE, WINDOW), Limit.OFF, 0);
        assertThat(AdmissionAnswer.of(store.apply(address, admit, WINDOW).join()).outcome())
                .as("the fifth attempt counts").isEqualTo(LayerOutcome.COUNTED);
        assertThat(AdmissionAnswer.of(store.apply(address, admit, WINDOW).join()).outcome())
                .as("the sixth meets the threshold of 5").isEqualTo(LayerOutcome.BLOCKED);

        long[] rewritten = (long[]) cacheOf(failing).get(store.slotKey(failing));
        assertThat(rewritten[0] >>> 32).as("written again in this build's format").isEqualTo(Versions.CURRENT);
    }

    @Test
    void a_slot_owner_in_a_cluster_reads_the_previous_release_s_bytes() {
        long now = now();
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 4);
        byte[] old = new FormatTwoSlot(k.realmTag()).lockout(subject(k), new long[] {2, 2, 0}, now + WINDOW).bytes();
        SlotCommand sent = new SlotCommand(Subject.of(k), fail(3), WINDOW, new TableShape(Slots.WAYS, Slots.Policy.PROTECTIVE));
        byte[] command = sent.toBytes();
        assertThat(SlotCommand.fromBytes(command)).as("the command arrives as it was sent").isEqualTo(sent);
        long[] written = StoreCodec.fromBytes(ClusterSlots.run(command, old));
        assertThat(FailureOutcome.of(Slots.result(written))).isEqualTo(FailureOutcome.LOCKED);
        assertThat(written[0] >>> 32).isEqualTo(Versions.CURRENT);
    }

    @Test
    void a_slot_of_a_format_outside_the_range_reads_as_absent_without_an_exception() {
        CounterKey k = key(CounterKey.Kind.ACCOUNT, 5);
        long[] words = new FormatTwoSlot(k.realmTag()).lockout(subject(k), new long[] {2, 2, 0}, now() + WINDOW).words();
        for (long format : new long[] {0, Versions.FIRST_READABLE - 1, Versions.CURRENT + 1}) {
            long[] other = words.clone();
            other[0] = format << 32 | other[0] & 0xFFFF_FFFFL;
            assertThat(Slots.unreadable(other)).isTrue();
            byte[] command = new SlotCommand(Subject.of(k), fail(3), WINDOW, new TableShape(Slots.WAYS, Slots.Policy.PROTECTIVE))
                    .toBytes();
            long[] written = StoreCodec.fromBytes(ClusterSlots.run(command, StoreCodec.toBytes(other)));
            assertThat(LockoutEntry.of(Slots.result(written)).confirmed(now())).as("counted from nothing").isEqualTo(1);
        }
    }

    @SuppressWarnings("unchecked")
    private static Cache<Object, Object> cacheOf(CounterKey k) {
        return (Cache<Object, Object>) manager.getCache(k.kind().protective() ? InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME
                : InfinispanGateStoreProviderFactory.CACHE_NAME);
    }

    /** A LOCAL cache holds a slot's words as they are (a clustered one their bytes). */
    private static void put(InfinispanCounterStore store, CounterKey k, long[] words) {
        cacheOf(k).put(store.slotKey(k), words);
    }
}
