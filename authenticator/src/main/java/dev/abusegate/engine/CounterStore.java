package dev.abusegate.engine;

/**
 * The port the layers count through. Implementations are atomic per key and throw
 * ({@link CounterStoreException} or any other runtime exception) when they cannot answer; they never
 * decide anything. Times are milliseconds on the gate's clock; a store with its own clock (a cache
 * with native expiry) may use only the durations.
 */
public interface CounterStore {

    /** The current value of a counter, 0 when absent or expired. */
    long count(CounterKey key, long nowMillis);

    /** Adds one and refreshes the expiry to {@code windowMillis} from now; returns the new value. */
    long increment(CounterKey key, long windowMillis, long nowMillis);

    /** Gives one back (never below zero), refreshing the expiry. Absent counters stay absent. */
    void decrement(CounterKey key, long windowMillis, long nowMillis);

    /**
     * Confirms one of a counter's units and returns how many are confirmed now. The confirmed number lives
     * in the counter's own entry: it never exceeds the counter (a decrement that would leave fewer units
     * than confirmed ones lowers it too), is cleared and expires with it, and this call refreshes the
     * expiry like any write. An absent or expired counter stays absent and answers 0. {@link #count} still
     * answers every unit, confirmed or not.
     *
     * <p>The gate's lockout counts an attempt before its password is checked (a reservation), confirms it
     * when the password was wrong, and locks on confirmed failures only.
     */
    long confirm(CounterKey key, long windowMillis, long nowMillis);

    /**
     * Drops every confirmed unit and {@code unconfirmed} of the others: {@code units - confirmed -
     * unconfirmed} are left, none confirmed, and the expiry is refreshed. An entry left with no units is
     * removed; an absent one stays absent.
     *
     * <p>The gate's lockout, on a right password (its own reservation and the confirmed failures go) and
     * on a lock (the confirmed failures go): the reservations of attempts still being checked stay, so that
     * each attempt's own settlement later applies to its own reservation and not to someone else's.
     */
    void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis);

    /** Size of a distinct set, and whether it holds {@code member}. */
    DistinctView distinct(CounterKey key, long member, long nowMillis);

    /**
     * Adds {@code member} unless present or the set already holds {@code cap} members, and refreshes the
     * expiry either way; returns the size after, and whether the member is (now) in the set.
     */
    DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis);

    /** Sets a lock that expires {@code durationMillis} from now, whatever was there before. */
    void lock(CounterKey key, long durationMillis, long nowMillis);

    /** Milliseconds until the lock expires, 0 when there is none. */
    long lockRemainingMillis(CounterKey key, long nowMillis);

    /**
     * Milliseconds until the entry under {@code key} expires: 0 when absent, -1 when the store cannot
     * tell. For operators' lookups only; the layers never need it.
     */
    default long remainingMillis(CounterKey key, long nowMillis) {
        return -1;
    }

    /** Removes whatever is stored under the key. */
    void clear(CounterKey key);

    /** A distinct set's size and whether it contains the member asked about. */
    record DistinctView(int size, boolean contains) {
        public static final DistinctView EMPTY = new DistinctView(0, false);

        private static final DistinctView[] SHARED = new DistinctView[128];

        static {
            for (int i = 0; i < SHARED.length; i++) {
                SHARED[i] = i == 0 ? EMPTY : new DistinctView(i >> 1, (i & 1) != 0);
            }
        }

        /** The same as the constructor, without an allocation for the small sizes the layers use. */
        public static DistinctView of(int size, boolean contains) {
            return size >= 0 && size < SHARED.length >> 1 ? SHARED[size << 1 | (contains ? 1 : 0)] : new DistinctView(size, contains);
        }
    }
}
