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
 * <p>A counter is its count as a Long. Once some of its units are confirmed ({@link #confirm}) it is the
 * String {@code "units/confirmed"} until none is confirmed again, so both numbers change in one
 * compare-and-set. Older versions of this store read such a String as no counter at all (0, and an increment
 * starts it again at 1): a node not yet upgraded under-counts those failures instead of misreading them.
 *
 * <p>One-member sets are by far the most common (one address, one typed username) and a boxed Long
 * takes 16 bytes of heap where a 16-character String takes 56, so they are stored as the Long. Both
 * forms are read either way, so entries written by older versions keep working.
 */
public final class InfinispanCounterStore implements CounterStore {

    private static final int MAX_SPINS = 1000;
    private static final int MEMBER_CHARS = 16;

    private final Cache<String, Object> cache;

    public InfinispanCounterStore(Cache<String, Object> cache) {
        this.cache = cache;
    }

    @Override
    public long count(CounterKey counterKey, long nowMillis) {
        return units(get(counterKey.toString()));
    }

    @Override
    public long increment(CounterKey counterKey, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (old == null) {
                    if (cache.putIfAbsent(key, 1L, windowMillis, TimeUnit.MILLISECONDS) == null) {
                        return 1;
                    }
                    continue;
                }
                long next = isCounter(old) ? units(old) + 1 : 1;
                Object value = counterValue(next, isCounter(old) ? confirmed(old) : 0);
                if (cache.replace(key, old, value, windowMillis, TimeUnit.MILLISECONDS)) {
                    return next;
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
                if (!isCounter(old)) {
                    return;
                }
                long units = units(old) - 1;
                if (units <= 0 ? cache.remove(key, old)
                        : cache.replace(key, old, counterValue(units, Math.min(confirmed(old), units)), windowMillis, TimeUnit.MILLISECONDS)) {
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
                if (!isCounter(old)) {
                    return 0;
                }
                long units = units(old);
                long confirmed = Math.min(confirmed(old) + 1, units);
                if (cache.replace(key, old, counterValue(units, confirmed), windowMillis, TimeUnit.MILLISECONDS)) {
                    return confirmed;
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("confirm failed", e);
        }
        throw new CounterStoreException("confirm did not converge");
    }

    @Override
    public void release(CounterKey counterKey, long unconfirmed, long windowMillis, long nowMillis) {
        String key = counterKey.toString();
        try {
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                if (!isCounter(old)) {
                    return;
                }
                long left = units(old) - confirmed(old) - unconfirmed;
                if (left <= 0 ? cache.remove(key, old) : cache.replace(key, old, left, windowMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException("release failed", e);
        }
        throw new CounterStoreException("release did not converge");
    }

    /** A counter's value: the plain count, or {@code "units/confirmed"} while some units are confirmed. */
    static Object counterValue(long units, long confirmed) {
        return confirmed > 0 ? units + "/" + confirmed : (Object) units;
    }

    static boolean isCounter(Object v) {
        return v instanceof Long || v instanceof String && ((String) v).indexOf('/') > 0;
    }

    /** A counter's units; 0 for anything that is not a counter. */
    static long units(Object v) {
        if (v instanceof Long) {
            return (Long) v;
        }
        return isCounter(v) ? parse((String) v, 0, ((String) v).indexOf('/')) : 0;
    }

    /** A counter's confirmed units; 0 for a plain count and for anything that is not a counter. */
    static long confirmed(Object v) {
        if (!isCounter(v) || v instanceof Long) {
            return 0;
        }
        String s = (String) v;
        return parse(s, s.indexOf('/') + 1, s.length());
    }

    private static long parse(String s, int from, int to) {
        try {
            return Long.parseLong(s, from, to, 10);
        } catch (NumberFormatException e) {
            throw new CounterStoreException("unreadable counter value", e);
        }
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
