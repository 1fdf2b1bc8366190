package dev.abusegate.engine.store;

/**
 * One change to one subject's entry, as a store applies it atomically ({@link CounterStore#apply}): one type per
 * operation, with named fields. A change is a pure function of the stored value and its own fields (its time
 * included: nothing reads a clock), so every copy of an entry that applies it ends equal. In a cluster the change
 * runs where the entry lives; it travels as {@link StoreCodec#encode}'s words, which the store carries without
 * reading them.
 */
public sealed interface Change permits Change.AdmitAddress, Change.UndoAddress, Change.AdmitPair, Change.UndoPair,
        Change.Reserve, Change.Settle, Change.Lock, Change.MarkUsed {

    /** The change's time, in milliseconds on the gate's clock. */
    long now();

    /**
     * The entry's value after this change: {@code old} is the stored value (null: none), {@code create} whether the
     * change may start an entry where there is none. Null: no entry left. The function of the entry's kind that
     * reads and writes its words ({@link AddressEntry}, {@link PairEntry}, {@link LockoutEntry}, {@link UsedEntry}).
     */
    long[] next(boolean create, long[] old);

    /** Whether the change settles a layer-3 reservation taken on a shared counter (it is settled there). */
    default boolean settlesShared() {
        return this instanceof Settle settle && settle.shared();
    }

    /** Layer 3: how a reservation ends ({@link GiveBack}, {@link Fail}, {@link Succeed}). */
    sealed interface Settle extends Change permits GiveBack, Fail, Succeed {
        /** Whether the reservation was taken on a shared counter, where it is settled. */
        boolean shared();
    }

    /**
     * Layers 1 and 4 of an address ({@link AddressEntry}): counted together, or (in the captcha band without a
     * solved captcha) not at all. {@code member} is the attempt's identifier tag.
     */
    record AdmitAddress(long now, boolean solved, Limit perIp, Limit identifiers, long member) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return AddressEntry.admit(this, create, old);
        }
    }

    /**
     * Gives back what an {@link AdmitAddress} counted: one attempt ({@code attempt}), the identifier it added
     * ({@code removeMember}). The expiries are those the admission set: while nothing wrote after it, the ones
     * before it come back.
     */
    record UndoAddress(long now, Given given, long attemptsExpiry, long idsExpiry) implements Change {

        /** What the admission counted: an attempt, and the identifier {@code member} when it added it. */
        public record Given(boolean attempt, boolean removeMember, long member) {
        }

        public boolean attempt() {
            return given.attempt();
        }

        public boolean removeMember() {
            return given.removeMember();
        }

        public long member() {
            return given.member();
        }

        @Override
        public long[] next(boolean create, long[] old) {
            return AddressEntry.undo(this, old);
        }
    }

    /** Layer 2 of a pair ({@link PairEntry}). */
    record AdmitPair(long now, boolean solved, Limit limit) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return PairEntry.admit(this, create, old);
        }
    }

    /** Gives back what an {@link AdmitPair} counted; {@code expiry} is the one it set. */
    record UndoPair(long now, long expiry) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return PairEntry.undo(this, old);
        }
    }

    /** Layer 3: takes a reservation on an identifier's budget ({@link LockoutEntry}). */
    record Reserve(long now, boolean solved, Limit limit) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return LockoutEntry.reserve(this, create, old);
        }
    }

    /** Layer 3: a reservation given back, no password checked. */
    record GiveBack(long now, boolean shared) implements Settle {
        @Override
        public long[] next(boolean create, long[] old) {
            return LockoutEntry.giveBack(this, old);
        }
    }

    /**
     * Layer 3: a wrong password. {@code reserved} confirms this attempt's own reservation; false records the
     * failure on another login name of the same account. {@code passwordTag} (0: unknown) is remembered when
     * {@code rememberTypos}, so that the same wrong password does not count twice. {@code progressiveFactor} above 1
     * makes each lock in a run longer, up to {@code lockMaxMillis}.
     */
    record Fail(long now, LockRule rule, long passwordTag, Counted counted) implements Settle {

        /** Layer 3's rule: how many failures in what window lock, for how long, and how a run of locks grows. */
        public record LockRule(long threshold, long windowMillis, long lockBaseMillis, double progressiveFactor,
                               long lockMaxMillis) {
        }

        /** How this failure counts: its typo remembered, confirming its own reservation, on a shared counter. */
        public record Counted(boolean rememberTypos, boolean reserved, boolean shared) {
        }

        public long threshold() {
            return rule.threshold();
        }

        public long windowMillis() {
            return rule.windowMillis();
        }

        public long lockBaseMillis() {
            return rule.lockBaseMillis();
        }

        public double progressiveFactor() {
            return rule.progressiveFactor();
        }

        public long lockMaxMillis() {
            return rule.lockMaxMillis();
        }

        public boolean rememberTypos() {
            return counted.rememberTypos();
        }

        public boolean reserved() {
            return counted.reserved();
        }

        public boolean shared() {
            return counted.shared();
        }

        @Override
        public long[] next(boolean create, long[] old) {
            return LockoutEntry.fail(this, create, old);
        }
    }

    /**
     * Layer 3: a right password. Confirmed failures go, with the reservation when {@code reserved}; {@code clearRun}
     * ends the run of locks. On a shared counter only the reservation goes.
     */
    record Succeed(long now, boolean reserved, boolean clearRun, boolean shared) implements Settle {
        @Override
        public long[] next(boolean create, long[] old) {
            return LockoutEntry.succeed(this, old);
        }
    }

    /** Layer 3: locked until {@code until} (another login name of the account was locked). */
    record Lock(long now, long until) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return LockoutEntry.lock(this, create, old);
        }
    }

    /** The first use of a captcha solution, remembered until {@code expiry} ({@link UsedEntry}). */
    record MarkUsed(long now, long expiry) implements Change {
        @Override
        public long[] next(boolean create, long[] old) {
            return UsedEntry.markUsed(this, create, old);
        }
    }
}
