package dev.abusegate.captcha;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the outgoing captcha verifications of one node: each client address may have at most {@code
 * budget} tokens sent to the vendor per window, and at most {@code maxConcurrent} verifications are in
 * flight at once. A wrong captcha answer counts against no layer, so without this a flood of bogus tokens
 * would turn into as many siteverify calls, each able to hold a worker thread for the HTTP timeout.
 *
 * <p>Node-local and bounded: at most {@code maxAddresses} addresses are tracked. When the table is full of
 * addresses whose windows are still open, a new address gets no verification: under a flood this fails
 * towards not calling the vendor, never towards unbounded calls or memory. Callers pair each {@link
 * #tryStart} that returned true with one {@link #finish()}.
 */
public final class VerificationBudget {

    private final int maxAddresses;
    private final long windowMillis;
    private final Semaphore inFlight;
    private final Map<String, long[]> byAddress = new ConcurrentHashMap<>();
    private final AtomicLong lastPurge = new AtomicLong();

    public VerificationBudget(int maxConcurrent, int maxAddresses, long windowMillis) {
        if (maxConcurrent < 1 || maxAddresses < 1 || windowMillis < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
        this.inFlight = new Semaphore(maxConcurrent);
        this.maxAddresses = maxAddresses;
        this.windowMillis = windowMillis;
    }

    /** Why a verification may not start, or that it may. */
    public enum Answer { GO, ADDRESS_BUDGET_SPENT, TOO_MANY_ADDRESSES, TOO_MANY_IN_FLIGHT }

    /**
     * Takes one verification from {@code address}'s budget and one in-flight slot. On {@link Answer#GO}
     * the caller must call {@link #finish()} when the verification is over; on any other answer nothing is
     * held and the token must not be sent.
     */
    public Answer tryStart(String address, int budget, long nowMillis) {
        String key = address == null ? "" : address;
        if (!byAddress.containsKey(key) && byAddress.size() >= maxAddresses) {
            purge(nowMillis);
            if (byAddress.size() >= maxAddresses) {
                return Answer.TOO_MANY_ADDRESSES;
            }
        }
        boolean[] granted = new boolean[1];
        byAddress.compute(key, (k, w) -> {
            // w[0]: when the window started, w[1]: verifications taken in it
            if (w == null || nowMillis - w[0] >= windowMillis) {
                w = new long[] {nowMillis, 0};
            }
            if (w[1] < budget) {
                w[1]++;
                granted[0] = true;
            }
            return w;
        });
        if (!granted[0]) {
            return Answer.ADDRESS_BUDGET_SPENT;
        }
        if (!inFlight.tryAcquire()) {
            byAddress.computeIfPresent(key, (k, w) -> {
                w[1] = Math.max(0, w[1] - 1); // not sent: give the address its verification back
                return w;
            });
            return Answer.TOO_MANY_IN_FLIGHT;
        }
        return Answer.GO;
    }

    /** Ends a verification that {@link #tryStart} let start. */
    public void finish() {
        inFlight.release();
    }

    /** Drops the addresses whose window is over; at most once a second, so a full table costs little. */
    private void purge(long nowMillis) {
        long last = lastPurge.get();
        if (nowMillis - last < 1_000 || !lastPurge.compareAndSet(last, nowMillis)) {
            return;
        }
        for (Iterator<long[]> it = byAddress.values().iterator(); it.hasNext(); ) {
            long[] w = it.next();
            if (nowMillis - w[0] >= windowMillis) {
                it.remove();
            }
        }
    }
}
