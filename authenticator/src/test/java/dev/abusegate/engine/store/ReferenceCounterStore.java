package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.time.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The smallest store that keeps the {@link CounterStore} contract: the production store's tables of slots
 * ({@link Slots}, {@link StoreTable}: cheap, protective, and used captchas and password buckets at a quarter of the protective bound each) in maps on the test's
 * clock, one atomic compute of one slot per change, each change carried as its codec's words ({@link StoreCodec}). Unbounded by default (each table has so many slots that no
 * two test subjects share one in practice). Engine tests run on it.
 */
public final class ReferenceCounterStore implements CounterStore {

    private static final long UNBOUNDED_SLOTS = 1L << 36;

    private final ConcurrentHashMap<Long, long[]> slots = new ConcurrentHashMap<>();
    private final TimeSource clock;
    private static final StoreTable[] TABLES = StoreTable.values();
    private final long[] slotCount = new long[TABLES.length];
    private final TableShape[] shapes = new TableShape[TABLES.length];
    private final SlotHash hash = new SlotHash(ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong());

    public ReferenceCounterStore(TimeSource clock) {
        this(clock, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public ReferenceCounterStore(TimeSource clock, long maxCheap, long maxProtective) {
        this.clock = clock;
        for (StoreTable t : TABLES) {
            shapes[t.ordinal()] = t.shape(t.bound(maxCheap, maxProtective));
            slotCount[t.ordinal()] = Math.min(UNBOUNDED_SLOTS, Slots.slotsFor(t.bound(maxCheap, maxProtective), shapes[t.ordinal()].ways()));
        }
    }

    private static int table(CounterKey key) {
        return StoreTable.of(key.kind()).ordinal();
    }

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
                    shapes[t]);
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
                shapes[t].policy()));
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

    /** Live exact entries held: cheap, and the paid tables (protective, used captchas, password buckets). */
    public long[] sizes() {
        long now = clock.millis();
        long[] out = new long[2];
        slots.forEach((k, s) -> out[TABLES[(int) (k >>> 36)].paid() ? 1 : 0] += Slots.exactEntries(s, now));
        return out;
    }
}
