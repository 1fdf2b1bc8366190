package dev.abusegate.keycloak.store;

import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.realm.RealmTallies;
import dev.abusegate.engine.store.StoreCodec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.infinispan.Cache;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.remoting.transport.Address;

/**
 * The realms' failure tallies on the embedded Infinispan, in a cache of their own ({@value #CACHE_NAME}, LOCAL
 * alone, distributed with two owners when clustered): one entry per (realm, node), its longs as a {@code byte[]} (a
 * type Keycloak's marshaller handles without a schema; a {@code long[]} fails there), written only by its node, at most once a second, so that no key is written by every login. They are few (realms times nodes) and
 * not attacker-creatable, so they live beside the counter store's bounded tables, never in them. A node reads the
 * entries of the cluster's other current members in one {@code getAll}.
 */
public final class InfinispanRealmTallies implements RealmTallies {

    public static final String CACHE_NAME = "abuse-gate-realm-tallies";
    /** An entry outlives the longest window by a minute, so a node that left stops counting after that. */
    static final long TTL_MILLIS = (long) RealmSettings.WINDOW_SECONDS.max() * 1000 + 60_000;

    private final Cache<String, byte[]> cache;
    private final String node;
    private final Supplier<List<String>> members;

    /** Tallies of the node {@code node}, whose peers are {@code members} (every current member, this one included). */
    public InfinispanRealmTallies(Cache<String, byte[]> cache, String node, Supplier<List<String>> members) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.node = Objects.requireNonNull(node, "node");
        this.members = Objects.requireNonNull(members, "members");
    }

    /** The tallies of this cache manager's node, its peers the manager's members (none when it is not clustered). */
    public static InfinispanRealmTallies of(EmbeddedCacheManager manager, Cache<String, byte[]> cache) {
        Address self = manager.getAddress();
        String node = self == null ? "local" : self.toString();
        return new InfinispanRealmTallies(cache, node, () -> {
            List<Address> m = manager.getMembers();
            List<String> names = new ArrayList<>();
            if (m != null) {
                m.forEach(a -> names.add(a.toString()));
            }
            return names;
        });
    }

    static String key(String realm, String node) {
        return realm.length() + ":" + realm + "|" + node;
    }

    @Override
    public void publish(String realm, long[] tally) {
        cache.put(key(realm, node), StoreCodec.toBytes(tally), TTL_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public Collection<long[]> others(String realm) {
        Set<String> keys = new HashSet<>();
        for (String m : members.get()) {
            if (!m.equals(node)) {
                keys.add(key(realm, m));
            }
        }
        if (keys.isEmpty()) {
            return List.of();
        }
        Map<String, byte[]> found = cache.getAdvancedCache().getAll(keys);
        List<long[]> out = new ArrayList<>(found.size());
        for (byte[] b : found.values()) {
            if (b != null) {
                out.add(StoreCodec.fromBytes(b));
            }
        }
        return out;
    }
}
