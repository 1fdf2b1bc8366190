package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import java.util.concurrent.CompletableFuture;

/**
 * The port the gate keeps its state through: one entry per subject (an address, a pair, an identifier, a
 * device, a used captcha), each a {@code long[]} that only {@link Entries} reads and changes. A store never
 * decides anything: it applies a change atomically per key and hands back the new value, or throws (or
 * completes exceptionally) when it cannot.
 *
 * <p>Stores are bounded, and the bound never switches a layer off: a store that has no room for a new subject
 * either makes room from an entry worth at most one attempt, or counts the subject on a shared counter and
 * marks the answer ({@link Slots#SHARED}); it never drops a protective entry ({@link CounterKey.Kind#protective()})
 * to make room, and protective entries have a bound of their own, so that a flood of cheap entries cannot crowd
 * them out. A change that finds no room and may not be shared (a used captcha) hands back null.
 */
public interface CounterStore {

    /**
     * Applies {@code change} to the key's entry atomically, keeping the entry for {@code ttlMillis} from now
     * (each write refreshes it), and completes with the new value, or null when no entry is left.
     */
    CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis);

    /** The key's value, or null. For operators' lookups and tests; the layers never read without writing. */
    long[] read(CounterKey key);

    /** Removes the key's entry. */
    void remove(CounterKey key);

    /** One change for {@link Entries#apply}: what it does and its arguments. */
    final class Change {
        private final int code;
        private final long[] args;

        public Change(int code, long... args) {
            this.code = code;
            this.args = args;
        }

        public int code() {
            return code;
        }

        /** The arguments; never modify them. */
        public long[] args() {
            return args;
        }

        /** Applies the change to {@code old}; {@code create} false when the store may not add an entry. */
        public long[] applyTo(long[] old, boolean create) {
            return Entries.apply(code, args, create, old);
        }
    }
}
