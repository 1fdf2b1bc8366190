package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;

/**
 * Counters in an Infinispan cache. Values are plain {@link Long}s (counters; a lock holds its expiry
 * time; a distinct set of exactly one member holds that member) and {@link String}s (distinct sets of
 * any other size: sorted 64-bit members, 16 hex digits each), which Keycloak's
 * ProtoStream marshaller handles without a schema and which compare by content, so the compare-and-set
 * loops below are exact on a distributed cache too. Expiry is Infinispan's lifespan, refreshed on
 * every write.
 *
 * <p>A counter's Long holds its units in the low 32 bits and its confirmed units ({@link #confirm}) in the
 * high bits, so both change in one compare-and-set; a counter nothing was confirmed on is the plain count,
 * as older versions wrote it.
 *
 * <p>One-member sets are by far the most common (one address, one typed username) and a boxed Long
 * takes 16 bytes of heap where a 16-character String takes 56, so they are stored as the Long. Both
 * forms are read either way, so entries written by older versions keep working.
 */
public final class InfinispanCounterStore implements CounterStore {

    private static final int MAX_SPINS = 1000;
    private static final int MEMBER_CHARS = 16;
    private static final long UNITS = 0xFFFF_FFFFL;

    private final Cache<String, Object> cache;

    public InfinispanCounterStore(Cache<String, Object> cache) {
        this.cache = cache;
    }

    @Override
    public long count(CounterKey counterKey, long nowMillis) {
        String key = counterKey.toString();
        Object v = get(key);
        return v instanceof Long ? (Long) v & UNITS : 0;
    }

    @Override
    public long increment(CounterKey counterKey, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (!(old instanceof Long)) {
                    if (old == null ? cache.putIfAbsent(key, 1L, windowMillis, TimeUnit.MILLISECONDS) == null
                            : cache.replace(key, old, 1L, windowMillis, TimeUnit.MILLISECONDS)) {
                        return 1;
                    }
                } else {
                    long v = (Long) old;
                    long next = (v & UNITS) == UNITS ? v : v + 1; // saturates rather than spill into the confirmed units
                    if (cache.replace(key, old, next, windowMillis, TimeUnit.MILLISECONDS)) {
                        return next & UNITS;
                    }
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("increment failed", e);
        }
        throw new CounterStoreException("increment did not converge");
    }

    @Override
    public void decrement(CounterKey counterKey, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (!(old instanceof Long)) {
                    return;
                }
                long v = (Long) old;
                long units = (v & UNITS) - 1;
                long next = Math.min(v >>> 32, units) << 32 | units;
                if (units <= 0 ? cache.remove(key, old) : cache.replace(key, old, next, windowMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("decrement failed", e);
        }
        throw new CounterStoreException("decrement did not converge");
    }

    @Override
    public long confirm(CounterKey counterKey, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (!(old instanceof Long)) {
                    return 0;
                }
                long v = (Long) old;
                long units = v & UNITS;
                long confirmed = Math.min((v >>> 32) + 1, units);
                if (cache.replace(key, old, confirmed << 32 | units, windowMillis, TimeUnit.MILLISECONDS)) {
                    return confirmed;
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("confirm failed", e);
        }
        throw new CounterStoreException("confirm did not converge");
    }

    @Override
    public DistinctView distinct(CounterKey counterKey, long member, long nowMillis) {
        String key = counterKey.toString();
        Object v = get(key);
        if (v instanceof Long) {
            return DistinctView.of(1, (Long) v == member);
        }
        if (!(v instanceof String)) {
            return DistinctView.EMPTY;
        }
        String s = (String) v;
        return DistinctView.of(s.length() / MEMBER_CHARS, indexOf(s, member) >= 0);
    }

    @Override
    public DistinctView addDistinct(CounterKey counterKey, long member, int cap, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (old instanceof Long && ((Long) old == member || cap <= 1)) {
                    // One-member set that stays as it is (the common repeat): refresh the expiry only.
                    if (cache.replace(key, old, old, windowMillis, TimeUnit.MILLISECONDS)) {
                        return DistinctView.of(1, (Long) old == member);
                    }
                    continue;
                }
                String s = members(old);
                int at = indexOf(s, member);
                int size = s.length() / MEMBER_CHARS;
                String next = s;
                if (at < 0 && size < cap) {
                    int ins = -at - 1;
                    next = s.substring(0, ins * MEMBER_CHARS) + hex(member) + s.substring(ins * MEMBER_CHARS);
                }
                Object value = setValue(next);
                boolean done = old == null
                        ? cache.putIfAbsent(key, value, windowMillis, TimeUnit.MILLISECONDS) == null
                        : cache.replace(key, old, value, windowMillis, TimeUnit.MILLISECONDS);
                if (done) {
                    return DistinctView.of(next.length() / MEMBER_CHARS, at >= 0 || next != s);
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("addDistinct failed", e);
        }
        throw new CounterStoreException("addDistinct did not converge");
    }

    @Override
    public void lock(CounterKey counterKey, long durationMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            cache.put(key, nowMillis + durationMillis, durationMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            throw new CounterStoreException("lock failed", e);
        }
    }

    @Override
    public long lockRemainingMillis(CounterKey counterKey, long nowMillis) {
        String key = counterKey.toString();
        Object v = get(key);
        return v instanceof Long ? Math.max(0, (Long) v - nowMillis) : 0;
    }

    @Override
    public long remainingMillis(CounterKey counterKey, long nowMillis) {
        String key = counterKey.toString();
        try {
            org.infinispan.container.entries.CacheEntry<String, Object> e = cache.getAdvancedCache().getCacheEntry(key);
            if (e == null) {
                return 0;
            }
            if (e.getLifespan() < 0) {
                return -1;
            }
            long created = e.getCreated() > 0 ? e.getCreated() : e.getLastUsed();
            return created > 0 ? Math.max(0, created + e.getLifespan() - System.currentTimeMillis()) : -1;
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    @Override
    public void clear(CounterKey counterKey) {
        String key = counterKey.toString();
        try {
            cache.remove(key);
        } catch (RuntimeException e) {
            throw new CounterStoreException("clear failed", e);
        }
    }

    private Object get(String key) {
        try {
            return cache.get(key);
        } catch (RuntimeException e) {
            throw new CounterStoreException("read failed", e);
        }
    }

    /** The members of a stored distinct set as sorted fixed-width hex: a Long is a one-member set. */
    static String members(Object v) {
        if (v instanceof String) {
            return (String) v;
        }
        return v instanceof Long ? hex((Long) v) : "";
    }

    /** What to store for a set: its only member as a Long, otherwise the hex String. */
    static Object setValue(String members) {
        return members.length() == MEMBER_CHARS ? (Object) Long.parseUnsignedLong(members, 16) : members;
    }

    /** Binary search over fixed-width hex members; returns the index or {@code -(insertion point) - 1}. */
    static int indexOf(String s, long member) {
        int lo = 0;
        int hi = s.length() / MEMBER_CHARS - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long m = Long.parseUnsignedLong(s, mid * MEMBER_CHARS, (mid + 1) * MEMBER_CHARS, 16);
            int c = Long.compareUnsigned(m, member);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    static String hex(long member) {
        String h = Long.toHexString(member);
        return "0000000000000000".substring(h.length()) + h;
    }
}
