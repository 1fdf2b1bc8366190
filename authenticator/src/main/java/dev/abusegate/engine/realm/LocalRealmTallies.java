package dev.abusegate.engine.realm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reference {@link RealmTallies}: a map in memory. One instance is one node alone; {@link #node(String)} gives
 * another node on the same map, so tests can run a cluster of watches in one JVM.
 */
public final class LocalRealmTallies implements RealmTallies {

    private final Map<String, Map<String, long[]>> byRealm;
    private final String node;

    /** A node alone. */
    public LocalRealmTallies() {
        this(new ConcurrentHashMap<>(), "local");
    }

    private LocalRealmTallies(Map<String, Map<String, long[]>> byRealm, String node) {
        this.byRealm = byRealm;
        this.node = Objects.requireNonNull(node, "node");
    }

    /** Another node sharing this one's tallies. */
    public LocalRealmTallies node(String name) {
        return new LocalRealmTallies(byRealm, name);
    }

    @Override
    public void publish(String realm, long[] tally) {
        byRealm.computeIfAbsent(realm, r -> new ConcurrentHashMap<>()).put(node, tally.clone());
    }

    @Override
    public Collection<long[]> others(String realm) {
        Map<String, long[]> nodes = byRealm.get(realm);
        Collection<long[]> out = new ArrayList<>();
        if (nodes != null) {
            nodes.forEach((n, t) -> {
                if (!n.equals(node)) {
                    out.add(t);
                }
            });
        }
        return out;
    }
}
