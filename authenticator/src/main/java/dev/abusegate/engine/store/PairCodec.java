package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/** The codec of a pair's entry ({@link PairEntry}): layer 2. Never folded: one that gives way starts again. */
final class PairCodec implements EntryCodec<PairEntry> {

    static final PairCodec INSTANCE = new PairCodec();

    @Override
    public PairEntry read(long[] value) {
        return PairEntry.of(value);
    }

    @Override
    public long[] write(PairEntry entry, long answer) {
        return entry.encode(answer);
    }

    /** Seen once, and its last answer was neither the band nor a block. */
    @Override
    public boolean worthOneAttempt(long[] value, long now) {
        return read(value).attempts(now) <= 1 && AdmissionAnswer.of(value).outcome().ordinal() < LayerOutcome.BAND.ordinal();
    }

    @Override
    public int sharedKind() {
        return CounterKey.Kind.PAIR.ordinal();
    }

    /** Layer 2 capped, or (homeless) a captcha asked for: a shared count never blocks. */
    @Override
    public long[] onShared(Change change, long[] v) {
        return change instanceof Change.AdmitPair admit
                ? Answers.answered(v, Answers.capped(LayerOutcome.of(v[0]), admit.solved()).bits() | Answers.SHARED)
                : EntryCodec.super.onShared(change, v);
    }

    @Override
    public long[] homeless(Change change, long[] v) {
        return change instanceof Change.AdmitPair admit
                ? Answers.answered(v, (admit.solved() ? LayerOutcome.COUNTED : LayerOutcome.BAND).bits() | Answers.SHARED)
                : onShared(change, v);
    }
}
