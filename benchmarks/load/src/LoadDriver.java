import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load driver for benchmarks/load/run.sh. Runs in its own JVM; talks to Keycloak on 127.0.0.1 only.
 *
 * <p>A login attempt is a GET of the login page (fresh cookie jar: the cookies of that GET only) and a
 * POST of the form. The two steps are measured separately: a GET phase fetches N login pages (that is
 * the "bare login-page GET" figure) and keeps their forms; the POST phase then posts exactly those
 * forms. Server CPU comes from /proc/&lt;pid&gt;/stat (utime+stime) of the Keycloak JVM, read before
 * and after each phase.
 *
 * <p>A cluster: several base URLs and JVM pids, comma-separated. Attempt i goes to node i mod n, its GET
 * and its POST to the same node (the form's action URL names the node that rendered it, as behind a
 * sticky load balancer); CPU is the sum over the JVMs.
 *
 * <p>With {@code -DseqN=N} (default 0: off), each round also times N sequential attempts on the blocking
 * flow: the login-page GET and the blocked POST of each attempt, one request at a time. Latency
 * percentiles: median and p90; p99 as well when a round has at least 100 samples per side.
 *
 * <p>With {@code -Dfill=N} (default 0: off), the rounds are run twice on the same server: first on the unfilled
 * store, then after a flood of N fresh subjects with blank passwords (an address and a pair entry each, nothing
 * verified) and {@code -DfillVerified=M} more with wrong passwords for unknown usernames (an account failure
 * each as well), all on the allowing flow, so that both caches are past the bounds the server was started with.
 * The rounds on the filled store draw their allowed and latency addresses afresh per round (from 100.64.0.0/10),
 * so that each of them has to find room in a full table; the blocked address primed before the unfilled rounds
 * must still be blocked. Both summaries are printed, then the filled/unfilled ratios.
 *
 * <p>Usage: LoadDriver baseUrl[,baseUrl...] keycloakJvmPid[,pid...] rounds concurrency
 */
public final class LoadDriver {

    static final String REALM = "bench";
    static final String USER = "bench";
    static final String WRONG_PASSWORD = "not-the-password";
    static final String BLOCKED_ADDRESS = "203.0.113.10";
    static final Pattern ACTION = Pattern.compile("action=\"([^\"]*login-actions/authenticate[^\"]*)\"");

    static final int BLOCK_N = Integer.getInteger("blockN", 600);
    static final int VERIFY_N = Integer.getInteger("verifyN", 40);
    static final int LATENCY_N = Integer.getInteger("latencyN", 60);
    static final int SEQ_N = Integer.getInteger("seqN", 0);
    static final int WARMUP = Integer.getInteger("warmup", 1);
    static final long PHASE_MAX_MS = Long.getLong("phaseMaxMs", 60_000);
    static final long CLK_TCK = Long.getLong("clkTck", 100);
    static final int FILL = Integer.getInteger("fill", 0);
    static final int FILL_VERIFIED = Integer.getInteger("fillVerified", 0);

    final List<String> bases;
    final long[] pids;
    final int concurrency;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();

    LoadDriver(List<String> bases, long[] pids, int concurrency) {
        this.bases = bases;
        this.pids = pids;
        this.concurrency = concurrency;
    }

    /** The node attempt i goes to. */
    String node(int i) {
        return bases.get(i % bases.size());
    }

    /** Percentiles reported for a latency series of n samples per round: p99 only when it means something. */
    static int[] percentiles(int n) {
        return n >= 100 ? new int[] {50, 90, 99} : new int[] {50, 90};
    }

    static String pctName(int p) {
        return p == 50 ? "median" : "p" + p;
    }

    record Form(String action, String cookies, String address) {
    }

    /** One phase's result. */
    record Phase(String name, int ok, int errors, double seconds, double cpuSeconds, List<String> errorSamples) {
        double perSecond() {
            return ok / seconds;
        }

        double cpuPer1000() {
            return ok == 0 ? Double.NaN : cpuSeconds * 1000.0 / ok;
        }
    }

    // ---------------------------------------------------------------- HTTP steps

    Form getLoginPage(String base, String clientId, String address) throws IOException, InterruptedException {
        String url = base + "/realms/" + REALM + "/protocol/openid-connect/auth?client_id=" + clientId
                + "&response_type=code&scope=openid&redirect_uri=" + enc("http://127.0.0.1/cb");
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).header("X-Forwarded-For", address)
                .timeout(Duration.ofSeconds(30)).GET().build();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + r.statusCode());
        }
        Matcher m = ACTION.matcher(r.body());
        if (!m.find()) {
            throw new IOException("no login form");
        }
        StringBuilder cookies = new StringBuilder();
        for (String sc : r.headers().allValues("set-cookie")) {
            String nv = sc.split(";", 2)[0];
            if (cookies.length() > 0) {
                cookies.append("; ");
            }
            cookies.append(nv);
        }
        String action = m.group(1).replace("&amp;", "&");
        if (!action.startsWith(base + "/")) {
            throw new IOException("form posts to another node: " + action.substring(0, Math.min(action.length(), 40)));
        }
        return new Form(action, cookies.toString(), address);
    }

    /** Posts the form; returns "blocked", "invalid" (wrong password page), or throws on anything else. */
    String post(Form f, String password) throws IOException, InterruptedException {
        return post(f, USER, password);
    }

    String post(Form f, String username, String password) throws IOException, InterruptedException {
        String body = "username=" + enc(username) + "&password=" + enc(password) + "&credentialId=";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.action())).header("X-Forwarded-For", f.address())
                .header("Content-Type", "application/x-www-form-urlencoded").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!f.cookies().isEmpty()) {
            b.header("Cookie", f.cookies());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String s = r.body();
        if (r.statusCode() == 429 && s.contains("data-code=\"blocked\"")) {
            return "blocked";
        }
        if (r.statusCode() == 200 && s.contains("id=\"input-error")) {
            return "invalid";
        }
        if (r.statusCode() == 302) {
            return "login";
        }
        throw new IOException("POST " + r.statusCode() + " " + snippet(s));
    }

    // ---------------------------------------------------------------- phases

    interface Step {
        void run(int i) throws Exception;
    }

    Phase phase(String name, int n, Step step) throws InterruptedException {
        return phase(name, n, step, PHASE_MAX_MS);
    }

    Phase phase(String name, int n, Step step, long maxMillis) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        long cpu0 = cpuTicks();
        long t0 = System.nanoTime();
        Thread[] ts = new Thread[concurrency];
        for (int w = 0; w < concurrency; w++) {
            ts[w] = new Thread(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n && System.nanoTime() < deadline) {
                    try {
                        step.run(i);
                        ok.incrementAndGet();
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        if (samples.size() < 3) {
                            samples.add(String.valueOf(e.getMessage()));
                        }
                    }
                }
            });
            ts[w].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuTicks() - cpu0) / (double) CLK_TCK;
        return new Phase(name, ok.get(), errors.get(), secs, cpu, new ArrayList<>(samples));
    }

    List<Form> collect(Map<String, List<Phase>> results, String name, String clientId, int n, java.util.function.IntFunction<String> address)
            throws InterruptedException {
        Form[] forms = new Form[n];
        Phase p = phase(name, n, i -> forms[i] = getLoginPage(node(i), clientId, address.apply(i)));
        results.computeIfAbsent(name, k -> new ArrayList<>()).add(p);
        List<Form> out = new ArrayList<>();
        for (Form f : forms) {
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    void postAll(Map<String, List<Phase>> results, String name, List<Form> forms, String expect) throws InterruptedException {
        Phase p = phase(name, forms.size(), i -> {
            String got = post(forms.get(i), WRONG_PASSWORD);
            if (!got.equals(expect)) {
                throw new IOException("expected " + expect + ", got " + got);
            }
        });
        results.computeIfAbsent(name, k -> new ArrayList<>()).add(p);
    }

    /**
     * Sequential, alternating gate/stock so both see the same background load; only the POST is timed.
     * Pair i goes to node i mod n. Adds one value per percentile to pcts.get(percentile).get(side).
     */
    void latency(Map<Integer, Map<String, List<Double>>> pcts, List<String> errs, java.util.function.IntFunction<String> address)
            throws Exception {
        double[] gate = new double[LATENCY_N];
        double[] stock = new double[LATENCY_N];
        for (int i = 0; i < LATENCY_N; i++) {
            for (int side = 0; side < 2; side++) {
                boolean g = (i + side) % 2 == 0;
                String addr = address.apply(i);
                Form f = getLoginPage(node(i), g ? "gate-allow-app" : "stock-app", addr);
                long t0 = System.nanoTime();
                String got = post(f, WRONG_PASSWORD);
                double ms = (System.nanoTime() - t0) / 1e6;
                if (!got.equals("invalid")) {
                    errs.add((g ? "gate" : "stock") + ": expected invalid, got " + got);
                }
                (g ? gate : stock)[i] = ms;
            }
        }
        record(pcts, "gate", gate, LATENCY_N);
        record(pcts, "stock", stock, LATENCY_N);
    }

    /** Sequential attempts on the blocking flow: GET login page and blocked POST each timed; attempt i on node i mod n. */
    void sequentialBlocked(Map<Integer, Map<String, List<Double>>> pcts, List<String> errs) throws Exception {
        double[] get = new double[SEQ_N];
        double[] blocked = new double[SEQ_N];
        for (int i = 0; i < SEQ_N; i++) {
            long t0 = System.nanoTime();
            Form f = getLoginPage(node(i), "gate-block-app", BLOCKED_ADDRESS);
            long t1 = System.nanoTime();
            String got = post(f, WRONG_PASSWORD);
            long t2 = System.nanoTime();
            if (!got.equals("blocked")) {
                errs.add("sequential blocked: expected blocked, got " + got);
            }
            get[i] = (t1 - t0) / 1e6;
            blocked[i] = (t2 - t1) / 1e6;
        }
        record(pcts, "get", get, SEQ_N);
        record(pcts, "blocked", blocked, SEQ_N);
    }

    static void record(Map<Integer, Map<String, List<Double>>> pcts, String side, double[] samples, int n) {
        double[] s = samples.clone();
        Arrays.sort(s);
        for (int p : percentiles(n)) {
            pcts.computeIfAbsent(p, k -> new LinkedHashMap<>()).computeIfAbsent(side, k -> new ArrayList<>()).add(pct(s, p));
        }
    }

    // ---------------------------------------------------------------- main

    public static void main(String[] args) throws Exception {
        List<String> bases = List.of(args[0].split(","));
        long[] pids = Arrays.stream(args[1].split(",")).mapToLong(Long::parseLong).toArray();
        LoadDriver d = new LoadDriver(bases, pids, Integer.parseInt(args[3]));
        int rounds = Integer.parseInt(args[2]);
        d.run(rounds);
    }

    /** One measurement's medians per round: throughput and CPU per phase, latency percentiles per side. */
    record Measured(Map<String, double[]> tput, Map<String, double[]> cpu, Map<Integer, Map<String, List<Double>>> lat) {
    }

    void run(int rounds) throws Exception {
        boolean cluster = bases.size() > 1;
        System.out.printf("load driver: %s%s, Keycloak JVM pid%s %s, %d rounds (+%d warm-up), concurrency %d, "
                + "per round: %d blocked, %d password-verifying (stock) and %d allowed (gate) attempts, latency %d+%d sequential%s%n",
                String.join(", ", bases), cluster ? " (" + bases.size() + " nodes, attempt i on node i mod " + bases.size() + ")" : "",
                cluster ? "s" : "", Arrays.stream(pids).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining(", ")),
                rounds, WARMUP, concurrency, BLOCK_N, VERIFY_N, VERIFY_N, LATENCY_N, LATENCY_N,
                SEQ_N > 0 ? ", blocking flow " + SEQ_N + " sequential" : "");

        // Prime: the first attempt from BLOCKED_ADDRESS is let through (perIp.threshold=1); from then on it is blocked,
        // on every node (the counter lives on its owners, not on the node that took the attempt).
        String primed = post(getLoginPage(node(0), "gate-block-app", BLOCKED_ADDRESS), WRONG_PASSWORD);
        System.out.println("priming attempt from " + BLOCKED_ADDRESS + " on gate-block-app: " + primed);
        for (int n = 0; n < bases.size(); n++) {
            String check = post(getLoginPage(node(n), "gate-block-app", BLOCKED_ADDRESS), WRONG_PASSWORD);
            System.out.println((cluster ? "next attempt on node " + (n + 1) + ": " : "second attempt: ") + check);
            if (!check.equals("blocked")) {
                throw new IllegalStateException("the gate-block flow does not block; check the realm import");
            }
        }

        if (FILL == 0) {
            measure(rounds, null);
            return;
        }
        Measured unfilled = measure(rounds, "the unfilled store");
        fill();
        Measured filled = measure(rounds, "the store filled past its bounds");
        System.out.println();
        System.out.println("=== Filled vs unfilled store (same server, same bounds): ratio of the medians | per round: median [min .. max] ===");
        for (String phase : List.of("POST blocked (gate, 429)", "POST wrong password (gate allowed, argon2)", "GET login page (gate-allow-app)")) {
            ratio("server CPU per 1,000, " + pad(phase, 44) + " full/unfilled", filled.cpu().get(phase), unfilled.cpu().get(phase));
            ratio("requests/s,           " + pad(phase, 44) + " full/unfilled", filled.tput().get(phase), unfilled.tput().get(phase));
        }
        for (int p : percentiles(LATENCY_N)) {
            ratio("gate allowed POST latency " + pad(pctName(p), 6) + " full/unfilled", arr(filled.lat().get(p).get("gate")),
                    arr(unfilled.lat().get(p).get("gate")));
        }
    }

    /**
     * The flood: fresh addresses and usernames on the allowing flow (thresholds far away, so nothing is blocked):
     * {@link #FILL} blank passwords, then {@link #FILL_VERIFIED} wrong ones for unknown usernames.
     */
    void fill() throws InterruptedException {
        System.out.println();
        System.out.printf("=== Filling the store: %d blank passwords, then %d wrong passwords for unknown usernames, each from a fresh"
                + " address (10.0.0.0/8) with a fresh username ===%n", FILL, FILL_VERIFIED);
        for (int kind = 0; kind < 2; kind++) {
            int n = kind == 0 ? FILL : FILL_VERIFIED;
            int base = kind == 0 ? 0 : FILL;
            String password = kind == 0 ? "" : WRONG_PASSWORD;
            Phase p = phase(kind == 0 ? "fill: blank password" : "fill: wrong password, unknown username", n, i -> {
                int k = base + i;
                Form f = getLoginPage(node(i), "gate-allow-app", "10." + (k >> 16 & 0xff) + "." + (k >> 8 & 0xff) + "." + (k & 0xff));
                String got = post(f, "fill-" + k, password);
                if (!got.equals("invalid")) {
                    throw new IOException("expected invalid, got " + got);
                }
            }, PHASE_MAX_MS * 20);
            System.out.printf("    %-45s ok %5d err %3d  %7.2f s  %8.1f /s  cpu %6.2f s%s%n", p.name(), p.ok(), p.errors(), p.seconds(),
                    p.perSecond(), p.cpuSeconds(), p.errors() > 0 ? "  errors e.g. " + p.errorSamples() : "");
        }
    }

    /** The rounds and their summary; {@code label} names the store's state (null: the plain run). */
    Measured measure(int rounds, String label) throws Exception {
        boolean cluster = bases.size() > 1;
        boolean fresh = label != null && FILL > 0 && label.contains("filled past");
        if (label != null) {
            System.out.println();
            System.out.println("######## Rounds on " + label + " ########");
            if (fresh) {
                String check = post(getLoginPage(node(0), "gate-block-app", BLOCKED_ADDRESS), WRONG_PASSWORD);
                System.out.println("the address blocked before the flood, after it: " + check);
                if (!check.equals("blocked")) {
                    throw new IllegalStateException("the flood unblocked " + BLOCKED_ADDRESS);
                }
            }
        }
        Map<String, List<Phase>> results = new LinkedHashMap<>();
        for (String name : List.of("GET login page (gate-block-app)", "POST blocked (gate, 429)", "GET login page (stock-app)",
                "POST wrong password (stock, argon2)", "GET login page (gate-allow-app)", "POST wrong password (gate allowed, argon2)")) {
            results.put(name, new ArrayList<>());
        }
        // percentile -> side -> one value per round
        Map<Integer, Map<String, List<Double>>> lat = new LinkedHashMap<>();
        Map<Integer, Map<String, List<Double>>> seq = new LinkedHashMap<>();
        List<String> latencyErrors = new ArrayList<>();
        for (int r = 1 - WARMUP; r <= rounds; r++) {
            boolean warm = r <= 0;
            Map<String, List<Phase>> into = warm ? new LinkedHashMap<>() : results;
            long t0 = System.nanoTime();
            List<Form> blockForms = collect(into, "GET login page (gate-block-app)", "gate-block-app", BLOCK_N, i -> BLOCKED_ADDRESS);
            postAll(into, "POST blocked (gate, 429)", blockForms, "blocked");
            // Stock and gate-allowed phases swap places every round, so that neither always pays for the
            // garbage (argon2 allocates its memory blocks per hash) or JIT work the other one left behind.
            for (int side = 0; side < 2; side++) {
                if ((side + r) % 2 == 1) {
                    List<Form> stockForms = collect(into, "GET login page (stock-app)", "stock-app", VERIFY_N, i -> "198.51.100." + (1 + i % 200));
                    postAll(into, "POST wrong password (stock, argon2)", stockForms, "invalid");
                } else {
                    int round = r + WARMUP;
                    List<Form> allowForms = collect(into, "GET login page (gate-allow-app)", "gate-allow-app", VERIFY_N,
                            fresh ? i -> "100.64." + round + "." + (1 + i % 250) : i -> "192.0.2." + (1 + i % 200));
                    postAll(into, "POST wrong password (gate allowed, argon2)", allowForms, "invalid");
                }
            }
            int round = r + WARMUP;
            latency(warm ? new LinkedHashMap<>() : lat, latencyErrors,
                    fresh ? i -> "100.65." + round + "." + (1 + i % 250) : i -> "198.51.100." + (1 + (i % 200)));
            if (SEQ_N > 0) {
                sequentialBlocked(warm ? new LinkedHashMap<>() : seq, latencyErrors);
            }
            System.out.printf("%s %d done in %.1f s%n", warm ? "warm-up round" : "round", r, (System.nanoTime() - t0) / 1e9);
            for (Map.Entry<String, List<Phase>> e : into.entrySet()) {
                Phase p = e.getValue().get(e.getValue().size() - 1);
                System.out.printf("    %-45s ok %5d err %3d  %7.2f s  %8.1f /s  cpu %6.2f s  %7.3f cpu-s/1000%s%n", p.name(), p.ok(),
                        p.errors(), p.seconds(), p.perSecond(), p.cpuSeconds(), p.cpuPer1000(),
                        p.errors() > 0 ? "  errors e.g. " + p.errorSamples() : "");
            }
            if (!warm) {
                System.out.printf("    latency POST wrong password: gate %s | stock %s%n", lastRound(lat, "gate"), lastRound(lat, "stock"));
                if (SEQ_N > 0) {
                    System.out.printf("    latency blocking flow, sequential: GET login page %s | POST blocked %s%n",
                            lastRound(seq, "get"), lastRound(seq, "blocked"));
                }
            }
        }

        System.out.println();
        System.out.println("=== Summary: median over " + rounds + " rounds [min .. max] ===");
        System.out.println();
        System.out.printf("| %-45s | %-28s | %-28s | %-6s |%n", "Phase (one HTTP request per attempt step)", "requests/s", "server CPU s per 1,000", "errors");
        System.out.println("|" + "-".repeat(47) + "|" + "-".repeat(30) + "|" + "-".repeat(30) + "|" + "-".repeat(8) + "|");
        Map<String, double[]> tput = new LinkedHashMap<>();
        Map<String, double[]> cpu = new LinkedHashMap<>();
        for (Map.Entry<String, List<Phase>> e : results.entrySet()) {
            double[] t = e.getValue().stream().mapToDouble(Phase::perSecond).toArray();
            double[] c = e.getValue().stream().mapToDouble(Phase::cpuPer1000).toArray();
            int errs = e.getValue().stream().mapToInt(Phase::errors).sum();
            tput.put(e.getKey(), t);
            cpu.put(e.getKey(), c);
            System.out.printf("| %-45s | %-28s | %-28s | %6d |%n", e.getKey(), fmt(t, 1), fmt(c, 3), errs);
        }
        System.out.println();
        System.out.println("Latency of one POST, sequential (no concurrency), wrong password on both sides, ms:");
        latencyTable("Form", lat, new String[] {"gate", "stock"},
                new String[] {"abuse-gate-username-password-form", "auth-username-password-form (stock)"});
        if (SEQ_N > 0) {
            System.out.println();
            System.out.println("Latency of one request on the blocking flow (gate-block-app), sequential (no concurrency), ms:");
            latencyTable("Request", seq, new String[] {"get", "blocked"},
                    new String[] {"GET login page (gate-block-app)", "POST blocked (gate, 429)"});
        }
        if (!latencyErrors.isEmpty()) {
            System.out.println("latency errors: " + latencyErrors.size() + " e.g. " + latencyErrors.subList(0, Math.min(3, latencyErrors.size())));
        }

        System.out.println();
        System.out.println("=== Ratios (same run): ratio of the medians above | per round: median [min .. max] of the per-round ratios ===");
        String blk = "POST blocked (gate, 429)";
        String pw = "POST wrong password (stock, argon2)";
        String get = "GET login page (gate-block-app)";
        String allow = "POST wrong password (gate allowed, argon2)";
        ratio("blocked POST/s  vs  password-verifying POST/s (target >= 20)", tput.get(blk), tput.get(pw));
        ratio("blocked POST/s  vs  bare login-page GET/s      (target >= 0.8)", tput.get(blk), tput.get(get));
        ratio("gate allowed POST latency median vs stock     (target <= 1.05)", arr(lat.get(50).get("gate")), arr(lat.get(50).get("stock")));
        ratio("gate allowed POST latency p90    vs stock", arr(lat.get(90).get("gate")), arr(lat.get(90).get("stock")));
        if (lat.containsKey(99)) {
            ratio("gate allowed POST latency p99    vs stock", arr(lat.get(99).get("gate")), arr(lat.get(99).get("stock")));
        }
        if (SEQ_N > 0) {
            for (int p : percentiles(SEQ_N)) {
                ratio("blocked POST latency " + pad(pctName(p), 6) + " vs login-page GET", arr(seq.get(p).get("blocked")), arr(seq.get(p).get("get")));
            }
        }
        ratio("gate allowed POST/s vs stock POST/s (throughput)", tput.get(allow), tput.get(pw));
        ratio("CPU per 1,000: password-verifying vs blocked", cpu.get(pw), cpu.get(blk));
        ratio("CPU per 1,000: gate allowed vs stock", cpu.get(allow), cpu.get(pw));
        if (cluster || lat.containsKey(99)) {
            System.out.println();
            System.out.println("=== Added latency (same run), ms: difference of the medians above | per round: median [min .. max] of the per-round differences ===");
            for (int p : percentiles(LATENCY_N)) {
                diff("gate allowed POST minus stock POST, " + pctName(p), arr(lat.get(p).get("gate")), arr(lat.get(p).get("stock")));
            }
            if (SEQ_N > 0) {
                for (int p : percentiles(SEQ_N)) {
                    diff("blocked POST minus login-page GET, " + pctName(p), arr(seq.get(p).get("blocked")), arr(seq.get(p).get("get")));
                }
            }
        }
        return new Measured(tput, cpu, lat);
    }

    void latencyTable(String what, Map<Integer, Map<String, List<Double>>> pcts, String[] sides, String[] labels) {
        StringBuilder head = new StringBuilder(String.format("| %-40s |", what));
        StringBuilder rule = new StringBuilder("|" + "-".repeat(42) + "|");
        for (int p : pcts.keySet()) {
            head.append(String.format(" %-26s |", pctName(p)));
            rule.append("-".repeat(28)).append("|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (int i = 0; i < sides.length; i++) {
            StringBuilder row = new StringBuilder(String.format("| %-40s |", labels[i]));
            for (Map<String, List<Double>> bySide : pcts.values()) {
                row.append(String.format(" %-26s |", fmt(arr(bySide.get(sides[i])), 1)));
            }
            System.out.println(row);
        }
    }

    static String lastRound(Map<Integer, Map<String, List<Double>>> pcts, String side) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Integer, Map<String, List<Double>>> e : pcts.entrySet()) {
            b.append(b.length() > 0 ? " " : "").append(String.format("%s %.1f ms", pctName(e.getKey()), last(e.getValue().get(side))));
        }
        return b.toString();
    }

    static void diff(String label, double[] a, double[] b) {
        double[] per = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            per[i] = a[i] - b[i];
        }
        Arrays.sort(per);
        System.out.printf("  %-66s %+8.2f  | %+.2f [%+.2f .. %+.2f]%n", label, median(a) - median(b), median(per), per[0], per[per.length - 1]);
    }

    static String pad(String s, int width) {
        return String.format("%-" + width + "s", s);
    }

    static void ratio(String label, double[] a, double[] b) {
        double[] per = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            per[i] = a[i] / b[i];
        }
        Arrays.sort(per);
        System.out.printf("  %-66s %8.3f  | %.3f [%.3f .. %.3f]%n", label, median(a) / median(b), median(per), per[0], per[per.length - 1]);
    }

    // ---------------------------------------------------------------- helpers

    /** utime+stime of the Keycloak JVMs, summed. */
    long cpuTicks() {
        long sum = 0;
        for (long pid : pids) {
            try {
                String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                // after "pid (comm) ": f[0] is state (field 3); utime is field 14, stime field 15
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read /proc/" + pid + "/stat", e);
            }
        }
        return sum;
    }

    static String fmt(double[] v, int decimals) {
        double[] s = v.clone();
        Arrays.sort(s);
        String f = "%." + decimals + "f";
        return String.format(f + " [" + f + " .. " + f + "]", median(s), s[0], s[s.length - 1]);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Nearest-rank percentile of a sorted array. */
    static double pct(double[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    static double[] arr(List<Double> l) {
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static double last(List<Double> l) {
        return l.get(l.size() - 1);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String snippet(String s) {
        String t = s.replaceAll("\\s+", " ");
        int i = t.indexOf("<title>");
        return i >= 0 ? t.substring(i, Math.min(t.length(), i + 120)) : t.substring(0, Math.min(120, t.length()));
    }
}
