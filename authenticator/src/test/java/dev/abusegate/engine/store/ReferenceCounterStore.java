package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.time.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The smallest store that keeps the {@link CounterStore} contract: the production store's tables of slots
 * ({@link Slots}: cheap, protective, used captchas at a quarter of the protective bound) in maps on the test's
 * clock, one atomic compute of one slot per change, each change carried as its codec's words ({@link StoreCodec}). Unbounded by default (each table has so many slots that no
 * two test subjects share one in practice). Engine tests run on it.
 */
public final class ReferenceCounterStore implements CounterStore {

    private static final long UNBOUNDED_SLOTS = 1L << 36;

    private final ConcurrentHashMap<Long, long[]> slots = new ConcurrentHashMap<>();
    private final TimeSource clock;
    private final long[] slotCount = new long[3];
    private final int[] ways = new int[3];
    private final SlotHash hash = new SlotHash(ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong());

    public ReferenceCounterStore(TimeSource clock) {
        this(clock, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public ReferenceCounterStore(TimeSource clock, long maxCheap, long maxProtective) {
        this.clock = clock;
        long[] bounds = {maxCheap, maxProtective, Math.max(Slots.WAYS, maxProtective / 4)};
        for (int t = 0; t < 3; t++) {
            ways[t] = Slots.waysFor(bounds[t], POLICIES[t]);
            slotCount[t] = Math.min(UNBOUNDED_SLOTS, Slots.slotsFor(bounds[t], ways[t]));
        }
    }

    private static int table(CounterKey key) {
        return key.kind() == CounterKey.Kind.USED ? 2 : key.kind().protective() ? 1 : 0;
    }

    private static final Slots.Policy[] POLICIES = {Slots.Policy.CHEAP, Slots.Policy.PROTECTIVE, Slots.Policy.USED};

    /** The map key of the key's slot. */
    public Long slotKey(CounterKey key) {
        int t = table(key);
        return (long) t << 36 | hash.slot(key, slotCount[t]);
    }

    @Override
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        int t = table(key);
        long[][] result = new long[1][];
        slots.compute(slotKey(key), (k, old) -> {
            // the change goes through the codec, as it travels to a cluster's owner: the store carries its words
            long[] words = StoreCodec.encode(change);
            long[] next = Slots.apply(old, Subject.of(key), StoreCodec.decode(words), Math.max(1, ttlMillis),
                    new TableShape(ways[t], POLICIES[t]));
            result[0] = Slots.result(next);
            return next;
        });
        return CompletableFuture.completedFuture(result[0]);
    }

    @Override
    public long[] read(CounterKey key) {
        return Slots.find(slots.get(slotKey(key)), Subject.of(key), clock.millis());
    }

    @Override
    public CompletableFuture<long[]> peek(CounterKey key) {
        int t = table(key);
        return CompletableFuture.completedFuture(Slots.findOrShared(slots.get(slotKey(key)), Subject.of(key), clock.millis(),
                POLICIES[t]));
    }

    @Override
    public void remove(CounterKey key) {
        slots.computeIfPresent(slotKey(key), (k, old) -> Slots.remove(old, Subject.of(key)));
    }

    /** The slot holding a key's entry (for tests of the layout), or null. */
    public long[] slotOf(CounterKey key) {
        return slots.get(slotKey(key));
    }

    /** Rewrites the stored words of the slot holding a key's entry (tests of what another version wrote). */
    public void rewriteSlot(CounterKey key, java.util.function.UnaryOperator<long[]> rewrite) {
        slots.computeIfPresent(slotKey(key), (k, s) -> rewrite.apply(s));
    }

    /** Drops slots whose every entry expired, as a cache's expiry reaper does (the benchmark's map baseline calls it). */
    public void purgeExpired() {
        long now = clock.millis();
        slots.values().removeIf(s -> Slots.latestExpiry(s) <= now);
    }

    /** Live exact entries held: cheap, protective (used captchas included). */
    public long[] sizes() {
        long now = clock.millis();
        long[] out = new long[2];
        slots.forEach((k, s) -> out[(k >>> 36) == 0 ? 0 : 1] += Slots.exactEntries(s, now));
        return out;
    }
}
