package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * Who an entry of a slot belongs to, as a slot names it: the realm's tag, the kind ({@link CounterKey.Kind}'s
 * ordinal), the key's shape and its 128 bits.
 */
public record Subject(long realm, int kind, int shape, long hi, long lo) {

    /** The subject of a counter key. */
    public static Subject of(CounterKey key) {
        return new Subject(key.realmTag(), key.kind().ordinal(), key.shape(), key.hi(), key.lo());
    }
}
