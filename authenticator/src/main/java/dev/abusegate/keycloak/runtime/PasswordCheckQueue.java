package dev.abusegate.keycloak.runtime;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the gated steps' password checks wait their turn: at most one check per CPU core at a time, the concurrency
 * Keycloak's own Argon2 hashing allows (its {@code cpuCores}, by default the cores). A check would wait that long
 * anyway, inside Keycloak's hashing; waiting here instead has two uses:
 * <ul>
 *   <li>an attempt let through just before its realm entered "under attack" is looked at again when its turn comes,
 *       before any lookup or hash, and answered with the realm's captcha like every attempt after it (see
 *       {@code GatedAttempt#realmEnteredMeanwhile});</li>
 *   <li>turns are shared, not first come first served: realms take turns, and within a realm the client addresses
 *       (lanes) with checks waiting take turns, each in its own arrival order. A burst of checks from one address, or
 *       from one realm, waits behind its own checks, not in front of everyone else's: a check from another address
 *       waits for the checks already running, then for at most one more of the burst's, before its own turn.</li>
 * </ul>
 * What it holds is only the checks waiting now, each holding a worker thread: it is bounded by Keycloak's own
 * threads, and empty when nobody waits.
 */
public final class PasswordCheckQueue {

    /** A turn to check a password: closing it lets the next check in (closing it again does nothing). */
    public interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /** The turn of a check that does not wait (it holds nothing). */
    public static final Turn NO_WAIT = () -> { };

    private static final class Waiter {
        final Condition ready;
        boolean granted;

        Waiter(Condition ready) {
            this.ready = ready;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** Turns nobody holds; while any is free, nobody waits. */
    private int free;
    /** Realms with checks waiting, in turn order; in each, its lanes with checks waiting, in turn order. */
    private final LinkedHashMap<String, LinkedHashMap<String, ArrayDeque<Waiter>>> waiting = new LinkedHashMap<>();

    /** A queue letting {@code checks} password checks run at once. */
    public PasswordCheckQueue(int checks) {
        if (checks < 1) {
            throw new IllegalArgumentException("at least one check at a time, was " + checks);
        }
        this.free = checks;
    }

    /**
     * Waits for a turn for a check in {@code realm} from {@code lane} (the client's address); the caller closes it
     * when its check is done.
     */
    public Turn take(String realm, String lane) {
        lock.lock();
        try {
            if (free > 0) {
                free--;
            } else {
                Waiter w = new Waiter(lock.newCondition());
                waiting.computeIfAbsent(realm, k -> new LinkedHashMap<>())
                        .computeIfAbsent(lane, k -> new ArrayDeque<>()).add(w);
                while (!w.granted) {
                    w.ready.awaitUninterruptibly();
                }
            }
        } finally {
            lock.unlock();
        }
        AtomicBoolean open = new AtomicBoolean(true);
        return () -> {
            if (open.compareAndSet(true, false)) {
                next();
            }
        };
    }

    /** Checks waiting now (for the tests). */
    public int waiting() {
        lock.lock();
        try {
            int n = 0;
            for (LinkedHashMap<String, ArrayDeque<Waiter>> lanes : waiting.values()) {
                for (ArrayDeque<Waiter> q : lanes.values()) {
                    n += q.size();
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A turn has ended: it goes to the first check of the first lane of the first realm waiting, and that lane and
     * that realm move to the back of their rotations if they have more checks waiting.
     */
    private void next() {
        lock.lock();
        try {
            Iterator<Map.Entry<String, LinkedHashMap<String, ArrayDeque<Waiter>>>> realms = waiting.entrySet().iterator();
            if (!realms.hasNext()) {
                free++;
                return;
            }
            Map.Entry<String, LinkedHashMap<String, ArrayDeque<Waiter>>> realm = realms.next();
            realms.remove();
            LinkedHashMap<String, ArrayDeque<Waiter>> lanes = realm.getValue();
            Iterator<Map.Entry<String, ArrayDeque<Waiter>>> it = lanes.entrySet().iterator();
            Map.Entry<String, ArrayDeque<Waiter>> lane = it.next();
            it.remove();
            Waiter w = lane.getValue().poll();
            if (!lane.getValue().isEmpty()) {
                lanes.put(lane.getKey(), lane.getValue());
            }
            if (!lanes.isEmpty()) {
                waiting.put(realm.getKey(), lanes);
            }
            w.granted = true;
            w.ready.signal();
        } finally {
            lock.unlock();
        }
    }
}
