package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * The codec of an account's or a device's layer-3 entry ({@link LockoutEntry}). A failure count, a lock or a device
 * budget is worth more than one attempt: never replaced, folded into its realm's shared counter instead.
 */
final class LockoutCodec implements EntryCodec<LockoutEntry> {

    static final LockoutCodec INSTANCE = new LockoutCodec();

    @Override
    public LockoutEntry read(long[] value) {
        return LockoutEntry.of(value);
    }

    @Override
    public long[] write(LockoutEntry entry, long answer) {
        return entry.encode(answer);
    }

    @Override
    public long[] merge(long[] a, long[] b, long now) {
        return LockoutEntry.merge(a, b, now);
    }

    /** Accounts and devices of a realm share one counter (the same value, so they fold together). */
    @Override
    public int sharedKind() {
        return CounterKey.Kind.ACCOUNT.ordinal();
    }

    /**
     * A shared lockout count blocks where an exact one would (locked, or its budget taken), solved captcha or not;
     * a failure on it is never anybody's own lock.
     */
    @Override
    public long[] onShared(Change change, long[] v) {
        boolean lock = change instanceof Change.Fail && (int) v[0] == FailureOutcome.LOCKED.ordinal();
        return lock ? Answers.answered(v, FailureOutcome.COUNTED.ordinal() | Answers.SHARED) : EntryCodec.super.onShared(change, v);
    }

    /** A reservation that found no place is refused. */
    @Override
    public long[] homeless(Change change, long[] v) {
        return change instanceof Change.Reserve ? Answers.answered(v, LayerOutcome.BLOCKED.bits() | Answers.SHARED)
                : onShared(change, v);
    }
}
