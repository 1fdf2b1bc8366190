package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * The codec of a used captcha solution's record ({@link UsedEntry}), its two words {@code [firstUse, expiry]}:
 * never replaced, never folded, never on a shared counter.
 */
final class UsedCodec implements EntryCodec<long[]> {

    static final UsedCodec INSTANCE = new UsedCodec();

    @Override
    public long[] read(long[] value) {
        return value == null ? new long[] {0, 0} : value.clone();
    }

    @Override
    public long[] write(long[] entry, long answer) {
        return new long[] {answer, entry[1]};
    }

    @Override
    public int sharedKind() {
        return CounterKey.Kind.USED.ordinal();
    }
}
