package dev.abusegate.keycloak.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.infinispan.Cache;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.factories.GlobalComponentRegistry;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.remoting.transport.Transport;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;

/**
 * Infinispan cache managers clustered in this JVM over JGroups TCP on 127.0.0.1 only: fixed loopback ports,
 * discovery by TCPPING over those ports, no UDP, no multicast, no failure detection socket, diagnostics off.
 * Infinispan's default stack would multicast out of the machine's real interface. Each node defines the gate's
 * two caches exactly as {@link InfinispanGateStoreProviderFactory} does in a clustered Keycloak. Refuses to run
 * unless every member's physical address is 127.0.0.1. The store tests and the benchmarks ({@code benchmarks/},
 * through this module's test jar) use it.
 */
public final class EmbeddedCluster implements AutoCloseable {

    final List<EmbeddedCacheManager> managers = new ArrayList<>();

    public EmbeddedCluster(int nodes) {
        System.setProperty("java.net.preferIPv4Stack", "true");
        System.setProperty("jgroups.bind.address", "127.0.0.1");
        int[] ports = freePorts(nodes);
        String hosts = Arrays.stream(ports).mapToObj(p -> "127.0.0.1[" + p + "]").collect(Collectors.joining(","));
        String cluster = "abuse-gate-test-" + ports[0];
        for (int i = 0; i < nodes; i++) {
            GlobalConfigurationBuilder g = GlobalConfigurationBuilder.defaultClusteredBuilder();
            g.transport().clusterName(cluster).nodeName("node-" + i)
                    .addProperty(JGroupsTransport.CONFIGURATION_XML, stack(ports[i], hosts));
            g.jmx().disable();
            EmbeddedCacheManager m = new DefaultCacheManager(g.build());
            m.defineConfiguration(InfinispanGateStoreProviderFactory.CACHE_NAME, CounterCacheConfiguration.build(true));
            m.defineConfiguration(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME, CounterCacheConfiguration.build(true));
            managers.add(m);
        }
        for (EmbeddedCacheManager m : managers) {
            m.getCache(InfinispanGateStoreProviderFactory.CACHE_NAME);
            m.getCache(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME);
        }
        waitForMembers(nodes);
        for (EmbeddedCacheManager m : managers) {
            JGroupsTransport t = (JGroupsTransport) GlobalComponentRegistry.componentOf(m, Transport.class);
            List<?> addresses = t.getMembersPhysicalAddresses();
            if (addresses.size() != nodes || !addresses.stream().allMatch(a -> a.toString().startsWith("127.0.0.1"))) {
                throw new IllegalStateException("not a loopback-only cluster: " + addresses);
            }
        }
    }

    /** The members' physical addresses (all 127.0.0.1). */
    public String addresses() {
        return ((JGroupsTransport) GlobalComponentRegistry.componentOf(managers.get(0), Transport.class))
                .getMembersPhysicalAddresses().toString();
    }

    public Cache<Object, Object> cheap(int node) {
        return managers.get(node).getCache(InfinispanGateStoreProviderFactory.CACHE_NAME);
    }

    public Cache<Object, Object> protective(int node) {
        return managers.get(node).getCache(InfinispanGateStoreProviderFactory.PROTECTED_CACHE_NAME);
    }

    /** The realms' tallies cache of one node, defined on every node on first use as the provider factory does. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public org.infinispan.Cache<String, byte[]> realmTallies(int node) {
        for (EmbeddedCacheManager m : managers) {
            if (m.getCacheConfiguration(InfinispanRealmTallies.CACHE_NAME) == null) {
                m.defineConfiguration(InfinispanRealmTallies.CACHE_NAME, CounterCacheConfiguration.build(true));
            }
            m.getCache(InfinispanRealmTallies.CACHE_NAME);
        }
        return (org.infinispan.Cache) managers.get(node).getCache(InfinispanRealmTallies.CACHE_NAME);
    }

    /** The cache manager of one node. */
    public EmbeddedCacheManager manager(int node) {
        return managers.get(node);
    }

    public InfinispanCounterStore store(int node, long maxCheap, long maxProtective) {
        return store(node, maxCheap, maxProtective, 0);
    }

    /** A store whose tables are filed under a namespace of their own (see {@link InfinispanCounterStore}). */
    public InfinispanCounterStore store(int node, long maxCheap, long maxProtective, int namespace) {
        return new InfinispanCounterStore(cheap(node), maxCheap, protective(node), maxProtective, namespace);
    }

    private void waitForMembers(int n) {
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline) {
            boolean all = true;
            for (int i = 0; i < managers.size(); i++) {
                EmbeddedCacheManager m = managers.get(i);
                all &= m.getMembers() != null && m.getMembers().size() == n
                        && cheap(i).getAdvancedCache().getDistributionManager().getCacheTopology().getMembers().size() == n
                        && protective(i).getAdvancedCache().getDistributionManager().getCacheTopology().getMembers().size() == n;
            }
            if (all) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("the cluster did not form: " + managers.get(0).getMembers());
    }

    /** Stops one node, as a node leaving the cluster. */
    void stop(int node) {
        managers.get(node).stop();
    }

    @Override
    public void close() {
        for (EmbeddedCacheManager m : managers) {
            try {
                m.stop();
            } catch (RuntimeException ignored) {
                // already stopped
            }
        }
    }

    private static String stack(int port, String hosts) {
        return "<config xmlns=\"urn:org:jgroups\">"
                + "<TCP bind_addr=\"127.0.0.1\" bind_port=\"" + port + "\" port_range=\"0\" diag.enabled=\"false\" tcp_nodelay=\"true\""
                + " thread_pool.min_threads=\"0\" thread_pool.max_threads=\"50\" use_vthreads=\"false\"/>"
                + "<TCPPING initial_hosts=\"" + hosts + "\" port_range=\"0\"/>"
                + "<MERGE3 min_interval=\"10s\" max_interval=\"30s\"/>"
                + "<FD_ALL3/>"
                + "<VERIFY_SUSPECT2 timeout=\"1s\"/>"
                + "<pbcast.NAKACK2 use_mcast_xmit=\"false\"/>"
                + "<UNICAST3/>"
                + "<pbcast.STABLE desired_avg_gossip=\"5s\" max_bytes=\"1M\"/>"
                + "<pbcast.GMS print_local_addr=\"false\" join_timeout=\"2s\"/>"
                + "<UFC max_credits=\"4m\" min_threshold=\"0.40\"/>"
                + "<FRAG4 frag_size=\"60k\"/>"
                + "</config>";
    }

    private static int[] freePorts(int n) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a probe socket
                }
            }
        }
    }
}
