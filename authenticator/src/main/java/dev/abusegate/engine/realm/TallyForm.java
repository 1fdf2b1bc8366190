package dev.abusegate.engine.realm;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A node's tally of one realm as it is published ({@link RealmTallies}) and read back: its buckets of failures and
 * its most recent networks, and the sums a tick takes over a window.
 */
final class TallyForm {

    private TallyForm() {
    }

    /*
     * A tally, as published: {FORMAT, n, n pairs (bucket index, count), then pairs (network tag, bucket index last seen)}.
     * The header is two words, so the bucket pairs stay where a reader of the older form (pairs from the start) finds
     * them, and it never takes a network pair for a bucket of its window (a tag is a random 64-bit number).
     */

    /** The first word of a tally in this form; a tally in any other form is not read. */
    static final long FORMAT = 0x7265616c_6d763200L; // "realmv2" and a zero byte

    private static boolean readable(long[] tally) {
        return tally != null && tally.length >= 2 && tally[0] == FORMAT && tally[1] >= 0 && 2 + 2 * tally[1] <= tally.length;
    }

    /** The first bucket of the window ending in the bucket of {@code now}. */
    static long firstBucket(long now, long windowMillis) {
        return Math.floorDiv(now, RealmWatch.BUCKET_MILLIS) - (windowMillis + RealmWatch.BUCKET_MILLIS - 1) / RealmWatch.BUCKET_MILLIS + 1;
    }

    /** The sum of a tally's buckets in the window ending in the bucket of {@code now} (0 for a tally it cannot read). */
    static long inWindow(long[] tally, long now, long windowMillis) {
        if (!readable(tally)) {
            return 0;
        }
        long current = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS);
        long first = firstBucket(now, windowMillis);
        long sum = 0;
        int end = 2 + 2 * (int) tally[1];
        for (int i = 2; i + 1 < end; i += 2) {
            if (tally[i] >= first && tally[i] <= current) {
                sum += tally[i + 1];
            }
        }
        return sum;
    }

    /**
     * The distinct networks of the tallies' failures in the window ending in the bucket of {@code now}, counted up to
     * {@code cap} (a count at the cap means at least that many).
     */
    static int networksInWindow(Collection<long[]> tallies, long now, long windowMillis, int cap) {
        long current = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS);
        long first = firstBucket(now, windowMillis);
        Set<Long> seen = new HashSet<>();
        for (long[] t : tallies) {
            if (!readable(t)) {
                continue;
            }
            for (int i = 2 + 2 * (int) t[1]; i + 1 < t.length; i += 2) {
                if (t[i + 1] >= first && t[i + 1] <= current && seen.add(t[i]) && seen.size() >= cap) {
                    return cap;
                }
            }
        }
        return seen.size();
    }

    /** A tally in the published form: {@code buckets} as (bucket index, count), {@code networks} as (tag, bucket). */
    static long[] encode(List<long[]> buckets, List<long[]> networks) {
        long[] tally = new long[2 + 2 * buckets.size() + 2 * networks.size()];
        tally[0] = FORMAT;
        tally[1] = buckets.size();
        int i = 2;
        for (long[] p : buckets) {
            tally[i++] = p[0];
            tally[i++] = p[1];
        }
        for (long[] n : networks) {
            tally[i++] = n[0];
            tally[i++] = n[1];
        }
        return tally;
    }
}
