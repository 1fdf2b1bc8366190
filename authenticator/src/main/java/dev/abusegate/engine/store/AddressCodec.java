package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * The codec of an address's entry ({@link AddressEntry}): layers 1 and 4, and in the same form the spray layer's
 * password buckets (distinct accounts per bucket). Never folded: one that gives way starts again.
 */
final class AddressCodec implements EntryCodec<AddressEntry> {

    static final AddressCodec INSTANCE = new AddressCodec(CounterKey.Kind.ADDRESS);
    /** Password buckets: the same entry, with a shared counter of their own kind. */
    static final AddressCodec BUCKETS = new AddressCodec(CounterKey.Kind.BUCKET);

    private final int sharedKind;

    private AddressCodec(CounterKey.Kind kind) {
        this.sharedKind = kind.ordinal();
    }

    @Override
    public AddressEntry read(long[] value) {
        return AddressEntry.of(value);
    }

    @Override
    public long[] write(AddressEntry entry, long answer) {
        return entry.encode(answer);
    }

    /** Seen once (one attempt, at most one identifier), and its last answer was neither the band nor a block. */
    @Override
    public boolean worthOneAttempt(long[] value, long now) {
        AddressEntry e = read(value);
        AdmissionAnswer a = AdmissionAnswer.of(value);
        return e.attempts(now) <= 1 && e.distinct(now) <= 1 && a.outcome().ordinal() < LayerOutcome.BAND.ordinal()
                && a.identifiers().ordinal() < LayerOutcome.BAND.ordinal();
    }

    @Override
    public int sharedKind() {
        return sharedKind;
    }

    /** Layers 1 and 4 capped: a shared count never blocks ({@link Answers#capped}). */
    @Override
    public long[] onShared(Change change, long[] v) {
        if (!(change instanceof Change.AdmitAddress admit)) {
            return EntryCodec.super.onShared(change, v);
        }
        int a = (int) v[0];
        LayerOutcome r1 = Answers.capped(LayerOutcome.of(a), admit.solved());
        LayerOutcome r4 = Answers.capped(LayerOutcome.of(a >>> 2), admit.solved());
        return Answers.answered(v, Answers.admission(r1, r4) | (a & Answers.COUNTED) | Answers.SHARED);
    }

    /** Each layer that is on asks for a captcha (a solved one passes). */
    @Override
    public long[] homeless(Change change, long[] v) {
        if (!(change instanceof Change.AdmitAddress admit)) {
            return onShared(change, v);
        }
        LayerOutcome r1 = Answers.homeless(LayerOutcome.of(v[0]), admit.solved());
        LayerOutcome r4 = Answers.homeless(LayerOutcome.of(v[0] >>> 2), admit.solved());
        return Answers.answered(v, Answers.admission(r1, r4) | Answers.SHARED);
    }
}
