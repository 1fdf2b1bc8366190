package dev.abusegate.engine.realm;

import dev.abusegate.engine.TimeSource;
import dev.abusegate.engine.config.GateOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The fifth, realm-wide layer, "realm under attack": it counts each realm's failed password checks (unknown
 * usernames included) of attempts the four per-subject layers let through, and the distinct networks they came from
 * (an IPv4 /24, an IPv6 /48, as keyed tags). An attempt it turns away for want of a captcha is not counted: only a
 * checked password counts, so that one sender can neither switch the realm on nor hold it for free.
 *
 * <p>A failure pays a {@link LongAdder} increment into this node's tally (per realm, per bucket of {@value
 * #BUCKET_MILLIS} ms) and an update of the realm's few most recent networks (at most {@code realm.minNetworks} of
 * them); a login pays a volatile read of the realm's state. Everything else happens in {@link #tick()}, which
 * the owner runs once a second off the login path: it publishes this node's tally (one key per realm and node, see
 * {@link RealmTallies}), reads the other nodes', sums the buckets of the window, counts the distinct networks in it
 * and decides:
 * <ul>
 *   <li>the entry level is {@code realm.threshold}, or, with {@code realm.baselineMultiple} above 0, that multiple
 *       of the realm's baseline when it is higher (the baseline: the window's count, averaged with a time constant of
 *       an hour, learned only while not under attack);</li>
 *   <li>the realm enters when the window's count reaches the entry level and its failures came from at least
 *       {@code realm.minNetworks} distinct networks; it leaves when the count falls below half of the level it entered at
 *       (so it does not flap), or when the window's failures come from fewer networks than that (so that one address,
 *       or one network, holds nothing).</li>
 * </ul>
 * The networks are exact up to {@code realm.minNetworks}: each node keeps the most recent that many distinct networks
 * of its failures with the bucket each was last seen in (so a node that saw that many in the window has them all in
 * the window, and one that saw fewer has all of those), and the tick counts the distinct ones in the window over the
 * nodes' lists. A realm's memory is its buckets and that list, whatever is sent to it.
 * Entering does not wait for the next tick once the crowd is there: a tick that found the networks leaves the realm
 * the headroom its count had to the entry level, and the failure on this node that uses it up enters the realm on
 * this node at once (one atomic decrement per failure; the one failure that reaches zero records the change, as the
 * tick would). An attack on this node alone is met with the failure that reaches the level, not up to a tick later;
 * the other nodes' failures since the tick count at the next one.
 * A realm with the layer off shares and keeps nothing. A tally that cannot be published or read fails open: the realm is decided on what this node has, and the failure
 * is reported to the owner; a tick never throws.
 */
public final class RealmWatch {

    /** The granularity of the window. */
    public static final long BUCKET_MILLIS = 10_000;
    /** How often the owner should run {@link #tick()}. */
    public static final long TICK_MILLIS = 1_000;
    /** The time constant of the baseline. */
    static final long BASELINE_MILLIS = 3_600_000;
    /** Buckets kept: the longest window's, plus the one being filled. */
    private static final long KEPT_BUCKETS = (long) RealmSettings.WINDOW_SECONDS.max() * 1000 / BUCKET_MILLIS + 1;

    /**
     * The most changes of a realm's state held for {@link #takeChange} (even, so that the ones held still start with
     * the right kind): when more are unreported, the oldest are no longer reported.
     */
    public static final int MAX_PENDING_CHANGES = 8;

    /** A change of a realm's state, reported once to whoever takes it (see {@link #takeChange}). */
    public enum Change { ENTERED, LEFT }

    /**
     * What this node holds about a realm.
     *
     * @param enabled     the layer is on for the realm (as of the last attempt decided in it)
     * @param underAttack the realm is under attack
     * @param count       the window's count at the last tick, summed over the nodes, plus this node's failures since
     * @param networks    the distinct networks of the window's failures at the last tick, counted up to {@code
     *                    realm.minNetworks}
     * @param entryLevel  the count at which it enters now; while under attack, the level it entered at
     * @param baseline    the learned baseline (a count per window)
     * @param sinceMillis when the state last changed (0: never on this node)
     */
    public record State(boolean enabled, boolean underAttack, long count, int networks, long entryLevel, double baseline,
                        long sinceMillis) {
    }

    private final RealmTallies tallies;
    private final TimeSource clock;
    private final Consumer<RuntimeException> onTallyFailure;
    private final Map<String, Realm> realms = new ConcurrentHashMap<>();

    /** {@code onTallyFailure} hears of a tally that could not be published or read (the tick failed open). */
    public RealmWatch(RealmTallies tallies, TimeSource clock, Consumer<RuntimeException> onTallyFailure) {
        this.tallies = Objects.requireNonNull(tallies, "tallies");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.onTallyFailure = onTallyFailure == null ? e -> { } : onTallyFailure;
    }

    /**
     * Counts one failed password check in the realm, from the network {@code network} (its keyed tag, see {@code
     * GateKeys.Keys#crowdNetwork}); {@code minNetworks} is the realm's {@code realm.minNetworks} (how many recent
     * networks it keeps).
     */
    public void failed(String realm, long network, int minNetworks) {
        realm(realm).count(clock.millis(), network, minNetworks);
    }

    /**
     * Whether the realm is under attack for an attempt decided with {@code options} (which become the realm's
     * settings for the next tick). Never throws; costs two map reads.
     */
    public boolean underAttack(String realm, GateOptions options) {
        Realm r = realm(realm);
        if (r.options != options) {
            r.options = options;
        }
        return r.on() && options.get(RealmSettings.ENABLED);
    }

    /** Whether the realm is under attack on this node. */
    public boolean underAttack(String realm) {
        Realm r = realms.get(realm);
        return r != null && r.on();
    }

    /**
     * The realm's oldest change of state on this node not yet taken, or null: each change is taken once, by one
     * caller, and the changes in the order they happened (a realm that entered and left between two calls gives
     * {@link Change#ENTERED}, then {@link Change#LEFT}, then null). Call it until it gives null. At most {@value
     * #MAX_PENDING_CHANGES} changes are held: of a longer run of changes nobody took (a node that sees a realm flap
     * on the other nodes' counts with no login of its own), only the last {@value #MAX_PENDING_CHANGES} are given.
     * Holds no memory per change: the changes alternate, starting with {@link Change#ENTERED}, so their number says
     * which each is.
     */
    public Change takeChange(String realm) {
        Realm r = realms.get(realm);
        if (r == null) {
            return null;
        }
        for (;;) {
            long made = r.changes;
            long taken = r.taken.get();
            if (taken >= made) {
                return null;
            }
            long next = Math.max(taken, made - MAX_PENDING_CHANGES) + 1; // the n-th change (from 1): ENTERED when odd
            if (r.taken.compareAndSet(taken, next)) {
                return (next & 1) == 1 ? Change.ENTERED : Change.LEFT;
            }
        }
    }

    /** What this node holds about the realm. */
    public State state(String realm) {
        Realm r = realms.get(realm);
        if (r == null) {
            return new State(false, false, 0, 0, 0, 0, 0);
        }
        GateOptions o = r.options;
        boolean decided = r.on;
        // the tick's count plus this node's failures since
        return new State(o != null && o.get(RealmSettings.ENABLED), r.on(), r.count + r.sinceTick.sum(), r.networkCount,
                decided ? r.entryLevel : entryLevel(o, r.baseline), r.baseline, r.since);
    }

    /** Publishes, reads and decides every realm this node knows. Run once a second; never throws. */
    public void tick() {
        long now = clock.millis();
        for (Map.Entry<String, Realm> e : realms.entrySet()) {
            try {
                e.getValue().sync(e.getKey(), now);
            } catch (RuntimeException ex) {
                onTallyFailure.accept(ex);
            }
        }
    }

    private Realm realm(String realm) {
        Realm r = realms.get(realm);
        return r != null ? r : realms.computeIfAbsent(realm, k -> new Realm());
    }

    static long entryLevel(GateOptions o, double baseline) {
        if (o == null) {
            return Long.MAX_VALUE;
        }
        long level = o.get(RealmSettings.THRESHOLD);
        double multiple = o.get(RealmSettings.BASELINE_MULTIPLE);
        return multiple > 0 ? Math.max(level, (long) Math.ceil(multiple * baseline)) : level;
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
    private static long firstBucket(long now, long windowMillis) {
        return Math.floorDiv(now, BUCKET_MILLIS) - (windowMillis + BUCKET_MILLIS - 1) / BUCKET_MILLIS + 1;
    }

    /** The sum of a tally's buckets in the window ending in the bucket of {@code now} (0 for a tally it cannot read). */
    static long inWindow(long[] tally, long now, long windowMillis) {
        if (!readable(tally)) {
            return 0;
        }
        long current = Math.floorDiv(now, BUCKET_MILLIS);
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
        long current = Math.floorDiv(now, BUCKET_MILLIS);
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

    /**
     * One realm on this node. Its decision fields are written under its lock: by the tick, and by the one failure that
     * uses the headroom up.
     */
    private final class Realm {
        private final Map<Long, LongAdder> buckets = new ConcurrentHashMap<>();
        /**
         * This node's most recent distinct networks of failures, each with the bucket it was last seen in, the least
         * recent first; at most {@code realm.minNetworks} (as of the failure that last added one). Under its own lock.
         */
        private final LinkedHashMap<Long, Long> networks = new LinkedHashMap<>(16, 0.75f, true);
        /** The distinct networks in the window at the last tick (up to the realm's minNetworks). */
        private volatile int networkCount;
        /** Changes of state made (under the lock) and taken (by {@link #takeChange}). */
        private volatile long changes;
        private final AtomicLong taken = new AtomicLong();
        private volatile GateOptions options;
        private volatile boolean on;
        /**
         * The failures this node may still count before the realm enters: the headroom the last tick found, less each
         * failure counted since. {@link Long#MAX_VALUE} until a tick has decided the realm with the layer on, and
         * while it is on.
         */
        private final AtomicLong untilEntry = new AtomicLong(Long.MAX_VALUE);
        /** The entry level the last tick's headroom was measured to ({@link Long#MAX_VALUE}: none). */
        private volatile long headroomLevel = Long.MAX_VALUE;
        /** This node's failures since the last tick's snapshot (for the state's count between ticks). */
        private final LongAdder sinceTick = new LongAdder();
        /** Counted since the last publish; read and cleared at once, so that a count made meanwhile keeps it set. */
        private final AtomicBoolean dirty = new AtomicBoolean();
        private volatile long count;
        private volatile long entryLevel;
        private volatile double baseline;
        private volatile long since;
        private long learnedAt;

        void count(long now, long network, int minNetworks) {
            Long bucket = Math.floorDiv(now, BUCKET_MILLIS);
            int cap = Math.max(1, Math.min(minNetworks, (int) RealmSettings.MIN_NETWORKS.max()));
            synchronized (networks) {
                networks.put(network, bucket); // to the most recent end, with its newest bucket
                for (Iterator<Long> it = networks.keySet().iterator(); networks.size() > cap; ) {
                    it.next();
                    it.remove(); // the least recent
                }
            }
            LongAdder a = buckets.get(bucket);
            if (a == null) {
                a = buckets.computeIfAbsent(bucket, b -> new LongAdder());
            }
            a.increment();
            sinceTick.increment();
            dirty.set(true);
            if (untilEntry.decrementAndGet() == 0) {
                enterNow(now); // this failure used the headroom up: exactly one failure sees zero
            }
        }

        /** Enters on this node's own count, between ticks (unless a tick has just entered or reset the headroom). */
        private synchronized void enterNow(long now) {
            if (on || untilEntry.get() > 0 || headroomLevel == Long.MAX_VALUE) {
                return;
            }
            enter(headroomLevel, now);
        }

        private void enter(long level, long now) {
            entryLevel = level;
            on = true; // before the headroom is reset, so that on() never reads false in between
            untilEntry.set(Long.MAX_VALUE);
            headroomLevel = Long.MAX_VALUE;
            since = now;
            changes++; // under the lock: the tick and enterNow are the only writers
        }

        /**
         * Under attack: as decided, or by this node's own count in the instant before the failure that used the
         * headroom up has recorded it.
         */
        boolean on() {
            return on || untilEntry.get() <= 0;
        }

        /** Drops the buckets older than any window (a count that lands in one meanwhile is outside every window). */
        void prune(long now) {
            long oldest = Math.floorDiv(now, BUCKET_MILLIS) - KEPT_BUCKETS;
            buckets.keySet().removeIf(b -> b < oldest);
        }

        /** This node's tally in the published form (see {@link #FORMAT}). */
        long[] snapshot(long now) {
            prune(now);
            long oldest = Math.floorDiv(now, BUCKET_MILLIS) - KEPT_BUCKETS;
            List<long[]> pairs = new ArrayList<>();
            buckets.forEach((b, a) -> pairs.add(new long[] {b, a.sum()}));
            List<long[]> nets = new ArrayList<>();
            synchronized (networks) {
                networks.values().removeIf(b -> b < oldest);
                networks.forEach((tag, b) -> nets.add(new long[] {tag, b}));
            }
            long[] tally = new long[2 + 2 * pairs.size() + 2 * nets.size()];
            tally[0] = FORMAT;
            tally[1] = pairs.size();
            int i = 2;
            for (long[] p : pairs) {
                tally[i++] = p[0];
                tally[i++] = p[1];
            }
            for (long[] n : nets) {
                tally[i++] = n[0];
                tally[i++] = n[1];
            }
            return tally;
        }

        void sync(String realm, long now) {
            GateOptions o = options;
            if (o == null) {
                // no attempt has been decided in the realm yet (the realm was only counted, or its first attempt is
                // being decided right now and counts in a moment): nothing to decide, and nothing to clear, since a
                // clear here could drop the first attempt's count made between this read and the clear
                prune(now);
                return;
            }
            if (!o.get(RealmSettings.ENABLED)) {
                disable(now);
                return;
            }
            // read and cleared at once, before the snapshot: a failure counted before it is in the snapshot (its
            // increment precedes its mark), one counted after it marks the tally for the next tick. (Read, then
            // cleared, a mark set between the two was lost: its count was in the snapshot but never published, and
            // the other nodes lacked it for good.)
            long seen = changes; // a change made after this point (a failure entering) voids this tick's decision
            boolean changed = dirty.getAndSet(false);
            sinceTick.reset(); // before the snapshot: a failure in between is in both until the next tick (the state only)
            long[] own = snapshot(now);
            if (changed) {
                try {
                    tallies.publish(realm, own);
                } catch (RuntimeException e) {
                    dirty.set(true); // published again on the next tick
                    onTallyFailure.accept(e);
                }
            }
            Collection<long[]> others;
            try {
                others = tallies.others(realm);
            } catch (RuntimeException e) {
                others = List.of(); // fail open: this node's own count decides
                onTallyFailure.accept(e);
            }
            long window = o.get(RealmSettings.WINDOW_SECONDS) * 1000;
            long sum = inWindow(own, now, window);
            for (long[] t : others) {
                sum += inWindow(t, now, window);
            }
            List<long[]> all = new ArrayList<>(others.size() + 1);
            all.add(own);
            all.addAll(others);
            int minNetworks = o.get(RealmSettings.MIN_NETWORKS);
            int nets = networksInWindow(all, now, window, minNetworks);
            count = sum;
            networkCount = nets;
            decide(o, sum, nets >= minNetworks, now, seen);
        }

        /** Off for the realm: nothing is shared and nothing kept (the count starts afresh when it is turned on). */
        private synchronized void disable(long now) {
            buckets.clear();
            synchronized (networks) {
                networks.clear();
            }
            dirty.set(false);
            count = 0;
            networkCount = 0;
            sinceTick.reset();
            untilEntry.set(Long.MAX_VALUE);
            headroomLevel = Long.MAX_VALUE;
            if (on) {
                leave(now);
            }
        }

        /**
         * Decides on {@code sum} and whether its failures came from a {@code crowd} (at least {@code realm.minNetworks}
         * networks), counted after the realm had made {@code seen} changes. If a failure has entered the realm since
         * (between this tick's snapshot and now), the sum predates that entry and may be below half its level: nothing is
         * decided on it (the next tick decides on a fresh count).
         */
        private synchronized void decide(GateOptions o, long sum, boolean crowd, long now, long seen) {
            if (changes != seen) {
                return;
            }
            if (on) {
                if (sum * 2 < entryLevel || !crowd) {
                    leave(now);
                }
                return;
            }
            long level = entryLevel(o, baseline);
            if (!crowd) {
                // too few networks: nothing enters, not this tick and not a failure before the next one
                headroomLevel = Long.MAX_VALUE;
                untilEntry.set(Long.MAX_VALUE);
            }
            while (crowd) {
                long left = untilEntry.get();
                // left <= 0: this node's own failures reached the level since the last tick (the count did reach it,
                // even if older buckets have left the window since)
                if (sum >= level || left <= 0) {
                    enter(level, now);
                    return;
                }
                // the headroom to the level; a failure counted after the snapshot and before this write is not taken
                // off it (it is in the next tick's count), which can only make the entry later, never earlier
                headroomLevel = level; // before the headroom: the failure that uses it up reads the level
                if (untilEntry.compareAndSet(left, level - sum)) {
                    break;
                }
            }
            long dt = learnedAt == 0 ? 0 : Math.max(0, now - learnedAt);
            learnedAt = now;
            baseline += (sum - baseline) * Math.min(1.0, (double) dt / BASELINE_MILLIS);
        }

        private void leave(long now) {
            untilEntry.set(Long.MAX_VALUE); // the next tick gives the headroom again
            headroomLevel = Long.MAX_VALUE;
            on = false;
            since = now;
            learnedAt = now;
            changes++;
        }
    }
}
