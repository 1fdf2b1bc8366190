package dev.abusegate.it;

import dev.abusegate.it.support.Extended;
import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.PostgresServer;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Keycloak 26.7.3 nodes in production mode ({@code start --cache=ispn}) sharing one PostgreSQL
 * database, clustered through the JGroups stack {@code jdbc-ping} (discovery through the shared database),
 * both bound to 127.0.0.1 with their own JGroups port. The nodes' shared options come from
 * {@code cluster/keycloak.env}, the file docker-compose.cluster.yml gives its nodes. The counters live in
 * the distributed cache {@code abuse-gate-counters} (DIST_SYNC, 2 owners), so:
 * <ul>
 *   <li>attempts for one address alternating between the nodes count on one counter;</li>
 *   <li>simultaneous attempts spread over both nodes let exactly the threshold through;</li>
 *   <li>an account locked through node A is locked on node B;</li>
 *   <li>floods through node A of ten times the bounds (fresh addresses, fresh IPv6 /64s, fresh usernames from one
 *       address, solved captchas sent with empty passwords) switch no layer and no captcha band off on node B, in
 *       the flooded realm or another one, during the flood and after it, and a blocked address and a lock hold
 *       on both nodes;</li>
 *   <li>when node A stops, node B still has every counter and lock.</li>
 * </ul>
 * Nothing fails to marshal (a custom value type without a ProtoStream schema would fail here, never under
 * start-dev). Each test has its own realm, imported through node A (node B reads it from the shared
 * database). The test that stops node A runs after the ones that need both nodes; the log check runs last.
 */
@Extended
@ProcessBackendOnly("two nodes in production mode sharing a PostgreSQL started on this machine")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

    private static final Pattern CLUSTER_VIEW = Pattern.compile(
            "ISPN000094: Received new cluster view for channel \\S+: \\[[^\\]]*\\] \\((\\d+)\\)");
    private static final String DISTRIBUTED_CACHE_LINE =
            "Abuse gate: cache 'abuse-gate-counters' (distributed, 2 owners";
    private static final String PASSWORD = "correct-horse-1";
    /** Failsafe runs in integration-tests/; the file sits at the repository root's cluster/. */
    private static final Path SHARED_NODE_ENV_FILE = Path.of("..", "cluster", "keycloak.env");
    private static final Map<String, String> SHARED_NODE_ENV = readEnvFile(SHARED_NODE_ENV_FILE);

    /** Small enough for a flood test to pass it tenfold in seconds; the other tests stay far below it. */
    private static final int MAX_ENTRIES = 300;
    /**
     * The protective bound: no flood without a password hash writes there; sized for what the probes record (their
     * locks, and their solved captchas in the used-captcha table of a quarter of it).
     */
    private static final int MAX_PROTECTED_ENTRIES = 400;
    /** Windows of the realm flooded with solved captchas: its entries (which nothing may replace) soon expire. */
    private static final long SOLUTIONS_WINDOW_SECONDS = 30;
    /** The nodes' blocked-address hold; a tenth of the test realms' 300 s window caps it at 30 s. */
    private static final long BLOCKED_HOLD_MILLIS = 60_000;

    private static long t0;
    private static PostgresServer db;
    private static KeycloakServer nodeA;
    private static KeycloakServer nodeB;
    /** Node A as it was until the failover test stopped it (its log is checked with the others'). */
    private static KeycloakServer retiredA;
    private static final List<String> realms = new ArrayList<>();

    @BeforeAll
    static void startDatabaseAndTwoNodes() {
        t0 = System.nanoTime();
        db = PostgresServer.start();
        int[] jgroupsPorts = KeycloakServer.freePorts(2);
        nodeA = node("cluster-a", jgroupsPorts[0]);
        nodeB = node("cluster-b", jgroupsPorts[1]);
        System.out.printf("ClusterIT: node A ready in %d s, node B ready in %d s%n",
                nodeA.startupTime().toSeconds(), nodeB.startupTime().toSeconds());
        awaitClusterSize(nodeA, 2, Duration.ofSeconds(90));
        awaitClusterSize(nodeB, 2, Duration.ofSeconds(90));
    }

    private static KeycloakServer node(String name, int jgroupsPort) {
        KeycloakServer.Builder node = KeycloakServer.builder(name).command("start");
        // cache=ispn, cache-stack=jdbc-ping, db=postgres, http-enabled, hostname-strict=false, proxy headers,
        // health, metrics: the file docker-compose.cluster.yml gives its nodes (the harness also sets the last three)
        SHARED_NODE_ENV.forEach(node::env);
        return node
                .options(db.keycloakOptions())
                .option("--cache-embedded-network-bind-address=" + KeycloakServer.HOST)
                .option("--cache-embedded-network-bind-port=" + jgroupsPort)
                .option("--spi-abuse-gate-store--infinispan--max-entries=" + MAX_ENTRIES)
                .option("--spi-abuse-gate-store--infinispan--max-protected-entries=" + MAX_PROTECTED_ENTRIES)
                // long enough that a node's held block is observable; capped at a tenth of the window (30 s here)
                .option("--spi-abuse-gate-store--infinispan--blocked-hold-millis=" + BLOCKED_HOLD_MILLIS)
                .env("JAVA_OPTS_KC_HEAP", "-Xms128m -Xmx1g")
                // the first node builds the production image (~95 s on a loaded 2-core machine) and creates the schema
                .startTimeout(Duration.ofSeconds(Math.max(420, Long.getLong("keycloak.it.startTimeoutSeconds", 180))))
                .start();
    }

    @AfterAll
    static void stopEverything() {
        try {
            KeycloakServer live = nodeB != null && nodeB.isAlive() ? nodeB : nodeA != null && nodeA.isAlive() ? nodeA : null;
            if (live != null) {
                for (String r : realms) {
                    live.admin().deleteRealm(r);
                }
            }
        } finally {
            if (nodeB != null) {
                nodeB.close();
            }
            if (nodeA != null) {
                nodeA.close();
            }
            if (db != null) {
                db.close();
            }
            System.out.printf("ClusterIT wall time: %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
        }
    }

    // ------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void both_nodes_form_one_cluster_and_distribute_the_counter_cache() {
        for (KeycloakServer node : List.of(nodeA, nodeB)) {
            String log = node.logText();
            assertThat(log).as("log of %s", node.name())
                    .contains("Starting JGroups channel `ISPN` with stack `jdbc-ping`")
                    .contains("JGroups JDBC_PING discovery enabled");
            assertThat(clusterSizes(log)).as("cluster views in %s", node.name()).contains(2);
            assertThat(log).as("log of %s", node.name()).contains(DISTRIBUTED_CACHE_LINE)
                    .contains("without a cache round trip for " + BLOCKED_HOLD_MILLIS + " ms at most (blocked-hold-millis");
        }
    }

    @Test
    @Order(2)
    void attempts_alternating_between_the_nodes_share_the_per_address_counter() {
        String realm = importRealm("cluster-ip", Map.of(
                "perIp.threshold", "3",
                "perIpAccount.enabled", "false",
                "accountLockout.enabled", "false",
                "credentialStuffing.enabled", "false",
                "captcha.enabled", "false"));
        String address = "192.0.2.50";
        KeycloakServer[] order = {nodeA, nodeB, nodeA};
        for (int i = 0; i < order.length; i++) {
            BrowserLogin.LoginResult r = order[i].newBrowser().login(realm, "alice", "wrong-" + i, address);
            assertThat(r.status()).as("attempt %d on %s: %s", i + 1, order[i].name(), r).isEqualTo(200);
            assertThat(r.keycloakError()).as("attempt %d", i + 1).contains("Invalid username or password.");
        }
        BrowserLogin.LoginResult fourth = nodeB.newBrowser().login(realm, "alice", "wrong-3", address);
        assertThat(fourth.status()).as("4th attempt on node B: %s", fourth).isEqualTo(429);
        assertThat(fourth.gateCode()).contains("blocked");

        // node B now holds the block: more attempts there are answered 429 without a cache write (the count
        // stays), while node A, which has not seen the block, asks the cache (the count moves on)
        long counted = attempts(nodeA, realm, address);
        assertThat(counted).isEqualTo(4);
        for (int i = 0; i < 3; i++) {
            BrowserLogin.LoginResult held = nodeB.newBrowser().login(realm, "alice", "wrong-held-" + i, address);
            assertThat(held.status()).as("held attempt %d on node B: %s", i + 1, held).isEqualTo(429);
            assertThat(held.gateCode()).contains("blocked");
        }
        assertThat(attempts(nodeB, realm, address)).as("count after node B's held answers").isEqualTo(counted);
        BrowserLogin.LoginResult onA = nodeA.newBrowser().login(realm, "alice", "wrong-on-a", address);
        assertThat(onA.status()).as("next attempt on node A: %s", onA).isEqualTo(429);
        assertThat(attempts(nodeB, realm, address)).as("count after node A's attempt").isEqualTo(counted + 1);

        // node B blocks that address only: another address still gets Keycloak's own answer there
        BrowserLogin.LoginResult other = nodeB.newBrowser().login(realm, "alice", "wrong-4", "192.0.2.51");
        assertThat(other.status()).as(other.toString()).isEqualTo(200);
        assertThat(other.gateCode()).isEmpty();
    }

    @Test
    @Order(3)
    void forty_simultaneous_attempts_spread_over_both_nodes_let_exactly_the_threshold_through() throws Exception {
        int threshold = 10;
        String realm = importRealm("cluster-race", Map.of(
                "perIp.threshold", Integer.toString(threshold),
                "perIpAccount.enabled", "false",
                "accountLockout.enabled", "false",
                "credentialStuffing.enabled", "false",
                "captcha.enabled", "false"));
        String address = "198.51.100.40";
        int perNode = 20;
        List<BrowserLogin> browsers = new ArrayList<>();
        List<BrowserLogin.LoginResult> pages = new ArrayList<>();
        for (int i = 0; i < 2 * perNode; i++) {
            BrowserLogin b = (i % 2 == 0 ? nodeA : nodeB).newBrowser();
            browsers.add(b);
            pages.add(b.openLoginPage(realm, address)); // opening the form counts nothing
        }
        ExecutorService pool = Executors.newFixedThreadPool(2 * perNode);
        CountDownLatch ready = new CountDownLatch(2 * perNode);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<BrowserLogin.LoginResult>> results = new ArrayList<>();
            for (int i = 0; i < 2 * perNode; i++) {
                BrowserLogin b = browsers.get(i);
                BrowserLogin.LoginResult page = pages.get(i);
                results.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return b.submit(page, "alice", "wrong-password", address, Map.of());
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            int through = 0;
            int blocked = 0;
            Map<String, Integer> byNode = new LinkedHashMap<>();
            for (int i = 0; i < results.size(); i++) {
                BrowserLogin.LoginResult r = results.get(i).get(120, TimeUnit.SECONDS);
                if (r.status() == 429) {
                    assertThat(r.gateCode()).as(r.toString()).contains("blocked");
                    blocked++;
                } else {
                    assertThat(r.status()).as(r.toString()).isEqualTo(200);
                    assertThat(r.keycloakError()).as(r.toString()).contains("Invalid username or password.");
                    through++;
                    byNode.merge(i % 2 == 0 ? "A" : "B", 1, Integer::sum);
                }
            }
            System.out.printf("ClusterIT: 40 simultaneous attempts (20 per node): %d let through %s, %d blocked%n",
                    through, byNode, blocked);
            assertThat(through).isEqualTo(threshold);
            assertThat(blocked).isEqualTo(2 * perNode - threshold);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(4)
    void an_account_locked_through_node_a_is_locked_on_node_b() {
        String realm = importRealm("cluster-lock", Map.of(
                "accountLockout.threshold", "3",
                "accountLockout.lockoutSeconds", "900",
                "perIp.enabled", "false",
                "perIpAccount.enabled", "false",
                "credentialStuffing.enabled", "false",
                "captcha.enabled", "false"));
        assertThat(nodeB.newBrowser().login(realm, "bob", PASSWORD, "192.0.2.60").loginSucceeded())
                .as("bob can log in on node B before").isTrue();
        for (int i = 1; i <= 3; i++) {
            BrowserLogin.LoginResult r = nodeA.newBrowser().login(realm, "bob", "wrong-" + i, "192.0.2.6" + i);
            assertThat(r.status()).as("failure %d on node A: %s", i, r).isEqualTo(200);
        }
        BrowserLogin.LoginResult onB = nodeB.newBrowser().login(realm, "bob", PASSWORD, "192.0.2.64");
        assertThat(onB.status()).as("correct password on node B after the lock: %s", onB).isEqualTo(429);
        assertThat(onB.gateCode()).contains("blocked");
        assertThat(onB.loginSucceeded()).isFalse();

        Map<String, Object> state = nodeB.admin().gateState(realm, null, "bob");
        assertThat(GateIt.stateValue(state, "identifier", "locked")).as(state.toString()).isEqualTo(true);
        assertThat(GateIt.stateNumber(state, "identifier", "lockSecondsLeft")).isPositive();

        assertThat(nodeB.newBrowser().login(realm, "carol", PASSWORD, "192.0.2.65").loginSucceeded())
                .as("another account is not locked").isTrue();
    }

    @Test
    @Order(4)
    void a_password_sprayed_through_both_nodes_is_counted_once_for_the_cluster() {
        String realm = importRealm("cluster-password-spray", Map.of("passwordSpray.threshold", "10"));
        String sprayed = "Spring2026!";
        // ten names (known and unknown), one password, alternating between the nodes, each from an address of its own
        for (int i = 0; i < 10; i++) {
            KeycloakServer node = i % 2 == 0 ? nodeA : nodeB;
            String name = i < 4 ? List.of("alice", "bob", "carol", "dave").get(i) : "nobody-" + i;
            GateIt.assertWrongPassword(node.newBrowser().login(realm, name, sprayed, "10.46.6." + (i + 1)));
        }
        // the bucket holds the ten accounts whichever node counted them: the next attempt with it needs a captcha on both
        for (KeycloakServer node : List.of(nodeA, nodeB)) {
            BrowserLogin.LoginResult r = node.newBrowser().login(realm, "erin", sprayed, "10.46.7." + (node == nodeA ? 1 : 2));
            GateIt.assertCaptchaRequired(r);
        }
        // another password goes in at once on either node
        assertThat(nodeB.newBrowser().login(realm, "erin", PASSWORD, "10.46.7.3").loginSucceeded()).isTrue();
        assertThat(nodeA.newBrowser().login(realm, "alice", PASSWORD, "10.46.7.4").loginSucceeded()).isTrue();
    }

    @Test
    @Order(4)
    void a_spray_through_node_a_puts_the_realm_under_attack_on_node_b_within_the_stated_bound() {
        int threshold = 20;
        String realm = importRealm("cluster-realm", Map.of(
                "realm.enabled", "true",
                "realm.threshold", String.valueOf(threshold),
                "realm.windowSeconds", "60",
                "realm.baselineMultiple", "0"));
        assertThat(nodeB.newBrowser().login(realm, "dave", PASSWORD, "10.29.1.1").loginSucceeded())
                .as("dave logs in on node B before").isTrue();
        assertThat(nodeB.admin().realmUnderAttack(realm)).containsEntry("underAttack", false);

        // unknown usernames, each from its own address (and /24: a crowd of 20 networks, at least realm.minNetworks),
        // all through node A: below every per-address threshold
        for (int i = 0; i < threshold; i++) {
            BrowserLogin.LoginResult r = nodeA.newBrowser().login(realm, "nobody-" + i, "guess-" + i, "10.29." + (100 + i) + ".1");
            assertThat(r.status()).as("spray %d on node A: %s", i, r).isEqualTo(200);
        }
        long sprayed = System.nanoTime();
        GateIt.await("node B sees the realm under attack", Duration.ofSeconds(6),
                () -> Boolean.TRUE.equals(nodeB.admin().realmUnderAttack(realm).get("underAttack")));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sprayed);
        System.out.printf("ClusterIT: node B under attack %d ms after the last of %d failures on node A "
                + "(stated bound: 2 s, plus the admin call)%n", millis, threshold);
        assertThat(((Number) nodeB.admin().realmUnderAttack(realm).get("failuresInWindow")).longValue())
                .as("node B counts node A's failures").isGreaterThanOrEqualTo(threshold);

        BrowserLogin.LoginResult onB = nodeB.newBrowser().login(realm, "erin", PASSWORD, "10.29.3.1");
        assertThat(onB.status()).as("a real user on node B: %s", onB).isEqualTo(429);
        assertThat(onB.gateCode()).contains("captcha_required");
        for (KeycloakServer node : List.of(nodeA, nodeB)) {
            assertThat(KeycloakServer.filterLog(node.logText(), "ERROR", "").stream()
                    .filter(l -> l.contains("abuse-gate-realm-tallies")).toList())
                    .as("errors on the realms' tallies cache in %s (their values are marshalled between the nodes)", node.name())
                    .isEmpty();
        }
    }

    @Test
    @Order(5)
    void a_flood_over_both_nodes_of_ten_times_max_entries_cheap_requests_never_erases_a_lock_nor_switches_layer_1_off() {
        String realm = StoreFlood.realm(nodeA.admin(), "cluster-flood");
        realms.add(realm);
        List<KeycloakServer> both = List.of(nodeA, nodeB);
        StoreFlood.lockVictim(realm, both);
        FloodProbes.floodIpv4(realm, both, 10 * MAX_ENTRIES,
                () -> StoreFlood.assertFreshAddressMeetsThreshold(realm, both, "203.0.113.151"));
        StoreFlood.assertVictimLocked(realm, both);
        // the store at its bound made room (addresses seen once) rather than switching layer 1 off
        StoreFlood.assertFreshAddressMeetsThreshold(realm, both, "203.0.113.152");
        double failures = nodeA.metricValue("abuse_gate_store_failures_total", Map.of("realm", realm))
                + nodeB.metricValue("abuse_gate_store_failures_total", Map.of("realm", realm));
        assertThat(failures).as("a store at its bound is not a failing one").isZero();
        // the flood's entries expire with its 5 s windows and are purged within 5 s more: room for the next tests
        GateIt.sleep(12_000);
    }

    @Test
    @Order(7)
    void floods_through_node_a_of_ipv6_networks_usernames_and_solved_captchas_switch_nothing_off_on_node_b() throws Exception {
        // Runs after the failover test: a flood leaves shared counters that live as long as the windows they
        // counted, and those would ask the failover test's band-off realm for a captcha (see docs/clustering.md). Node A
        // stopped there, so a new node A joins node B first.
        if (!nodeA.isAlive()) {
            retiredA = nodeA;
            nodeA = node("cluster-a2", KeycloakServer.freePorts(1)[0]);
            awaitClusterSize(nodeA, 2, Duration.ofSeconds(90));
            awaitClusterSize(nodeB, 2, Duration.ofSeconds(90));
        }
        long start = System.nanoTime();
        FloodProbes viaA = new FloodProbes(nodeA);
        FloodProbes viaB = new FloodProbes(nodeB);
        String flooded = viaA.realm("cluster-flooded");
        String other = viaA.realm("cluster-other");
        String solved = viaA.realm("cluster-solved", SOLUTIONS_WINDOW_SECONDS);
        // Realms probed once, during a flood, for exact counts: a realm keeps them only where it holds less than its
        // fair share of a slot (docs/clustering.md), and the realm probed before the floods holds more entries with
        // each probe, so each exact probe goes to a realm holding only what that probe writes.
        String quiet = viaA.realm("cluster-quiet");
        String quietLate = viaA.realm("cluster-quiet-late");
        realms.addAll(List.of(flooded, other, solved, quiet, quietLate));

        // the expected answers on the unflooded cluster, through node B
        String blockedOther = viaB.assertEveryLayerMeetsItsThreshold(other, 0, "on node B before any flood");
        String blockedFlooded;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // floods of subjects seen once each, through node A, while the probes run through node B
            Future<?> v6 = pool.submit(() -> viaA.floodIpv6(flooded, 10 * MAX_ENTRIES));
            blockedFlooded = viaB.assertEveryLayerHoldsDuringAConcurrentFlood(flooded, 1,
                    "on node B in the flooded realm during a flood of fresh IPv6 /64s through node A");
            viaB.assertEveryLayerMeetsItsThreshold(quiet, 2, "on node B in another realm during that flood");
            assertStillRunning(v6, "the IPv6 flood");
            v6.get(10, TimeUnit.MINUTES);
            Future<?> names = pool.submit(() -> viaA.floodUsernames(flooded, 10 * MAX_ENTRIES, "192.0.2.77"));
            viaB.assertEveryLayerMeetsItsThreshold(quietLate, 3, "on node B in another realm during a flood of usernames through node A");
            assertStillRunning(names, "the username flood");
            names.get(10, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        viaB.assertEveryLayerMeetsItsThreshold(flooded, 4, "on node B in the flooded realm after the IPv6 and username floods");
        for (FloodProbes node : List.of(viaA, viaB)) {
            node.assertStillHeld(other, blockedOther, 0, "after the IPv6 and username floods");
            node.assertStillHeld(flooded, blockedFlooded, 1, "after the IPv6 and username floods");
        }

        // addresses in the band (worth two attempts each, which nothing may replace), their captchas solved and
        // sent with empty passwords: ten times as many solutions as the used-captcha table holds
        List<String> solutions = viaA.floodEmptyPasswordSolutions(solved, 10 * MAX_PROTECTED_ENTRIES / 4);
        long floodEnd = System.nanoTime();
        assertThat(solutions).as("solutions sent").hasSizeGreaterThan(MAX_PROTECTED_ENTRIES);
        viaB.assertEveryLayerCautious(other, 5, "on node B in another realm after a flood of solved captchas through node A");
        viaB.assertEveryLayerCautious(flooded, 6, "on node B in the flooded realm after that flood");
        for (FloodProbes node : List.of(viaA, viaB)) {
            node.assertStillHeld(other, blockedOther, 0, "after every flood");
            node.assertStillHeld(flooded, blockedFlooded, 1, "after every flood");
        }

        double degraded = nodeA.metricValue("abuse_gate_store_degraded_total", Map.of("realm", solved))
                + nodeB.metricValue("abuse_gate_store_degraded_total", Map.of("realm", solved));
        assertThat(degraded).as("attempts counted on shared counters at the bound are reported").isPositive();
        double failures = 0;
        for (String realm : List.of(flooded, other, solved, quiet, quietLate)) {
            failures += nodeA.metricValue("abuse_gate_store_failures_total", Map.of("realm", realm))
                    + nodeB.metricValue("abuse_gate_store_failures_total", Map.of("realm", realm));
        }
        assertThat(failures).as("a store at its bound is not a failing one").isZero();
        System.out.printf("ClusterIT: floods of IPv6 networks, usernames and solved captchas with their probes in %d s%n",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        // None of those solutions left a record: each is still good once, through the other node too (a record would
        // live as long as its challenge, 600 s)
        viaB.assertNoRecordWritten(solved, solutions.get(solutions.size() - 1));
        // the solved-captcha flood's entries expire with its windows: room for the next test
        GateIt.sleep(Math.max(0, SOLUTIONS_WINDOW_SECONDS * 1000 + 5_000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - floodEnd)));
    }

    @Test
    @Order(6)
    void node_b_keeps_blocked_addresses_and_locked_accounts_when_node_a_stops() {
        String realm = importRealm("cluster-failover", Map.of(
                "perIp.threshold", "3",
                "accountLockout.threshold", "2",
                "perIpAccount.enabled", "false",
                "credentialStuffing.enabled", "false",
                "captcha.enabled", "false"));
        // everything is written through node A only
        String blockedAddress = "203.0.113.70";
        for (int i = 1; i <= 3; i++) {
            assertThat(nodeA.newBrowser().login(realm, "ghost-" + i, "wrong", blockedAddress).status()).isEqualTo(200);
        }
        BrowserLogin.LoginResult fourth = nodeA.newBrowser().login(realm, "ghost-4", "wrong", blockedAddress);
        assertThat(fourth.status()).as(fourth.toString()).isEqualTo(429);
        for (int i = 1; i <= 2; i++) {
            assertThat(nodeA.newBrowser().login(realm, "dave", "wrong-" + i, "198.51.100.2" + i).status()).isEqualTo(200);
        }

        nodeA.close();
        awaitClusterSize(nodeB, 1, Duration.ofSeconds(90));

        BrowserLogin.LoginResult address = nodeB.newBrowser().login(realm, "ghost-5", "wrong", blockedAddress);
        assertThat(address.status()).as("blocked address on node B after node A stopped: %s", address).isEqualTo(429);
        assertThat(address.gateCode()).contains("blocked");
        BrowserLogin.LoginResult dave = nodeB.newBrowser().login(realm, "dave", PASSWORD, "198.51.100.23");
        assertThat(dave.status()).as("locked account on node B after node A stopped: %s", dave).isEqualTo(429);
        assertThat(dave.gateCode()).contains("blocked");
        BrowserLogin.LoginResult erin = nodeB.newBrowser().login(realm, "erin", PASSWORD, "198.51.100.24");
        assertThat(erin.loginSucceeded()).as("node B still lets others in: %s", erin).isTrue();
    }

    @Test
    @Order(8)
    void neither_node_logs_marshalling_errors_or_abuse_gate_errors() {
        List<KeycloakServer> nodes = new ArrayList<>(List.of(nodeA, nodeB));
        if (retiredA != null) {
            nodes.add(retiredA);
        }
        for (KeycloakServer node : nodes) {
            String log = node.logText();
            // First what must be there, so that the absences below are absences from a real, parsed log.
            assertThat(log).as("log of %s", node.name())
                    .contains("Keycloak 26.7.3 on JVM")
                    .contains(DISTRIBUTED_CACHE_LINE);
            assertThat(KeycloakServer.filterLog(log, "INFO", "dev.abusegate"))
                    .as("INFO lines from dev.abusegate in %s (the level/category filter reads this log)", node.name())
                    .anySatisfy(line -> assertThat(line).contains(DISTRIBUTED_CACHE_LINE));
            assertThat(log).as("log of %s", node.name())
                    .doesNotContain("No marshaller registered")
                    .doesNotContain("MarshallingException");
            List<String> problems = new ArrayList<>();
            for (String level : List.of("WARN", "ERROR", "FATAL")) {
                KeycloakServer.filterLog(log, level, "").stream()
                        .filter(l -> l.toLowerCase(Locale.ROOT).contains("marshal"))
                        .forEach(problems::add);
            }
            assertThat(problems).as("marshalling warnings/errors in %s", node.name()).isEmpty();
            assertThat(node.abuseGateErrorLines()).as("ERROR lines from dev.abusegate in %s", node.name()).isEmpty();
        }
    }

    // ------------------------------------------------------------------------------------------

    private static String importRealm(String prefix, Map<String, String> config) {
        String realm = nodeA.admin().importRealm(RealmBuilder.unique(prefix)
                .user("alice", PASSWORD)
                .user("bob", PASSWORD)
                .user("carol", PASSWORD)
                .user("dave", PASSWORD)
                .user("erin", PASSWORD)
                .gatedBrowserFlow("abuse-gate-username-password-form", config));
        realms.add(realm);
        return realm;
    }

    /** The probes that just ran did so during {@code flood}: it has not ended (nor failed) yet. */
    private static void assertStillRunning(Future<?> flood, String what) throws Exception {
        if (flood.isDone()) {
            flood.get(); // a failed flood throws its failure here
            throw new AssertionError(what + " ended before the probes that were to run during it");
        }
    }

    /** Member counts of every ISPN000094 cluster view in the log, in order. */
    private static List<Integer> clusterSizes(String log) {
        List<Integer> sizes = new ArrayList<>();
        Matcher m = CLUSTER_VIEW.matcher(log);
        while (m.find()) {
            sizes.add(Integer.parseInt(m.group(1)));
        }
        return sizes;
    }

    /** Layer 1's count of an address, as the admin API on {@code node} reads it from the cache. */
    private static long attempts(KeycloakServer node, String realm, String address) {
        return GateIt.stateNumber(node.admin().gateState(realm, address, null), "address", "attempts");
    }

    /** Waits until the node's latest cluster view has {@code size} members. */
    private static void awaitClusterSize(KeycloakServer node, int size, Duration timeout) {
        GateIt.awaitValue(node.name() + ": no cluster view with " + size + " members within " + timeout.toSeconds() + " s", timeout,
                () -> {
                    List<Integer> sizes = clusterSizes(node.logText());
                    return Optional.of(size).filter(n -> !sizes.isEmpty() && sizes.get(sizes.size() - 1) == n);
                },
                () -> "views so far: " + clusterSizes(node.logText()) + ". Log tail:\n" + node.tail(60));
    }

    /** KEY=VALUE lines; blank lines and # comments skipped (the subset docker compose's env_file reads the same way). */
    private static Map<String, String> readEnvFile(Path file) {
        Map<String, String> env = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                int eq = l.indexOf('=');
                if (eq <= 0 || !l.startsWith("KC_")) {
                    throw new IllegalStateException(file + ": expected KC_NAME=value, got: " + line);
                }
                env.put(l.substring(0, eq), l.substring(eq + 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!"ispn".equals(env.get("KC_CACHE")) || !"postgres".equals(env.get("KC_DB"))) {
            throw new IllegalStateException(file + " must set KC_CACHE=ispn and KC_DB=postgres, has " + env);
        }
        return env;
    }
}
