package dev.abusegate.engine;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A counter store in one JVM's heap, on the gate's clock. Atomic per key. Meant for tests, benchmarks
 * and single-node experiments; the Keycloak adapter uses Infinispan. Expired entries are dropped when
 * touched and by {@link #purgeExpired(long)}.
 *
 * <p>Entries are mutable but only ever changed inside the map's {@code compute} for their key (which
 * serializes writers per key); every result is taken inside that call. {@code expiresAt} is volatile and
 * written last, and readers read it first, so a reader never pairs a new value with a stale expiry. An
 * expired entry is never revived in place: a fresh one replaces it. Mutating in place keeps a long-lived
 * counter from turning into old-generation garbage on every increment.
 */
public final class InMemoryCounterStore implements CounterStore {

    private static final long[] NO_MEMBERS = new long[0];

    private final ConcurrentHashMap<String, Entry> map = new ConcurrentHashMap<>();

    private abstract static class Entry {
        volatile long expiresAt;

        final boolean liveAt(long now) {
            return expiresAt > now;
        }
    }

    private static final class Counter extends Entry {
        long value;
    }

    private static final class Members extends Entry {
        /** Never changed once published; growing replaces the array. */
        long[] sorted = NO_MEMBERS;
    }

    private static final class Lock extends Entry {
        Lock(long expiresAt) {
            this.expiresAt = expiresAt;
        }
    }

    /** Carries a result out of a {@code compute} call. */
    private static final class Result {
        long value;
        boolean flag;
    }

    @Override
    public long count(String key, long nowMillis) {
        Entry e = map.get(key);
        if (e instanceof Counter && e.liveAt(nowMillis)) {
            return ((Counter) e).value;
        }
        return 0;
    }

    @Override
    public long increment(String key, long windowMillis, long nowMillis) {
        Result r = new Result();
        map.compute(key, (k, old) -> {
            Counter c;
            if (old instanceof Counter && old.liveAt(nowMillis)) {
                c = (Counter) old;
                c.value++;
            } else {
                c = new Counter();
                c.value = 1;
            }
            c.expiresAt = nowMillis + windowMillis;
            r.value = c.value;
            return c;
        });
        return r.value;
    }

    @Override
    public void decrement(String key, long windowMillis, long nowMillis) {
        map.computeIfPresent(key, (k, old) -> {
            if (!(old instanceof Counter) || !old.liveAt(nowMillis) || ((Counter) old).value <= 1) {
                return null;
            }
            Counter c = (Counter) old;
            c.value--;
            c.expiresAt = nowMillis + windowMillis;
            return c;
        });
    }

    @Override
    public DistinctView distinct(String key, long member, long nowMillis) {
        Entry e = map.get(key);
        if (!(e instanceof Members) || !e.liveAt(nowMillis)) {
            return DistinctView.EMPTY;
        }
        long[] s = ((Members) e).sorted;
        return new DistinctView(s.length, Arrays.binarySearch(s, member) >= 0);
    }

    @Override
    public DistinctView addDistinct(String key, long member, int cap, long windowMillis, long nowMillis) {
        Result r = new Result();
        map.compute(key, (k, old) -> {
            Members m = old instanceof Members && old.liveAt(nowMillis) ? (Members) old : new Members();
            long[] s = m.sorted;
            int at = Arrays.binarySearch(s, member);
            if (at < 0 && s.length < cap) {
                int ins = -at - 1;
                long[] grown = new long[s.length + 1];
                System.arraycopy(s, 0, grown, 0, ins);
                grown[ins] = member;
                System.arraycopy(s, ins, grown, ins + 1, s.length - ins);
                m.sorted = grown;
                at = ins;
            }
            m.expiresAt = nowMillis + windowMillis;
            r.value = m.sorted.length;
            r.flag = at >= 0;
            return m;
        });
        return new DistinctView((int) r.value, r.flag);
    }

    @Override
    public void lock(String key, long durationMillis, long nowMillis) {
        map.put(key, new Lock(nowMillis + durationMillis));
    }

    @Override
    public long lockRemainingMillis(String key, long nowMillis) {
        Entry e = map.get(key);
        if (e instanceof Lock) {
            long remaining = e.expiresAt - nowMillis;
            return remaining > 0 ? remaining : 0;
        }
        return 0;
    }

    @Override
    public void clear(String key) {
        map.remove(key);
    }

    /** Drops every entry that has expired by {@code nowMillis}; atomic per key with concurrent writers. */
    public void purgeExpired(long nowMillis) {
        for (String key : map.keySet()) {
            map.computeIfPresent(key, (k, e) -> e.liveAt(nowMillis) ? e : null);
        }
    }

    /** Entries held, expired or not. */
    public int size() {
        return map.size();
    }
}
