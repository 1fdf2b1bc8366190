package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.SlotCensus;
import dev.abusegate.engine.store.StoreCodec;
import dev.abusegate.engine.store.StoreTable;
import java.util.Arrays;
import org.infinispan.commons.marshall.WrappedBytes;
import org.infinispan.container.entries.InternalCacheEntry;

/**
 * Test support (shared with benchmarks/ and integration-tests/ through the test jar): what an
 * {@link InfinispanCounterStore} holds on this node, read by walking its caches. No login path needs it, so the
 * provider JAR does not ship it.
 */
public final class StoreCensus {

    private StoreCensus() {
    }

    /**
     * Live exact entries this node holds (primary and backup copies): cheap, and protective with the tables beside it
     * in its cache (used captchas, password buckets).
     */
    public static long[] exactEntries(InfinispanCounterStore store) {
        return census(store, false);
    }

    /** Live shared counters this node holds: cheap, protective. */
    public static long[] sharedCounters(InfinispanCounterStore store) {
        return census(store, true);
    }

    /** Slot counts of the tables, in {@link StoreTable} order: cheap, protective, used captchas, password buckets. */
    public static long[] slotCounts(InfinispanCounterStore store) {
        return Arrays.stream(store.tables).mapToLong(t -> t.slots).toArray();
    }

    private static long[] census(InfinispanCounterStore store, boolean shared) {
        long[] c = count(store, store.table(StoreTable.CHEAP), shared);
        long[] p = count(store, store.table(StoreTable.PROTECTIVE), shared);
        return new long[] {c[StoreTable.CHEAP.ordinal()],
                p[StoreTable.PROTECTIVE.ordinal()] + p[StoreTable.USED.ordinal()] + p[StoreTable.SPRAY.ordinal()]};
    }

    /** Live exact entries of one table on this node. */
    public static long exactEntries(InfinispanCounterStore store, StoreTable table) {
        return count(store, store.table(table), false)[table.ordinal()];
    }

    private static long[] count(InfinispanCounterStore store, InfinispanCounterStore.Table t, boolean shared) {
        long[] out = new long[StoreTable.values().length];
        long now = t.time.wallClockTime();
        for (InternalCacheEntry<Object, Object> e : t.container) {
            Object key = e.getKey() instanceof WrappedBytes ? null : e.getKey();
            if (!(key instanceof Long) || e.isExpired(now)) {
                continue;
            }
            long k = (Long) key;
            int table = (int) (k >>> 36) & 0xF;
            if (k >>> 40 != store.namespace || table >= out.length) {
                continue;
            }
            Object v = e.getValue();
            long[] slot = v instanceof WrappedBytes ? StoreCodec.fromBytes(((WrappedBytes) v).getBytes()) : t.value(v);
            out[table] += shared ? SlotCensus.sharedCounters(slot, now) : SlotCensus.exactEntries(slot, now);
        }
        return out;
    }
}
