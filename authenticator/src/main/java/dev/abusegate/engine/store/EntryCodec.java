package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * The codec of one kind of entry: how its stored words read ({@link #read}) and are written ({@link #write}), how
 * two of its entries fold into one ({@link #merge}), and what a slot needs to know of it when making room. One
 * codec per kind, found once by the kind's tag ({@link #of}); a slot never reads an entry's words itself.
 *
 * @param <E> the entry as read ({@link AddressEntry}, {@link PairEntry}, {@link LockoutEntry}, {@link UsedEntry})
 */
interface EntryCodec<E> {

    /** The entry in a stored value; an empty one for null. */
    E read(long[] value);

    /** The entry's stored words, with {@code answer} as their answer word. */
    long[] write(E entry, long answer);

    /**
     * Two entries as one, for a shared counter that takes in another subject's entry: counts summed, locks and
     * expiries the later, so the result only over-counts either. Null for a kind that is never folded.
     */
    default long[] merge(long[] a, long[] b, long now) {
        return null;
    }

    /** Whether losing this entry gives its owner back at most one attempt (it may then make room). */
    default boolean worthOneAttempt(long[] value, long now) {
        return false;
    }

    /** The kind of its realm's shared counter (accounts and devices share one, so they can be folded together). */
    int sharedKind();

    /**
     * The answer {@code change} gets when counted on a shared counter, whose value {@code v} it wrote: by default
     * the value's own answer, marked shared.
     */
    default long[] onShared(Change change, long[] v) {
        return Answers.answered(v, (int) v[0] | Answers.SHARED);
    }

    /** The answer {@code change} gets when it found no place at all (nothing counted): by default as on shared. */
    default long[] homeless(Change change, long[] v) {
        return onShared(change, v);
    }

    /** The codec of the kind with tag {@code kind} ({@link CounterKey.Kind#ordinal()}). */
    static EntryCodec<?> of(int kind) {
        if (kind < 0 || kind >= Registry.BY_KIND.length) {
            throw new StoreFormatException("unknown entry kind " + kind);
        }
        return Registry.BY_KIND[kind];
    }

    /** The codecs by kind tag: the one place that maps a kind to its entry. */
    final class Registry {
        private static final EntryCodec<?>[] BY_KIND = new EntryCodec<?>[CounterKey.Kind.values().length];

        static {
            BY_KIND[CounterKey.Kind.ADDRESS.ordinal()] = AddressCodec.INSTANCE;
            BY_KIND[CounterKey.Kind.PAIR.ordinal()] = PairCodec.INSTANCE;
            BY_KIND[CounterKey.Kind.ACCOUNT.ordinal()] = LockoutCodec.INSTANCE;
            BY_KIND[CounterKey.Kind.DEVICE.ordinal()] = LockoutCodec.INSTANCE;
            BY_KIND[CounterKey.Kind.USED.ordinal()] = UsedCodec.INSTANCE;
            BY_KIND[CounterKey.Kind.BUCKET.ordinal()] = AddressCodec.BUCKETS;
        }

        private Registry() {
        }
    }
}
