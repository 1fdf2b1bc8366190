package dev.abusegate.keycloak.store;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.WarnLimiter;
import dev.abusegate.engine.store.Slots;
import dev.abusegate.engine.store.Versions;
import org.jboss.logging.Logger;

/**
 * Says that a slot of a format this node does not read was met: it is read as absent (its subjects start again) and
 * the next change writes it in this node's format. A store's own reads and LOCAL changes say it in a WARN, at most once
 * a minute per store ({@link #check}). A clustered change runs on the slot's owner, inside a function the cluster sent,
 * which holds no state: it says it at DEBUG, once per slot it rewrites ({@link #onOwner}).
 */
final class UnreadableSlots {

    private static final Logger LOG = Logger.getLogger(UnreadableSlots.class);
    private static final long EVERY_MILLIS = 60_000;

    private final WarnLimiter warnings = new WarnLimiter(TimeSource.SYSTEM, EVERY_MILLIS, 1);

    /** {@code slot} as it is: the check only logs; {@link Slots} reads an unreadable slot as absent itself. */
    long[] check(long[] slot) {
        if (Slots.unreadable(slot) && warnings.due("format")) {
            LOG.warnf("Abuse gate: a stored slot of format %d was read as empty: this node reads formats %d to %d "
                    + "(a node more than one release apart wrote it; further warnings suppressed for 60 s)",
                    slot[0] >>> 32, Versions.FIRST_READABLE, Versions.CURRENT);
        }
        return slot;
    }

    /** As {@link #check}, on a clustered slot's owner: at DEBUG, with no state kept between calls. */
    static long[] onOwner(long[] slot) {
        if (Slots.unreadable(slot)) {
            LOG.debugf("Abuse gate: a stored slot of format %d was read as empty and rewritten: this node reads formats "
                    + "%d to %d", slot[0] >>> 32, Versions.FIRST_READABLE, Versions.CURRENT);
        }
        return slot;
    }
}
