package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many events of one kind (refusals, or counter-store failures: one budget each) each realm may record per minute
 * on this node, so that one attacking address, or a store outage, does not write one event-store row per request. Per realm: a flood in one realm never takes another realm's budget. The
 * budget is a fixed minute from the first refusal a realm records after its last minute ended; past the budget
 * refusals are left out, and the next refusal the realm records carries how many were left out since the one
 * before it ({@link #take}). Counts are exact under concurrent requests (each realm's state changes under its own
 * lock, held for a few field updates). A request that read the time just before another started the minute comes in
 * with a slightly earlier time: that is the same minute; only a clock set back by {@link #SET_BACK_MILLIS} or more
 * starts a new one.
 * <p>
 * Bounded: at most {@value #MAX_REALMS} realms tracked. At the bound, realms whose minute has ended and that have
 * nothing left out are forgotten (they carry no information); a realm that still finds no room is not limited
 * (its refusals are all recorded, as without a budget) until room is made.
 */
public final class EventBudget {

    public static final long MINUTE_MILLIS = 60_000;
    /**
     * A time this far before the minute's start is a clock set back, and starts a new minute; a nearer one is a
     * request that read the time before another started the minute (or a small clock step), and is in it.
     */
    static final long SET_BACK_MILLIS = 5 * MINUTE_MILLIS;
    /** Realms tracked at once. Realms are made by administrators, not by clients: the bound is a net. */
    static final int MAX_REALMS = 10_000;
    /** At most one sweep of forgotten realms per this long. */
    private static final long SWEEP_EVERY_MILLIS = 1_000;

    /** {@link #take}'s answer for a refusal that is not to be recorded. */
    public static final long LEAVE_OUT = -1;
    private static final long RETIRED = Long.MIN_VALUE;

    private final TimeSource clock;
    private final int maxRealms;
    private final Map<String, Window> realms = new ConcurrentHashMap<>();
    private volatile long lastSweep = Long.MIN_VALUE;

    public EventBudget(TimeSource clock) {
        this(clock, MAX_REALMS);
    }

    EventBudget(TimeSource clock, int maxRealms) {
        this.clock = clock;
        this.maxRealms = maxRealms;
    }

    /**
     * One refusal in {@code realm} whose budget is {@code perMinute} refusal events a minute (0: every refusal is
     * recorded). Returns {@link #LEAVE_OUT} when it is not to be recorded (it is counted as left out); otherwise how
     * many of the realm's refusals were left out since the last one it recorded (0 or more), which this call hands
     * over (the next recorded refusal starts again from 0).
     */
    public long take(String realm, int perMinute) {
        while (true) {
            Window w = realms.get(realm);
            if (w == null) {
                if (perMinute == 0) {
                    return 0; // nothing tracked, nothing left out
                }
                w = track(realm);
                if (w == null) {
                    return 0; // no room: not limited
                }
            }
            long answer = w.take(perMinute, clock.millis());
            if (answer != RETIRED) {
                return answer;
            }
            realms.remove(realm, w); // a sweep retired it (it held nothing): take a fresh one
        }
    }

    /** Realms tracked now (for tests). */
    int tracked() {
        return realms.size();
    }

    private Window track(String realm) {
        if (realms.size() >= maxRealms) {
            sweep();
            if (realms.size() >= maxRealms) {
                return realms.get(realm);
            }
        }
        return realms.computeIfAbsent(realm, r -> new Window());
    }

    /** Forgets the realms whose minute has ended and that have nothing left out, at most once a second. */
    private void sweep() {
        long now = clock.millis();
        if (lastSweep != Long.MIN_VALUE && now - lastSweep < SWEEP_EVERY_MILLIS) {
            return;
        }
        lastSweep = now;
        for (Map.Entry<String, Window> e : realms.entrySet()) {
            if (e.getValue().retire(now)) {
                realms.remove(e.getKey(), e.getValue());
            }
        }
    }

    /** One realm's minute: when it started, the refusals recorded in it, those left out since the last recorded. */
    private static final class Window {
        private long start;
        private boolean started;
        private int recorded;
        private long leftOut;
        /** Forgotten by a sweep: takes nothing more (a take that finds it retired takes a fresh window). */
        private boolean retired;

        synchronized long take(int perMinute, long now) {
            if (retired) {
                return RETIRED;
            }
            if (perMinute > 0) {
                if (!started || now - start >= MINUTE_MILLIS || start - now >= SET_BACK_MILLIS) {
                    started = true;
                    start = now;
                    recorded = 0;
                }
                if (recorded >= perMinute) {
                    leftOut++;
                    return LEAVE_OUT;
                }
                recorded++;
            }
            long handed = leftOut;
            leftOut = 0;
            return handed;
        }

        /**
         * Retires this window if its minute has ended and it holds nothing left out. Retired under its lock and never
         * used again, so no count is lost to a take that found it in the map just before its removal.
         */
        synchronized boolean retire(long now) {
            if (!retired && leftOut == 0 && (!started || now - start >= MINUTE_MILLIS || start - now >= SET_BACK_MILLIS)) {
                retired = true;
            }
            return retired;
        }
    }
}
