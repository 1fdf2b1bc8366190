package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.TokenClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * Floods of the shapes issue 24 lists, against the token endpoint of a realm with an ALTCHA band, and probes that
 * show what a subject outside the flood meets: each layer's threshold and its captcha band, as a sequence of
 * client-visible answers ({@code allowed} = 401 invalid_grant after a checked password, {@code captcha} = 429
 * captcha_required, {@code blocked} = 429 blocked). A probe solves the offered ALTCHA when asked, once per
 * attempt, and sends the same attempt again with the solution.
 *
 * <p>Thresholds (captcha factor 0.5, so every band starts at 2): per address 4, per address and account 3,
 * distinct usernames per address 3, account lockout 3, all with 900 s windows, so the flood's entries outlive
 * the test.
 */
final class FloodProbes {

    public static final String PASSWORD = "probe-Passw0rd!";
    public static final String ALLOWED = "allowed";
    public static final String CAPTCHA = "captcha";
    public static final String BLOCKED = "blocked";

    /** Layer 1, usernames alternating between two: two let through, two more with a captcha each, then blocked. */
    public static final List<String> LAYER_1 = List.of(ALLOWED, ALLOWED, CAPTCHA, ALLOWED, CAPTCHA, ALLOWED, BLOCKED);
    /** Layer 2, one username: two let through, one more with a captcha, then blocked. */
    public static final List<String> LAYER_2 = List.of(ALLOWED, ALLOWED, CAPTCHA, ALLOWED, BLOCKED);
    /** Layer 1 with the band off: four let through, then blocked. */
    public static final List<String> LAYER_1_BAND_OFF = List.of(ALLOWED, ALLOWED, ALLOWED, ALLOWED, BLOCKED);
    /** Layer 3, wrong passwords for one account from fresh addresses, then the right one: refused. */
    public static final List<String> LAYER_3 = List.of(ALLOWED, ALLOWED, CAPTCHA, ALLOWED, BLOCKED);
    /** Layer 4, a fresh username per attempt: two let through, one more with a captcha, then blocked. */
    public static final List<String> LAYER_4 = List.of(ALLOWED, ALLOWED, CAPTCHA, ALLOWED, BLOCKED);

    /** Requests a flood has in flight at once (the floods other than {@link #floodIpv4}'s, which runs a probe halfway). */
    public static final int FLOOD_THREADS = 4;

    /** Probe accounts per realm (layer 3 needs a fresh one per probe). */
    public static final int ACCOUNTS = 8;

    private static final AtomicInteger NEXT = new AtomicInteger();

    private final KeycloakServer server;
    private final TokenClient client;

    public FloodProbes(KeycloakServer server) {
        this.server = server;
        this.client = new TokenClient(server.baseUrl());
    }

    public static Map<String, String> config() {
        Map<String, String> c = new HashMap<>();
        c.put("captcha.enabled", "true");
        c.put("captcha.provider", "altcha");
        c.put("captcha.secret", "flood-altcha-" + UUID.randomUUID());
        c.put("captcha.altcha.maxNumber", "1000");
        c.put("captcha.factor", "0.5");
        c.put("perIp.threshold", "4");
        c.put("perIp.windowSeconds", "900");
        c.put("perIpAccount.threshold", "3");
        c.put("perIpAccount.windowSeconds", "900");
        c.put("credentialStuffing.threshold", "3");
        c.put("credentialStuffing.windowSeconds", "900");
        c.put("accountLockout.threshold", "3");
        c.put("accountLockout.windowSeconds", "900");
        c.put("accountLockout.lockoutSeconds", "900");
        return c;
    }

    /** A realm with the probe accounts and the gate on the token endpoint. */
    public String realm(String prefix) {
        return realm(prefix, config());
    }

    /**
     * As {@link #realm(String)}, with every window (and the lockout) {@code windowSeconds} long: a flood there
     * leaves nothing behind for long.
     */
    public String realm(String prefix, long windowSeconds) {
        Map<String, String> c = config();
        for (String layer : List.of("perIp", "perIpAccount", "credentialStuffing", "accountLockout")) {
            c.put(layer + ".windowSeconds", Long.toString(windowSeconds));
        }
        c.put("accountLockout.lockoutSeconds", Long.toString(windowSeconds));
        return realm(prefix, c);
    }

    /** As {@link #realm(String)}, with the captcha band off ({@code captcha.enabled=false}). */
    public String realmWithoutBand(String prefix) {
        Map<String, String> c = config();
        c.put("captcha.enabled", "false");
        return realm(prefix, c);
    }

    /**
     * Layer 1 in a realm with the band off, on {@code probes} fresh addresses: on its own count an address gets
     * {@code LAYER_1_BAND_OFF}; on a shared count (a store at its bound) it is asked for a captcha where an exact count would
     * block, and the ALTCHA offered there passes when solved, so that answer is never a refusal. Returns how many were asked.
     */
    public int assertBandOffAsksForASolvableCaptcha(String realm, int probes, String when) {
        int asked = 0;
        for (int p = 0; p < probes; p++) {
            List<String> seen = new ArrayList<>();
            layer1(realm, seen);
            if (seen.equals(LAYER_1_BAND_OFF)) {
                continue;
            }
            asked++;
            assertThat(seen).as("band off %s: an address not on its own count is asked for a captcha: %s", when, seen).contains(CAPTCHA);
            for (int i = 0; i < seen.size(); i++) {
                if (CAPTCHA.equals(seen.get(i))) {
                    assertThat(seen.get(i + 1)).as("band off %s: the offered captcha, solved, passes: %s", when, seen).isEqualTo(ALLOWED);
                }
            }
            assertThat(letThroughWithoutACaptcha(seen)).as("band off %s: no more let through without a captcha than the threshold: %s", when, seen)
                    .isLessThanOrEqualTo(LAYER_1_BAND_OFF.indexOf(BLOCKED));
            assertThat(seen).as("band off %s: only the answers a gate gives", when).isSubsetOf(ALLOWED, CAPTCHA, BLOCKED);
        }
        return asked;
    }

    private String realm(String prefix, Map<String, String> config) {
        RealmBuilder b = RealmBuilder.unique(prefix);
        for (int i = 0; i < ACCOUNTS; i++) {
            b.user("probe-" + i, PASSWORD);
        }
        return server.admin().importRealm(b.gatedDirectGrantFlow("abuse-gate-direct-grant", config));
    }

    /** A fresh documentation-range address (IPv4 from 198.18.0.0/15, the benchmarking range). */
    public static String freshAddress() {
        int n = NEXT.incrementAndGet();
        return "198.18." + (n >> 8 & 0xff) + "." + (n & 0xff);
    }

    /** One attempt's answer; with {@code solve}, an offered ALTCHA is solved and the attempt sent again. */
    public List<String> attempt(String realm, String username, String password, String address) {
        List<String> out = new ArrayList<>();
        TokenClient.TokenResponse r = client.passwordGrant(realm, username, password, null, address);
        out.add(answer(r));
        if (CAPTCHA.equals(out.get(0))) {
            Object challenge = r.json().get("captcha_challenge");
            assertThat(challenge).as("an ALTCHA challenge with the captcha answer: %s", r).isNotNull();
            String solution = AltchaSolver.solve(Json.write(challenge));
            out.add(answer(client.passwordGrant(realm, username, password, solution, address)));
        }
        return out;
    }

    private static String answer(TokenClient.TokenResponse r) {
        if (r.status() == 429) {
            String error = String.valueOf(r.json().get("error"));
            if ("captcha_required".equals(error)) {
                return CAPTCHA;
            }
            if ("blocked".equals(error)) {
                return BLOCKED;
            }
        }
        if (r.isKeycloakInvalidGrant()) {
            return ALLOWED;
        }
        if (r.status() == 200) {
            return "logged in";
        }
        return r.status() + " " + r.body();
    }

    /**
     * Up to {@code attempts} wrong passwords from {@code address}, the i-th for {@code username.apply(i)}, until one
     * is blocked; captchas solved when asked. The wrong password is the run's own: one password failing for the
     * accounts of many runs would be a spray, which the password-spray layer answers with a captcha before the
     * layers a probe measures.
     */
    private List<String> run(String realm, String address, int attempts, IntFunction<String> username) {
        List<String> seen = new ArrayList<>();
        String wrong = "wrong-run-" + NEXT.incrementAndGet();
        for (int i = 0; i < attempts && !seen.contains(BLOCKED); i++) {
            seen.addAll(attempt(realm, username.apply(i), wrong, address));
        }
        return seen;
    }

    /** Layer 1 on a fresh address; returns the address (blocked afterwards). */
    public String layer1(String realm, List<String> answers) {
        return layer1(realm, answers, 0);
    }

    /** As {@link #layer1(String, List)}, with {@code extra} attempts more before the probe gives up. */
    private String layer1(String realm, List<String> answers, int extra) {
        String address = freshAddress();
        String tag = "l1-" + NEXT.incrementAndGet();
        answers.addAll(run(realm, address, 6 + extra, i -> tag + "-" + (i % 2)));
        return address;
    }

    public List<String> layer2(String realm) {
        return layer2(realm, 0);
    }

    private List<String> layer2(String realm, int extra) {
        String address = freshAddress();
        String user = "l2-" + NEXT.incrementAndGet();
        return run(realm, address, 5 + extra, i -> user);
    }

    /** Layer 3 on the fresh account {@code probe-<account>}: wrong passwords from fresh addresses, then the right one. */
    public List<String> layer3(String realm, int account) {
        String user = "probe-" + account;
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            seen.addAll(attempt(realm, user, "wrong-" + i, freshAddress()));
        }
        seen.addAll(attempt(realm, user, PASSWORD, freshAddress()));
        return seen;
    }

    public List<String> layer4(String realm) {
        return layer4(realm, 0);
    }

    private List<String> layer4(String realm, int extra) {
        String address = freshAddress();
        String tag = "l4-" + NEXT.incrementAndGet();
        return run(realm, address, 5 + extra, i -> tag + "-" + i);
    }

    /** Every layer's probe in {@code realm} (layer 3 on account {@code account}); returns layer 1's blocked address. */
    public String assertEveryLayerMeetsItsThreshold(String realm, int account, String when) {
        List<String> l1 = new ArrayList<>();
        String blocked = layer1(realm, l1);
        assertThat(l1).as("layer 1 and its band %s", when).isEqualTo(LAYER_1);
        assertThat(layer2(realm)).as("layer 2 and its band %s", when).isEqualTo(LAYER_2);
        assertThat(layer3(realm, account)).as("layer 3 on a fresh account %s", when).isEqualTo(LAYER_3);
        assertThat(layer4(realm)).as("layer 4 and its band %s", when).isEqualTo(LAYER_4);
        return blocked;
    }

    /**
     * Every layer's probe in {@code realm} while a flood of subjects seen once runs in the same realm at the same
     * moment (through another node, say). A probe's first attempt leaves entries seen once, and the flood's
     * newcomers may take their place before the probe's second attempt lands: a replaced entry gives its owner back
     * one attempt (docs/clustering.md). An entry seen twice, in the band or blocking is never replaced, so each
     * probe gets its exact answers, or those with at most {@value #MAX_GIVE_BACKS} attempts more let through, and
     * once asked for a captcha it is asked for one before every later attempt until it is blocked. An attempt given
     * back may show only as one more captcha: layer 2's probe sends one name, whose lockout count (layer 3, three
     * failures) stops it after as many wrong passwords as an exact count lets through ({@code GateAtTheBoundTest}).
     * Layer 3 lives in the protective table, which no such flood writes: exact. Returns layer 1's blocked address.
     */
    public String assertEveryLayerHoldsDuringAConcurrentFlood(String realm, int account, String when) {
        List<String> l1 = new ArrayList<>();
        String blocked = layer1(realm, l1, MAX_GIVE_BACKS);
        assertExactOrGivenBack(l1, LAYER_1, "layer 1 and its band " + when);
        assertExactOrGivenBack(layer2(realm, MAX_GIVE_BACKS), LAYER_2, "layer 2 and its band " + when);
        assertThat(layer3(realm, account)).as("layer 3 on a fresh account %s", when).isEqualTo(LAYER_3);
        assertExactOrGivenBack(layer4(realm, MAX_GIVE_BACKS), LAYER_4, "layer 4 and its band " + when);
        return blocked;
    }

    /** Entries seen once that a concurrent flood may replace within one probe, at most. */
    public static final int MAX_GIVE_BACKS = 2;

    private static void assertExactOrGivenBack(List<String> actual, List<String> exact, String what) {
        if (actual.equals(exact)) {
            return;
        }
        System.out.printf("FloodProbes: %s: %s (exact: %s), an entry seen once given back%n", what, actual, exact);
        assertThat(actual).as("%s: only the answers a gate gives", what).isSubsetOf(ALLOWED, CAPTCHA, BLOCKED);
        assertThat(actual).as("%s: the band and the block still come: %s", what, actual).contains(CAPTCHA).endsWith(BLOCKED);
        int given = Collections.frequency(actual, ALLOWED) - Collections.frequency(exact, ALLOWED);
        assertThat(given).as("%s: attempts let through beyond the exact count's %s: %s", what, exact, actual)
                .isBetween(0, MAX_GIVE_BACKS);
        assertThat(letThroughWithoutACaptcha(actual)).as("%s: attempts let through without a captcha: %s (exact: %s)", what, actual, exact)
                .isLessThanOrEqualTo(letThroughWithoutACaptcha(exact) + given);
        for (int i = actual.indexOf(CAPTCHA) + 1; i < actual.size(); i++) {
            if (ALLOWED.equals(actual.get(i))) {
                assertThat(actual.get(i - 1)).as("%s: once asked, every later attempt let through needs a solved captcha: %s", what, actual)
                        .isEqualTo(CAPTCHA);
            }
        }
    }

    /**
     * After a flood of subjects worth more than one attempt each (which no rule may replace), a fresh address
     * that finds no room is counted on a shared counter: toward caution, never silence. Its probe lets no more
     * attempts through without a solved captcha than an exact count would; layer 3 (whose table such a flood does not reach) still locks a fresh account.
     */
    public void assertEveryLayerCautious(String realm, int account, String when) {
        List<String> l1 = new ArrayList<>();
        layer1(realm, l1);
        assertCautious(l1, LAYER_1, "layer 1 " + when);
        assertOnceAskedAlwaysAsked(l1, LAYER_1, "layer 1 " + when);
        List<String> l2 = layer2(realm);
        assertCautious(l2, LAYER_2, "layer 2 " + when);
        assertOnceAskedAlwaysAsked(l2, LAYER_2, "layer 2 " + when);
        List<String> l3 = layer3(realm, account);
        assertCautious(l3, LAYER_3, "layer 3 " + when);
        assertThat(l3.get(l3.size() - 1)).as("layer 3: the fresh account locked by three wrong passwords %s: %s", when, l3)
                .isEqualTo(BLOCKED);
        List<String> l4 = layer4(realm);
        assertCautious(l4, LAYER_4, "layer 4 " + when);
        assertOnceAskedAlwaysAsked(l4, LAYER_4, "layer 4 " + when);
    }

    /**
     * A probe from one address: once it has been asked for a captcha, every later attempt it is let through needs
     * a solved one of its own (a shared count only rises within its window), until the subject finds room in its
     * slot (the flood's entries expire) and starts an exact count of its own. From that attempt on, its answers are
     * an exact count's: the rest of the probe is a run of the exact sequence (with {@link #assertCautious}, no
     * more attempts without a solved captcha than an exact count gives).
     */
    private static void assertOnceAskedAlwaysAsked(List<String> actual, List<String> exact, String what) {
        int asked = actual.indexOf(CAPTCHA);
        for (int i = asked + 1; asked >= 0 && i < actual.size(); i++) {
            if (ALLOWED.equals(actual.get(i)) && !CAPTCHA.equals(actual.get(i - 1))) {
                List<String> rest = actual.subList(i, actual.size());
                assertThat(Collections.indexOfSubList(exact, rest))
                        .as("%s: an attempt let through without a captcha after one was asked for starts an exact count "
                                + "(the rest of the probe a run of %s): %s", what, exact, actual)
                        .isNotNegative();
                return;
            }
        }
    }

    private static void assertCautious(List<String> actual, List<String> exact, String what) {
        if (actual.equals(exact)) {
            return; // the subject found room: an exact count
        }
        // Counted on a shared counter, a subject may be asked for a captcha early (and, where a probe changes
        // address per attempt, as layer 3's does, a later address may find a lower count): what may never happen
        // is more attempts let through without a solved captcha than on an exact count.
        assertThat(letThroughWithoutACaptcha(actual)).as("%s: attempts let through without a captcha: %s (exact: %s)", what, actual, exact)
                .isLessThanOrEqualTo(exact.indexOf(CAPTCHA));
        assertThat(actual).as("%s: only the answers a gate gives", what).isSubsetOf(ALLOWED, CAPTCHA, BLOCKED);
    }

    /** The attempts of a probe let through without a solved captcha (an "allowed" not right after a "captcha"). */
    private static int letThroughWithoutACaptcha(List<String> answers) {
        int n = 0;
        for (int i = 0; i < answers.size(); i++) {
            if (ALLOWED.equals(answers.get(i)) && (i == 0 || !CAPTCHA.equals(answers.get(i - 1)))) {
                n++;
            }
        }
        return n;
    }

    /** The address stays blocked, and the locked account refuses its right password. */
    public void assertStillHeld(String realm, String blockedAddress, int lockedAccount, String when) {
        assertThat(attempt(realm, "someone-else", "wrong", blockedAddress)).as("a blocked address %s", when)
                .containsExactly(BLOCKED);
        // a fresh address on a shared counter is asked for a captcha first; solved, the lock answers
        List<String> lock = attempt(realm, "probe-" + lockedAccount, PASSWORD, freshAddress());
        assertThat(lock).as("a lock %s", when).isIn(List.of(BLOCKED), List.of(CAPTCHA, BLOCKED));
    }

    // ---- floods ----

    /** One cheap request (empty password, fresh username) from each of {@code n} fresh IPv4 addresses. */
    public void floodIpv4(String realm, int n, Runnable halfway) {
        floodIpv4(realm, List.of(server), n, halfway);
    }

    /** As {@link #floodIpv4(String, int, Runnable)}, the requests spread over {@code nodes} in turn. */
    static void floodIpv4(String realm, List<KeycloakServer> nodes, int n, Runnable halfway) {
        List<TokenClient> clients = nodes.stream().map(node -> new TokenClient(node.baseUrl())).toList();
        for (int i = 0; i < n; i++) {
            if (i == n / 2 && halfway != null) {
                halfway.run();
            }
            cheap(clients.get(i % clients.size()), realm, "f4-" + i, "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff));
        }
    }

    /** One cheap request from each of {@code n} fresh IPv6 /64 networks. */
    public void floodIpv6(String realm, int n) {
        inParallel(n, i -> cheap(client, realm, "f6-" + i, "2001:db8:" + Integer.toHexString(i >>> 16) + ":" + Integer.toHexString(i & 0xffff) + "::1"));
    }

    /** Two cheap requests (fresh usernames) from each of {@code n} fresh addresses: entries nothing may replace. */
    public void floodAddressesSeenTwice(String realm, int n) {
        inParallel(n, i -> {
            String address = "172.20." + (i >> 8 & 0xff) + "." + (i & 0xff);
            cheap(client, realm, "f2-" + i + "-a", address);
            cheap(client, realm, "f2-" + i + "-b", address);
        });
    }

    /** {@code n} cheap requests with fresh usernames from one address. */
    public void floodUsernames(String realm, int n, String address) {
        inParallel(n, i -> cheap(client, realm, "fu-" + i, address));
    }

    /** {@code task} for 0 to n - 1, {@value #FLOOD_THREADS} at a time; the first failure fails the flood. */
    static void inParallel(int n, IntConsumer task) {
        ExecutorService pool = Executors.newFixedThreadPool(FLOOD_THREADS);
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < FLOOD_THREADS; w++) {
                workers.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        task.accept(i);
                    }
                }));
            }
            for (Future<?> f : workers) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * From each of {@code n} fresh addresses in turn: cheap requests until the captcha band, then the offered ALTCHA
     * solved and sent with an empty password (the attack that filled the protective cache without a hash).
     * Returns the solutions sent, for {@link #assertNoRecordWritten}.
     */
    public List<String> floodEmptyPasswordSolutions(String realm, int n) {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String address = "172.16." + (i >> 8 & 0xff) + "." + (i & 0xff);
            TokenClient.TokenResponse r = null;
            // The band comes at the 3rd request; a once-seen entry replaced by the flood (in a realm whose windows
            // are shorter than the flood's, it expires first) gives its address back one attempt, hence the margin.
            for (int j = 0; j < 12; j++) {
                r = client.passwordGrant(realm, "fc-" + i + "-" + j, "", null, address);
                if (r.status() == 429) {
                    break;
                }
            }
            assertThat(r.status()).as("the band reached: %s", r).isEqualTo(429);
            Object challenge = r.json().get("captcha_challenge");
            if (challenge == null) {
                continue;
            }
            String solution = AltchaSolver.solve(Json.write(challenge));
            TokenClient.TokenResponse s = client.passwordGrant(realm, "fc-" + i + "-x", "", solution, address);
            assertThat(s.status()).as("a solution with an empty password: %s", s).isIn(400, 401, 429);
            sent.add(solution);
        }
        return sent;
    }

    /**
     * A solution once sent with an empty password left no used-solution record: it is still accepted, once, for
     * an attempt that checks a password, and refused as a replay after that.
     *
     * <p>Each use goes to an account with two wrong passwords (layer 3's band), so that it is in the band on an
     * exact count whatever its address meets: layer 3's failures live in the protective table, which no flood
     * without a hash fills, while a fresh address in a full cheap table is on a shared count and may find room
     * between two requests, starting an exact count below the band (the documented hand-over), where a solution
     * is never looked at.
     */
    public void assertNoRecordWritten(String realm, String solution) {
        String tag = "replay-" + NEXT.incrementAndGet();
        String first = accountInBand(realm, tag + "-a");
        assertThat(answer(client.passwordGrant(realm, first, "wrong", null, freshAddress())))
                .as("the first use's account, without a solution, right before it").isEqualTo(CAPTCHA);
        TokenClient.TokenResponse used = client.passwordGrant(realm, first, "wrong", solution, freshAddress());
        assertThat(answer(used)).as("the solution sent with an empty password, now with a password: %s", used)
                .isEqualTo(ALLOWED);
        String second = accountInBand(realm, tag + "-b");
        TokenClient.TokenResponse replay = client.passwordGrant(realm, second, "wrong", solution, freshAddress());
        assertThat(answer(replay)).as("the same solution once more: a replay: %s (first use: %s)", replay, used)
                .isEqualTo(CAPTCHA);
    }

    /**
     * The identifier {@code username} given two wrong passwords, each from a fresh address (a captcha its address
     * asks for solved), so that every attempt for it is in layer 3's band; returns it.
     */
    private String accountInBand(String realm, String username) {
        for (int i = 0; i < 2; i++) {
            List<String> seen = attempt(realm, username, "wrong", freshAddress());
            assertThat(seen.get(seen.size() - 1)).as("wrong password %d for %s on the way to the band: %s", i + 1, username, seen)
                    .isEqualTo(ALLOWED);
        }
        return username;
    }

    private static void cheap(TokenClient client, String realm, String username, String address) {
        TokenClient.TokenResponse r = client.passwordGrant(realm, username, "", null, address);
        assertThat(r.status()).as("flood request: %s", r).isIn(400, 401, 429);
    }
}
