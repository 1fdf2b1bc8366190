package dev.abusegate.engine.realm;

import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.config.GateOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * One realm on this node, for {@link RealmWatch}. Its decision fields are written under its lock: by the tick, and
 * by the one failure that uses the headroom up.
 */
final class RealmCount {

    /** Buckets kept: the longest window's, plus the one being filled. */
    private static final long KEPT_BUCKETS = (long) RealmSettings.WINDOW_SECONDS.max() * 1000 / RealmWatch.BUCKET_MILLIS + 1;

    private final RealmTallies tallies;
    private final Consumer<RuntimeException> onTallyFailure;

    RealmCount(RealmTallies tallies, Consumer<RuntimeException> onTallyFailure) {
        this.tallies = tallies;
        this.onTallyFailure = onTallyFailure;
    }

    private final Map<Long, LongAdder> buckets = new ConcurrentHashMap<>();
    /**
     * This node's most recent distinct networks of failures, each with the bucket it was last seen in, the least
     * recent first; at most {@code realm.minNetworks} (as of the failure that last added one). Under its own lock.
     */
    private final LinkedHashMap<Long, Long> networks = new LinkedHashMap<>(16, 0.75f, true);
    /** The distinct networks in the window at the last tick (up to the realm's minNetworks). */
    volatile int networkCount;
    /** Changes of state made (under the lock) and taken (by {@link RealmWatch#takeChange}). */
    volatile long changes;
    final AtomicLong taken = new AtomicLong();
    volatile GateOptions options;
    volatile boolean on;
    /**
     * The failures this node may still count before the realm enters: the headroom the last tick found, less each
     * failure counted since. {@link Long#MAX_VALUE} until a tick has decided the realm with the layer on, and
     * while it is on.
     */
    private final AtomicLong untilEntry = new AtomicLong(Long.MAX_VALUE);
    /** The entry level the last tick's headroom was measured to ({@link Long#MAX_VALUE}: none). */
    private volatile long headroomLevel = Long.MAX_VALUE;
    /** This node's failures since the last tick's snapshot (for the state's count between ticks). */
    final LongAdder sinceTick = new LongAdder();
    /** Counted since the last publish; read and cleared at once, so that a count made meanwhile keeps it set. */
    private final AtomicBoolean dirty = new AtomicBoolean();
    volatile long count;
    volatile long entryLevel;
    volatile double baseline;
    volatile long since;
    private long learnedAt;

    void count(long now, long network, int minNetworks) {
        Long bucket = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS);
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
        } else if (headroomLevel == Long.MAX_VALUE && !on) {
            enterOnOwnCount(now, cap); // no tick has found the crowd yet: this node's own count may
        }
    }

    /**
     * Enters on this node's own count and networks alone, before a tick has found the crowd: when this node's
     * failures in the window reach the entry level and came from at least {@code realm.minNetworks} of its recent
     * networks. Its count is part of the realm's, so this enters no sooner than the tick would, only without waiting
     * for it. Costs a sum over the kept buckets, paid only by a failure (a password check) of a realm not yet decided.
     */
    private void enterOnOwnCount(long now, int minNetworks) {
        GateOptions o = options;
        if (o == null || !o.get(RealmSettings.ENABLED)) {
            return;
        }
        long level = RealmWatch.entryLevel(o, baseline);
        long first = TallyForm.firstBucket(now, o.get(RealmSettings.WINDOW_SECONDS) * 1000);
        long current = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS);
        long sum = 0;
        for (Map.Entry<Long, LongAdder> e : buckets.entrySet()) {
            if (e.getKey() >= first && e.getKey() <= current) {
                sum += e.getValue().sum();
            }
        }
        if (sum < level || minNetworks < o.get(RealmSettings.MIN_NETWORKS)) {
            return;
        }
        int nets = 0;
        synchronized (networks) {
            for (long b : networks.values()) {
                nets += b >= first ? 1 : 0;
            }
        }
        if (nets >= minNetworks) {
            synchronized (this) {
                if (!on && headroomLevel == Long.MAX_VALUE) {
                    enter(level, now);
                }
            }
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
        long oldest = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS) - KEPT_BUCKETS;
        buckets.keySet().removeIf(b -> b < oldest);
    }

    /** This node's tally in the published form (see {@link TallyForm#FORMAT}). */
    long[] snapshot(long now) {
        prune(now);
        long oldest = Math.floorDiv(now, RealmWatch.BUCKET_MILLIS) - KEPT_BUCKETS;
        List<long[]> pairs = new ArrayList<>();
        buckets.forEach((b, a) -> pairs.add(new long[] {b, a.sum()}));
        List<long[]> nets = new ArrayList<>();
        synchronized (networks) {
            networks.values().removeIf(b -> b < oldest);
            networks.forEach((tag, b) -> nets.add(new long[] {tag, b}));
        }
        return TallyForm.encode(pairs, nets);
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
        long sum = TallyForm.inWindow(own, now, window);
        for (long[] t : others) {
            sum += TallyForm.inWindow(t, now, window);
        }
        List<long[]> all = new ArrayList<>(others.size() + 1);
        all.add(own);
        all.addAll(others);
        int minNetworks = o.get(RealmSettings.MIN_NETWORKS);
        int nets = TallyForm.networksInWindow(all, now, window, minNetworks);
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
            // it stays at least one window: the failures it entered on leave the window by 10 s buckets, up to a bucket
            // early, and an attack still turned away would otherwise get a second entry level hashed within its window
            if ((sum * 2 < entryLevel || !crowd) && now - since >= o.get(RealmSettings.WINDOW_SECONDS) * 1000) {
                leave(now);
            }
            return;
        }
        long level = RealmWatch.entryLevel(o, baseline);
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
        baseline += (sum - baseline) * Math.min(1.0, (double) dt / RealmWatch.BASELINE_MILLIS);
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
