package dev.abusegate.engine;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A counter store in one JVM's heap, on the gate's clock. Atomic per key. Meant for tests, benchmarks
 * and single-node experiments; the Keycloak adapter uses Infinispan. Expired entries are dropped when
 * touched and by {@link #purgeExpired(long)}.
 */
public final class InMemoryCounterStore implements CounterStore {

    private final ConcurrentHashMap<String, Entry> map = new ConcurrentHashMap<>();

    private interface Entry {
        long expiresAt();
    }

    private record Counter(long value, long expiresAt) implements Entry {
    }

    private record Members(long[] sorted, long expiresAt) implements Entry {
    }

    private record Lock(long expiresAt) implements Entry {
    }

    private static <T extends Entry> T live(Entry e, Class<T> type, long now) {
        return type.isInstance(e) && e.expiresAt() > now ? type.cast(e) : null;
    }

    @Override
    public long count(String key, long nowMillis) {
        Counter c = live(map.get(key), Counter.class, nowMillis);
        return c == null ? 0 : c.value();
    }

    @Override
    public long increment(String key, long windowMillis, long nowMillis) {
        Entry e = map.compute(key, (k, old) -> {
            Counter c = live(old, Counter.class, nowMillis);
            return new Counter(c == null ? 1 : c.value() + 1, nowMillis + windowMillis);
        });
        return ((Counter) e).value();
    }

    @Override
    public void decrement(String key, long windowMillis, long nowMillis) {
        map.computeIfPresent(key, (k, old) -> {
            Counter c = live(old, Counter.class, nowMillis);
            if (c == null || c.value() <= 1) {
                return null;
            }
            return new Counter(c.value() - 1, nowMillis + windowMillis);
        });
    }

    @Override
    public DistinctView distinct(String key, long member, long nowMillis) {
        Members m = live(map.get(key), Members.class, nowMillis);
        if (m == null) {
            return DistinctView.EMPTY;
        }
        return new DistinctView(m.sorted().length, Arrays.binarySearch(m.sorted(), member) >= 0);
    }

    @Override
    public DistinctView addDistinct(String key, long member, int cap, long windowMillis, long nowMillis) {
        Members after = (Members) map.compute(key, (k, old) -> {
            Members m = live(old, Members.class, nowMillis);
            long[] s = m == null ? new long[0] : m.sorted();
            int at = Arrays.binarySearch(s, member);
            if (at >= 0 || s.length >= cap) {
                return new Members(s, nowMillis + windowMillis);
            }
            int ins = -at - 1;
            long[] grown = new long[s.length + 1];
            System.arraycopy(s, 0, grown, 0, ins);
            grown[ins] = member;
            System.arraycopy(s, ins, grown, ins + 1, s.length - ins);
            return new Members(grown, nowMillis + windowMillis);
        });
        return new DistinctView(after.sorted().length, Arrays.binarySearch(after.sorted(), member) >= 0);
    }

    @Override
    public void lock(String key, long durationMillis, long nowMillis) {
        map.put(key, new Lock(nowMillis + durationMillis));
    }

    @Override
    public long lockRemainingMillis(String key, long nowMillis) {
        Lock l = live(map.get(key), Lock.class, nowMillis);
        return l == null ? 0 : l.expiresAt() - nowMillis;
    }

    @Override
    public void clear(String key) {
        map.remove(key);
    }

    /** Drops every entry that has expired by {@code nowMillis}. */
    public void purgeExpired(long nowMillis) {
        map.values().removeIf(e -> e.expiresAt() <= nowMillis);
    }

    /** Entries held, expired or not. */
    public int size() {
        return map.size();
    }
}
