package dev.abusegate.engine.realm;

import java.util.Collection;

/**
 * Where the nodes of a cluster share their realms' failure tallies: one entry per (realm, node), written only by
 * its node, at most once a second, so that no key is written by every login. A tally is a flat {@code long[]} of
 * (bucket index, count) pairs (see {@link RealmWatch}).
 */
public interface RealmTallies {

    /** Replaces this node's tally for the realm. May throw; the caller fails open. */
    void publish(String realm, long[] tally);

    /** The last tallies the other live nodes published for the realm (never this node's own). May throw. */
    Collection<long[]> others(String realm);
}
