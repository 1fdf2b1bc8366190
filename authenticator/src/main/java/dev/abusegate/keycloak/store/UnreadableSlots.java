package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.Slots;
import dev.abusegate.engine.store.Versions;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Says in a WARN, at most once a minute per node, that a slot of a format this node does not read was met: it is
 * read as absent (its subjects start again) and the next change writes it in this node's format. The slot reaches
 * the store on the node that owns it, inside a function the cluster sent, so the throttle is the node's own (one
 * timestamp per class loader), not a store's.
 */
final class UnreadableSlots {

    private static final Logger LOG = Logger.getLogger(UnreadableSlots.class);
    private static final long EVERY_MILLIS = 60_000;
    private static final AtomicLong LAST = new AtomicLong();

    private UnreadableSlots() {
    }

    /** {@code slot} as it is: the check only logs; {@link Slots} reads an unreadable slot as absent itself. */
    static long[] check(long[] slot) {
        if (Slots.unreadable(slot)) {
            long now = System.currentTimeMillis();
            long prev = LAST.get();
            if ((prev == 0 || now - prev >= EVERY_MILLIS) && LAST.compareAndSet(prev, now)) {
                LOG.warnf("Abuse gate: a stored slot of format %d was read as empty: this node reads formats %d to %d "
                        + "(a node more than one release apart wrote it; further warnings suppressed for 60 s)",
                        slot[0] >>> 32, Versions.FIRST_READABLE, Versions.CURRENT);
            }
        }
        return slot;
    }
}
