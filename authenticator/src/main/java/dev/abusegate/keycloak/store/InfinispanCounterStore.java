package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStoreException;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;
import org.infinispan.util.function.SerializableBiFunction;

/**
 * Counters in an Infinispan cache. Values are plain {@link Long}s (counters; a lock holds its expiry
 * time; a distinct set of exactly one member holds that member) and {@link String}s (distinct sets of
 * any other size: sorted 64-bit members, 16 hex digits each), which Keycloak's
 * ProtoStream marshaller handles without a schema. Every change is atomic per key: one compute on a
 * LOCAL cache, a compare-and-set loop on a clustered one (see {@link #change}). Expiry is Infinispan's
 * lifespan, refreshed on every write.
 *
 * <p>A counter is its count as a Long. While some of its units are confirmed ({@link #confirm}) it is a
 * negative Long instead (see {@link #counterValue}), so both numbers change in one write and the
 * common small values stay within the JVM's cache of boxed Longs: a failed login costs no more heap than
 * before. Older versions of this store read a negative value as a count below any threshold, so a node not
 * yet upgraded under-counts those failures and never refuses an account because of them.
 *
 * <p>One-member sets are by far the most common (one address, one typed username) and a boxed Long
 * takes 16 bytes of heap where a 16-character String takes 56, so they are stored as the Long. Both
 * forms are read either way, so entries written by older versions keep working.
 */
public final class InfinispanCounterStore implements CounterStore {

    private static final int MEMBER_CHARS = 16;
    private static final int MAX_SPINS = 1000;

    private final Cache<String, Object> cache;
    /** A cache of this node only: no backup copies, no topology, so a compute is safe (see {@link #change}). */
    private final boolean local;

    public InfinispanCounterStore(Cache<String, Object> cache) {
        this.cache = cache;
        this.local = !cache.getCacheConfiguration().clustering().cacheMode().isClustered();
    }

    @Override
    public long count(CounterKey counterKey, long nowMillis) {
        return units(get(counterKey.toString()));
    }

    // Every change is a pure function of the stored value (the static methods below), applied atomically
    // per key by change().

    @Override
    public long increment(CounterKey counterKey, long windowMillis, long nowMillis) {
        return units(change(counterKey, InfinispanCounterStore::plusOne, windowMillis, "increment"));
    }

    @Override
    public void decrement(CounterKey counterKey, long windowMillis, long nowMillis) {
        change(counterKey, InfinispanCounterStore::minusOne, windowMillis, "decrement");
    }

    @Override
    public long confirm(CounterKey counterKey, long windowMillis, long nowMillis) {
        return confirmed(change(counterKey, InfinispanCounterStore::confirmOne, windowMillis, "confirm"));
    }

    @Override
    public void release(CounterKey counterKey, long unconfirmed, long windowMillis, long nowMillis) {
        change(counterKey, (key, old) -> released(old, unconfirmed), windowMillis, "release");
    }

    /**
     * Applies {@code change} to the key's value atomically and returns the new value (null: none stored).
     * On a LOCAL cache that is one compute, which also keeps the entry in Infinispan's compact form (an entry
     * updated by a conditional replace is stamped with a version and keeps a metadata object: about 56 bytes
     * more). On a clustered cache it is a compare-and-set loop that writes the value itself: a compute would
     * send the function, which the backup owner applies to its own copy (copies evicted on one node only
     * then drift apart) and which a retry after a topology change may apply twice.
     */
    private Object change(CounterKey counterKey, SerializableBiFunction<String, Object, Object> change, long windowMillis, String what) {
        String key = counterKey.toString();
        try {
            if (local) {
                return cache.compute(key, change, windowMillis, TimeUnit.MILLISECONDS);
            }
            for (int i = 0; i < MAX_SPINS; i++) {
                Object old = cache.get(key);
                Object next = change.apply(key, old);
                boolean done = old == null ? next == null || cache.putIfAbsent(key, next, windowMillis, TimeUnit.MILLISECONDS) == null
                        : next == null ? cache.remove(key, old)
                        : cache.replace(key, old, next, windowMillis, TimeUnit.MILLISECONDS);
                if (done) {
                    return next;
                }
            }
        } catch (RuntimeException e) {
            throw new CounterStoreException(what + " failed", e);
        }
        throw new CounterStoreException(what + " did not converge");
    }

    /** A counter one unit up; anything else (absent, or not a counter) starts at 1. */
    static Object plusOne(String key, Object old) {
        return isCounter(old) ? counterValue(units(old) + 1, confirmed(old)) : (Object) 1L;
    }

    /** A counter one unit down, gone at 0; anything else stays as it is. */
    static Object minusOne(String key, Object old) {
        if (!isCounter(old)) {
            return old;
        }
        long units = units(old) - 1;
        return units <= 0 ? null : counterValue(units, Math.min(confirmed(old), units));
    }

    /** One more unit confirmed, never more than the units; anything else stays as it is. */
    static Object confirmOne(String key, Object old) {
        if (!isCounter(old)) {
            return old;
        }
        long units = units(old);
        return counterValue(units, Math.min(confirmed(old) + 1, units));
    }

    /** The confirmed units and {@code unconfirmed} others gone, gone at 0; anything else stays as it is. */
    static Object released(Object old, long unconfirmed) {
        if (!isCounter(old)) {
            return old;
        }
        long left = units(old) - confirmed(old) - unconfirmed;
        return left <= 0 ? null : (Object) left;
    }

    /**
     * A counter's value: {@code units} as a Long when none is confirmed; otherwise the negative Long
     * {@code -(units * (units + 1) / 2 + confirmed)}. For {@code 1 <= confirmed <= units} that pairing is
     * one-to-one, and one unit with one confirmed (a failed login) is -2, a cached boxed Long.
     */
    static Object counterValue(long units, long confirmed) {
        if (confirmed <= 0) {
            return units;
        }
        long u = Math.min(units, MAX_PAIRED_UNITS);
        return -(u * (u + 1) / 2 + Math.min(confirmed, u));
    }

    /** Keeps the pairing within a long. A failures counter holds about its threshold; this is never reached. */
    private static final long MAX_PAIRED_UNITS = 1L << 31;

    static boolean isCounter(Object v) {
        return v instanceof Long;
    }

    /** A counter's units; 0 for anything that is not a counter. */
    static long units(Object v) {
        if (!(v instanceof Long)) {
            return 0;
        }
        long x = (Long) v;
        return x >= 0 ? x : pairedUnits(-x);
    }

    /** A counter's confirmed units; 0 for a plain count and for anything that is not a counter. */
    static long confirmed(Object v) {
        if (!(v instanceof Long) || (Long) v >= 0) {
            return 0;
        }
        long q = -(Long) v;
        long u = pairedUnits(q);
        return u == 0 ? 0 : q - u * (u + 1) / 2;
    }

    /** The largest pair this store writes: MAX_PAIRED_UNITS units, all confirmed. */
    private static final long MAX_PAIR = MAX_PAIRED_UNITS * (MAX_PAIRED_UNITS + 1) / 2 + MAX_PAIRED_UNITS;

    /** The largest u with u(u+1)/2 <= q: the units of the pair {@code q}; 0 for what this store never writes. */
    private static long pairedUnits(long q) {
        if (q <= 0 || q > MAX_PAIR) {
            return 0;
        }
        long u = (long) ((Math.sqrt(8.0 * q + 1) - 1) / 2);
        while (u > 0 && u * (u + 1) / 2 > q) {
            u--;
        }
        while ((u + 1) * (u + 2) / 2 <= q) {
            u++;
        }
        return u;
    }

    @Override
    public DistinctView distinct(CounterKey counterKey, long member, long nowMillis) {
        return view(get(counterKey.toString()), member);
    }

    @Override
    public DistinctView addDistinct(CounterKey counterKey, long member, int cap, long windowMillis, long nowMillis) {
        return view(change(counterKey, (key, old) -> withMember(old, member, cap), windowMillis, "addDistinct"), member);
    }

    /** A stored set's size and whether it holds {@code member}. */
    static DistinctView view(Object v, long member) {
        if (v instanceof Long) {
            return DistinctView.of(1, (Long) v == member);
        }
        if (!(v instanceof String)) {
            return DistinctView.EMPTY;
        }
        String s = (String) v;
        return DistinctView.of(s.length() / MEMBER_CHARS, indexOf(s, member) >= 0);
    }

    /** The set with {@code member} added unless present or already {@code cap} strong (then as it was). */
    static Object withMember(Object old, long member, int cap) {
        if (old instanceof Long && ((Long) old == member || cap <= 1)) {
            return old; // a one-member set that stays as it is (the common repeat): the write refreshes its expiry
        }
        String s = members(old);
        int at = indexOf(s, member);
        if (at >= 0 || s.length() / MEMBER_CHARS >= cap) {
            return old == null ? null : setValue(s);
        }
        int ins = -at - 1;
        return setValue(s.substring(0, ins * MEMBER_CHARS) + hex(member) + s.substring(ins * MEMBER_CHARS));
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
