package dev.abusegate.keycloak.store;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreException;
import dev.abusegate.engine.store.SlotHash;
import dev.abusegate.engine.store.SlotCommand;
import dev.abusegate.engine.store.Slots;
import dev.abusegate.engine.store.StoreCodec;
import dev.abusegate.engine.store.Subject;
import dev.abusegate.engine.store.StoreTable;
import dev.abusegate.engine.store.TableShape;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.commons.time.TimeService;
import org.infinispan.container.DataContainer;
import org.infinispan.container.entries.InternalCacheEntry;
import org.infinispan.container.impl.InternalEntryFactory;
import org.infinispan.context.Flag;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.metadata.Metadata;

/**
 * The gate's entries in two Infinispan caches, as four fixed tables of slots ({@link Slots}, {@link StoreTable}):
 * addresses and pairs (what anyone can create at will) in {@code cheap}; failures, locks and device budgets, and
 * apart from them used captchas and the spray layer's password buckets, in {@code protective}. Each table's bound is structural: it has {@code bound / }{@value
 * Slots#WAYS} slots of at most {@value Slots#WAYS} exact entries, cluster-wide, so nothing anyone sends makes it
 * hold more, and at the bound nothing is refused or dropped on one node only: room is made, or the subject
 * counted on its slot's shared counter, inside the one compute that changes the subject's slot.
 *
 * <p>Each change is one atomic compute of one slot: on a LOCAL cache straight on its data container (see
 * {@link Table#changeLocally}); on a clustered cache one {@code computeAsync}, which runs on the slot's primary
 * owner (one round trip) and the backup applies the same pure function ({@link Slots}) to its equal copy. A
 * slot is filed under a {@code Long} ({@link #slotKey}); its value is a {@code long[]} on a LOCAL cache (never
 * marshalled, never changed once stored) and its longs as {@code byte[]} on a clustered one (a type Keycloak's
 * marshaller handles without a schema); the function captures only one {@code byte[]}: the {@link SlotCommand}
 * ({@link ClusterSlots}). The store reads neither: the format of both is the codec's ({@link StoreCodec},
 * {@link dev.abusegate.engine.store.Versions}), checked where they are applied.
 *
 * <p>Which keys share a slot is a keyed hash ({@link SlotHash}) under a table key the store keeps in the
 * protective cache itself (created once by whichever node comes first, read by the others), so every node
 * picks the same slot and nobody outside can aim at one. Each entry expires by its own time; a LOCAL slot lives
 * as long as its longest entry, a clustered slot until a change finds it empty (the bound holds either way).
 */
public final class InfinispanCounterStore implements CounterStore {

    /** Where the table key is filed (a "table" no slot uses; a table's number in a slot key is its ordinal). */
    private static final int TABLE_KEY = 15;
    /** Slot indexes fit in 36 bits (a slot key is {@code namespace << 40 | table << 36 | index}). */
    private static final long MAX_SLOTS = 1L << 36;

    final int namespace;
    /** The tables, by {@link StoreTable#ordinal()}. */
    final Table[] tables;
    private final SlotHash hash;

    /** The caches are the gate's own ({@link CounterCacheConfiguration}); the bounds are exact entries per table. */
    public InfinispanCounterStore(Cache<?, ?> cheap, long maxCheap, Cache<?, ?> protective, long maxProtective) {
        this(cheap, maxCheap, protective, maxProtective, 0);
    }

    /**
     * As above, with the tables filed under {@code namespace} (0 to 2^20 - 1). Package-private, a seam for tests:
     * they keep several stores of their own bounds in one pair of caches; Keycloak runs one store, namespace 0.
     */
    InfinispanCounterStore(Cache<?, ?> cheap, long maxCheap, Cache<?, ?> protective, long maxProtective, int namespace) {
        if (namespace < 0 || namespace >= 1 << 20) {
            throw new IllegalArgumentException("namespace out of range: " + namespace);
        }
        this.namespace = namespace;
        // The table key and the bounds come from whichever node started first: every node must pick the same
        // slot for a key, so a node started with other bounds adopts the cluster's (see adoptedBounds()).
        long[] shared = tableKey(protective, maxCheap, maxProtective);
        this.hash = new SlotHash(shared[0], shared[1]);
        this.adopted = new long[] {shared[2], shared[3]};
        StoreTable[] all = StoreTable.values();
        this.tables = new Table[all.length];
        for (StoreTable t : all) {
            tables[t.ordinal()] = new Table(t.paid() ? protective : cheap, t, t.bound(shared[2], shared[3]), unreadable);
        }
    }

    private final long[] adopted;
    /** Says when a slot of a format this node does not read is met (one WARN a minute per store). */
    private final UnreadableSlots unreadable = new UnreadableSlots();

    /**
     * The table key and the bounds ({@code [k0, k1, maxCheap, maxProtective]}), created by the first store of the
     * cluster (or of this node, for a LOCAL cache) and read by every later one.
     */
    @SuppressWarnings("unchecked")
    private long[] tableKey(Cache<?, ?> cache, long maxCheap, long maxProtective) {
        Long at = (long) namespace << 40 | (long) TABLE_KEY << 36;
        SecureRandom random = new SecureRandom();
        long[] mine = {random.nextLong(), random.nextLong(), maxCheap, maxProtective};
        boolean local = !cache.getCacheConfiguration().clustering().cacheMode().isClustered();
        Object theirs = ((Cache<Object, Object>) cache).getAdvancedCache().withFlags(Flag.SKIP_CACHE_LOAD, Flag.SKIP_CACHE_STORE)
                .putIfAbsent(at, local ? mine : StoreCodec.toBytes(mine));
        if (theirs == null) {
            return mine;
        }
        long[] k = local ? (long[]) theirs : StoreCodec.fromBytes((byte[]) theirs);
        return k.length >= 4 ? k : new long[] {k[0], k[1], maxCheap, maxProtective};
    }

    /** The bounds this store uses, {@code [maxCheap, maxProtective]}: the first node's, if another node came first. */
    public long[] adoptedBounds() {
        return adopted.clone();
    }

    private Table of(CounterKey key) {
        return tables[StoreTable.of(key.kind()).ordinal()];
    }

    /** The table {@code table} (package-private for tests that look at one table). */
    Table table(StoreTable table) {
        return tables[table.ordinal()];
    }

    /** The cache key of the slot that holds {@code key}'s entry (package-private for tests that look at one slot's copies). */
    Long slotKey(CounterKey key) {
        Table t = of(key);
        return (long) namespace << 40 | (long) t.id << 36 | hash.slot(key, t.slots);
    }

    @Override
    public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
        try {
            Table t = of(key);
            Long slot = slotKey(key);
            long ttl = Math.max(1, ttlMillis);
            Subject subject = Subject.of(key);
            if (t.local) {
                return CompletableFuture.completedFuture(t.changeLocally(slot, subject, change, ttl, shares));
            }
            // The command travels as its bytes, the one value the function captures: Infinispan marshals a
            // lambda's captured byte[] (and boxed numbers), but not a captured long[], an enum or a record without a
            // ProtoStream schema of ours, and whether Keycloak loads a provider's schema is not verified across the
            // tested range. The node that owns the slot decodes it, and refuses a change of a format it does not read.
            byte[] command = new SlotCommand(subject, change, ttl, t.shape).toBytes();
            return t.cache.computeAsync(slot, (k, old) -> ClusterSlots.run(command, old))
                    .thenApply(v -> {
                        long[] written = StoreCodec.fromBytes((byte[]) v);
                        shares.sample(subject.realm(), t.id, written, t.shape.ways());
                        return Slots.result(written);
                    });
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new CounterStoreException("change failed", e));
        }
    }

    @Override
    public double shareUse(long realmTag, int table) {
        return shares.use(realmTag, table);
    }

    private final ShareUse shares = new ShareUse();

    /**
     * Each realm's use of its fair share of each table, as a moving average over its writes of what the written slot
     * says ({@link Slots#shareUse}): one compare-and-set per write, no scan. One row per realm that wrote (realms
     * exist only as Keycloak created them).
     */
    static final class ShareUse {
        /** Weight of one write in the average. */
        private static final double ALPHA = 1.0 / 32;
        private final ConcurrentHashMap<Long, AtomicLongArray> rows =
                new ConcurrentHashMap<>();

        void sample(long realm, int table, long[] slot, int ways) {
            if (slot == null) {
                return;
            }
            double x = Slots.shareUse(slot, ways);
            AtomicLongArray row = rows.computeIfAbsent(realm,
                    r -> {
                        long[] none = new long[StoreTable.NAMES.size()];
                        Arrays.fill(none, NONE);
                        return new AtomicLongArray(none);
                    });
            long old;
            long next;
            do {
                old = row.get(table);
                double avg = old == NONE ? x : Double.longBitsToDouble(old) + ALPHA * (x - Double.longBitsToDouble(old));
                next = Double.doubleToRawLongBits(avg);
            } while (!row.compareAndSet(table, old, next));
        }

        double use(long realm, int table) {
            AtomicLongArray row = rows.get(realm);
            long v = row == null ? NONE : row.get(table);
            return v == NONE ? 0 : Double.longBitsToDouble(v);
        }

        /** No sample yet (a NaN's bits no average takes). */
        private static final long NONE = 0x7ff8_dead_0000_0000L;
    }


    /**
     * One change as a LOCAL data container applies it, reused by its thread (the container calls it once,
     * synchronously, under the slot's lock; {@link Slots} never calls back into a store).
     */
    private static final class LocalChange implements DataContainer.ComputeAction<Object, Object> {
        private final UnreadableSlots unreadable;
        private Subject subject;
        /** Null for a removal of the subject's entry rather than a change. */
        private Change change;
        private long ttl;
        private TableShape shape;
        private long now;
        long[] result;
        /** The slot the change wrote (null: none), for the realm's share use. */
        long[] written;

        LocalChange(UnreadableSlots unreadable) {
            this.unreadable = unreadable;
        }

        @Override
        public InternalCacheEntry<Object, Object> compute(Object key, InternalCacheEntry<Object, Object> old,
                                                          InternalEntryFactory factory) {
            long[] before = old == null || old.isExpired(now) ? null : unreadable.check((long[]) old.getValue());
            boolean remove = change == null;
            long[] next = remove ? Slots.remove(before, subject) : Slots.apply(before, subject, change, ttl, shape);
            result = remove ? null : Slots.result(next);
            written = remove || next == before ? null : next;
            if (next == before && old != null) {
                return old;
            }
            // A slot lives as long as the longest of its entries; no metadata object: a lifespan alone makes a
            // plain mortal entry. The entry keeps the key object the container's map already holds.
            return next == null ? null : factory.create(old == null ? key : old.getKey(), next, (Metadata) null, now,
                    Math.max(1, Slots.latestExpiry(next) - now), now, -1);
        }
    }

    @Override
    public long[] read(CounterKey key) {
        try {
            Table t = of(key);
            Long at = slotKey(key);
            long[] slot = unreadable.check(t.value(t.local ? t.peekLocally(at) : t.cache.get(at)));
            return Slots.find(slot, Subject.of(key), t.time.wallClockTime());
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    @Override
    public CompletableFuture<long[]> peek(CounterKey key) {
        try {
            Table t = of(key);
            Subject subject = Subject.of(key);
            Long at = slotKey(key);
            // a LOCAL read straight from the data container, as a LOCAL change is made (a clustered read stays a
            // cache read: on a node that holds a copy it is local, elsewhere one round trip to an owner)
            CompletableFuture<Object> stored = t.local ? CompletableFuture.completedFuture(t.peekLocally(at)) : t.cache.getAsync(at);
            return stored.thenApply(v -> Slots.findOrShared(unreadable.check(t.value(v)), subject, t.time.wallClockTime(),
                    t.shape.policy()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new CounterStoreException("read failed", e));
        }
    }

    @Override
    public void remove(CounterKey key) {
        try {
            Table t = of(key);
            Long slot = slotKey(key);
            Subject subject = Subject.of(key);
            if (t.local) {
                t.removeLocally(slot, subject);
            } else {
                byte[] command = SlotCommand.removal(subject).toBytes();
                t.cache.computeIfPresent(slot, (k, old) -> ClusterSlots.run(command, old));
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("remove failed", e);
        }
    }

    /** One table: its cache (with the flags every call of the gate takes), its slots and what may make room. */
    static final class Table {
        final AdvancedCache<Object, Object> cache;
        final boolean local;
        final int id;
        final long slots;
        final TableShape shape;
        final DataContainer<Object, Object> container;
        final TimeService time;
        /** Each thread's reusable change for this table's LOCAL container (a field: no static state). */
        private final ThreadLocal<LocalChange> localChange;

        @SuppressWarnings("unchecked")
        Table(Cache<?, ?> cache, StoreTable table, long bound, UnreadableSlots unreadable) {
            if (bound < 1) {
                throw new IllegalArgumentException("a table's bound must be positive, was " + bound);
            }
            this.cache = ((Cache<Object, Object>) cache).getAdvancedCache().withFlags(Flag.SKIP_LISTENER_NOTIFICATION, Flag.SKIP_STATISTICS,
                    Flag.SKIP_CACHE_LOAD, Flag.SKIP_CACHE_STORE, Flag.SKIP_INDEXING, Flag.SKIP_XSITE_BACKUP);
            this.local = !cache.getCacheConfiguration().clustering().cacheMode().isClustered();
            this.container = this.cache.getDataContainer();
            this.time = ComponentRegistry.componentOf(cache, TimeService.class);
            this.id = table.ordinal();
            this.shape = table.shape(bound);
            this.slots = Math.min(MAX_SLOTS, Slots.slotsFor(bound, shape.ways()));
            this.localChange = ThreadLocal.withInitial(() -> new LocalChange(unreadable));
        }

        /** A slot as {@link Slots} reads it. */
        long[] value(Object stored) {
            return stored == null ? null : local ? (long[]) stored : StoreCodec.fromBytes((byte[]) stored);
        }

        /**
         * One change on a LOCAL cache, straight on its data container: an atomic compute of the slot (the
         * container is a concurrent map), without the command path a cache call takes (invocation context,
         * locking, notifications, statistics), which nothing here uses: the gate's caches have no listeners, no
         * persistence and no transactions. The data container, not the public {@code compute}, because it sets the
         * entry's lifespan from the slot this same atomic step computes, at about 400k decisions per CPU-second
         * against 229k (the bound would hold without it: the slot count is fixed); the cross-version subset runs it
         * on Infinispan 15.0 (Keycloak 26.4.7) and 16.0 (26.7.3). The entry keeps Infinispan's form (a mortal entry, read as absent once
         * expired and purged by the cache's reaper), so reads, clears and expiry work as for any entry.
         */
        long[] changeLocally(Long slot, Subject subject, Change change, long ttl, ShareUse shares) {
            LocalChange c = local(subject, change);
            c.ttl = ttl;
            try {
                container.compute(slot, c);
                shares.sample(subject.realm(), id, c.written, shape.ways());
                return c.result;
            } finally {
                c.change = null;
                c.result = null;
                c.written = null;
            }
        }

        /**
         * A LOCAL slot's stored value straight from the data container (null: none, or expired and not yet purged),
         * without the command path a cache read takes, for the reason {@link #changeLocally} gives.
         */
        Object peekLocally(Long slot) {
            InternalCacheEntry<Object, Object> e = container.peek(slot);
            return e == null || e.isExpired(time.wallClockTime()) ? null : e.getValue();
        }

        void removeLocally(Long slot, Subject subject) {
            LocalChange c = local(subject, null);
            try {
                container.compute(slot, c);
            } finally {
                c.result = null;
                c.written = null;
            }
        }

        /** This thread's {@link LocalChange}, filled with the subject, the change (null: a removal) and the time. */
        private LocalChange local(Subject subject, Change change) {
            LocalChange c = localChange.get();
            c.subject = subject;
            c.change = change;
            c.shape = shape;
            c.now = time.wallClockTime();
            c.result = null;
            return c;
        }
    }
}
