package dev.abusegate.engine.spray;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.store.AddressEntry;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.Limit;
import java.util.concurrent.CompletableFuture;

/**
 * The password-spray layer: per realm, the distinct accounts each password bucket ({@link PasswordBuckets}) failed for
 * in the window. It keeps its counts in address entries ({@link AddressEntry}'s distinct identifiers, as layer 4 does
 * for an address), one per realm and bucket ({@link AttemptKeys#passwordBucket}), in a table of the store's own
 * ({@code StoreTable.SPRAY}): a flood of distinct buckets fills that table alone, and each realm keeps its share of
 * it.
 *
 * <ul>
 *   <li>Admission ({@link #probe}): before the hash, the bucket's count is read (sent with the gate's first changes,
 *       so no extra wait); at or past the threshold the attempt needs a solved captcha. It never blocks, since a real
 *       user's password can share a bucket.</li>
 *   <li>Settlement ({@link #failed}): a failed password check adds the account to its bucket: written only on the path
 *       that already paid a hash and writes a failure, so that nobody holds a bucket's state for free.</li>
 * </ul>
 * A store at its bound counts a bucket that finds no room on the realm's shared counter of its slot, and the probe
 * then reads that counter (every sharer's count: it only over-counts, toward a captcha).
 */
public final class SprayLayer {

    private final CounterStore store;
    private final PasswordBuckets buckets = new PasswordBuckets();

    public SprayLayer(CounterStore store) {
        this.store = store;
    }

    /** The realm's password buckets (one HMAC per attempt). */
    public PasswordBuckets buckets() {
        return buckets;
    }

    /** Whether the layer is on in a realm's options. */
    public static boolean on(GateOptions options) {
        return options.policy(Layer.PASSWORD_SPRAY).enabled();
    }

    /** The layer's policy when it applies to a bucket, else null (off, or no bucket). */
    public static LayerPolicy active(GateOptions options, long bucket) {
        return bucket == PasswordBuckets.NONE || !on(options) ? null : options.policy(Layer.PASSWORD_SPRAY);
    }

    /** Starts reading the bucket's count; null when the layer does not apply (off, or no bucket). */
    public Probe probe(GateOptions options, AttemptKeys keys, long bucket, long now) {
        LayerPolicy p = active(options, bucket);
        if (p == null) {
            return null;
        }
        CompletableFuture<long[]> read;
        try {
            read = store.peek(keys.passwordBucket(bucket));
        } catch (RuntimeException e) {
            read = CompletableFuture.failedFuture(e);
        }
        return new Probe(p, read, now);
    }

    /**
     * A failed password check: the account ({@code keys}' identifier) is added to the bucket's distinct accounts.
     * Null when the layer does not apply.
     */
    public CompletableFuture<long[]> failed(GateOptions options, AttemptKeys keys, long bucket, long now) {
        LayerPolicy p = active(options, bucket);
        if (p == null) {
            return null;
        }
        try {
            return store.apply(keys.passwordBucket(bucket),
                    new Change.AdmitAddress(now, true, Limit.OFF, new Limit(p.threshold(), Long.MAX_VALUE, p.windowMillis()), keys.member()),
                    p.windowMillis());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Whether a bucket's value holds its threshold of distinct accounts as of {@code now}. */
    static boolean atThreshold(long[] value, LayerPolicy p, long now) {
        return value != null && AddressEntry.of(value).distinct(now) >= p.threshold();
    }

    /** One attempt's read of its bucket, answered once. */
    public static final class Probe {
        private final LayerPolicy policy;
        private final CompletableFuture<long[]> read;
        private final long now;
        private RuntimeException failure;
        private boolean shared;

        Probe(LayerPolicy policy, CompletableFuture<long[]> read, long now) {
            this.policy = policy;
            this.read = read;
            this.now = now;
        }

        /** The layer's policy as the attempt applies it. */
        public LayerPolicy policy() {
            return policy;
        }

        /**
         * Whether the attempt needs a solved captcha: its bucket is at or past the threshold, or the store failed and
         * the layer fails closed ({@link #failure()}).
         */
        public boolean sprayed() {
            long[] v;
            try {
                v = read.join();
            } catch (RuntimeException e) {
                failure = e;
                return policy.failureMode() == FailureMode.FAIL_CLOSED;
            }
            shared = v != null && AdmissionAnswer.of(v).shared();
            return atThreshold(v, policy, now);
        }

        /** The store's failure when {@link #sprayed()} could not read the count, else null. */
        public RuntimeException failure() {
            return failure;
        }

        /** Whether {@link #sprayed()} read the realm's shared counter (the store at its bound). */
        public boolean shared() {
            return shared;
        }
    }
}
