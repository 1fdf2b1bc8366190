package dev.abusegate.engine.store;

/**
 * A used captcha solution ({@link dev.abusegate.engine.keys.CounterKey.Kind#USED}), remembered until it expires.
 * Stored as {@code [firstUse, expiry]}.
 */
public final class UsedEntry {

    private UsedEntry() {
    }

    /** Whether the {@link Change.MarkUsed} that handed back {@code value} was the solution's first use. */
    public static boolean firstUse(long[] value) {
        return value != null && value[0] == 1;
    }

    /** Whether a stored record still holds the solution as used at {@code now}. */
    public static boolean live(long[] value, long now) {
        return value != null && value.length > 1 && value[1] > now;
    }

    static long[] markUsed(Change.MarkUsed c, boolean create, long[] old) {
        if (old != null && old[1] > c.now()) {
            return new long[] {0, old[1]};
        }
        return create ? new long[] {1, c.expiry()} : null;
    }
}
