package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The port the gate keeps its state through: one entry per subject (an address, a pair, an identifier, a
 * device, a used captcha), each a {@code long[]} that only its entry type reads ({@link AddressEntry},
 * {@link PairEntry}, {@link LockoutEntry}, {@link UsedEntry}) and only a {@link Change} changes. A store never
 * decides anything and never reads a value or a change: it applies a change atomically per key (in a cluster,
 * carried as {@link StoreCodec}'s words to where the entry lives) and hands back the new value, whose answer the
 * caller reads ({@link AdmissionAnswer}, {@link FailureOutcome}, {@link UsedEntry#firstUse}), or throws (or
 * completes exceptionally) when it cannot.
 *
 * <p>Stores are bounded, and the bound never switches a layer off: a store that has no room for a new subject
 * either makes room from an entry worth at most one attempt, or from a realm holding more than its share of the
 * room, or counts the subject on its realm's shared counter and marks the answer ({@link AdmissionAnswer#shared()});
 * it never drops a protective entry ({@link CounterKey.Kind#protective()}) of a realm within its share to make
 * room, and protective entries have a bound of their own, so that a flood of cheap entries cannot crowd them out.
 * No realm's traffic changes another realm's counts. A change that finds no room and may not be shared (a used
 * captcha) hands back null.
 */
public interface CounterStore {

    /**
     * Applies {@code change} to the key's entry atomically, keeping the entry for {@code ttlMillis} from now
     * (each write refreshes it), and completes with the new value, or null when no entry is left.
     */
    CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis);

    /** The key's value, or null. For operators' lookups and tests; the layers never read without writing. */
    long[] read(CounterKey key);

    /**
     * For a layer that decides on a count it does not write (the password-spray layer): the key's exact value, else
     * its realm's shared counter of its kind in its slot (its answer word marked {@link AdmissionAnswer#shared()}: every
     * sharer's count, so it only over-counts), else null. A read, sent with other changes without an extra wait.
     */
    default CompletableFuture<long[]> peek(CounterKey key) {
        try {
            return CompletableFuture.completedFuture(read(key));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Removes the key's entry. */
    void remove(CounterKey key);

    /** A bounded store's tables, by the names its metric gives them; {@link #shareUse} takes an index into it. */
    List<String> TABLES = StoreTable.NAMES;

    /**
     * How much of its fair share of table {@code table} ({@link #TABLES}) the realm tagged {@code realmTag} used at its
     * recent writes ({@link Slots#shareUse}: 1 is exactly its share of a full slot), sampled on writes, never by a scan;
     * NaN for a store that keeps no such figure.
     */
    default double shareUse(long realmTag, int table) {
        return Double.NaN;
    }
}
