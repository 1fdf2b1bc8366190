package dev.abusegate.benchmarks.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The availability benchmark's driver (started by benchmarks/attack/run.sh against a running Keycloak): real
 * users log in at a fixed rate in this JVM while {@link AttackClient}, in a JVM of its own, attacks one realm at
 * a time. Per phase it reads Keycloak's stored login events (admin API), the CPU of Keycloak, of the attack
 * client and of this driver ({@code /proc/<pid>/stat}), then writes the markdown table, the raw TSV and the PNG.
 *
 * <p>Settings are environment variables (see benchmarks/attack/README.md); {@code -Drender=<tsv>} only re-renders
 * the table and plot from a finished run's raw TSV.
 */
public final class AttackRun {

    static final long CLK_TCK = Long.getLong("clkTck", 100);
    static final Pattern EVENT_ERROR = Pattern.compile("\"error\":\"([^\"]*)\"");
    static final Pattern EVENT_IP = Pattern.compile("\"ipAddress\":\"([^\"]*)\"");
    static final Pattern EVENT_TYPE = Pattern.compile("\"type\":\"([^\"]*)\"");
    /**
     * LOGIN_ERROR errors after which Keycloak 26.7.3 has computed a password hash (read in its services module):
     * {@code invalid_user_credentials} (the password was checked; we never send an empty one, which is not
     * hashed), {@code user_not_found} (an unknown name: {@code AuthenticatorUtils.dummyHash} on the form and on
     * the password grant); on the password grant also {@code user_temporarily_disabled}, {@code user_disabled}
     * (Keycloak's own brute-force lock: {@code ValidateUsername} hashes a dummy; the form does not) and
     * {@code invalid_user} (a service account). A successful {@code LOGIN} is a hash too (the real users').
     */
    static boolean hashed(String endpoint, String error) {
        return switch (error) {
            case "invalid_user_credentials", "user_not_found" -> true;
            case "user_temporarily_disabled", "user_disabled", "invalid_user" -> endpoint.equals("token");
            default -> false;
        };
    }

    final String base = System.getProperty("base");
    final long kcPid = Long.getLong("kcPid", 0);
    final Path work = Path.of(System.getProperty("work", "benchmarks/attack/target/run"));
    final List<Double> rates = doubles(env("RATES", "10 50 200 800"));
    final List<String> shapes = List.of(env("SHAPES", "one spread v6").trim().split("\\s+"));
    final List<String> endpoints = List.of(env("ENDPOINTS", "token form").trim().split("\\s+"));
    /**
     * The realms, in order: {@code stock}, {@code nginx} (the stock realm behind nginx {@code limit_req}),
     * {@code gated} and {@code shielded} (gated with the realm-wide layer on).
     */
    final List<String> realms = List.of(env("REALMS", "stock nginx gated").trim().split("\\s+"));
    final double phaseSeconds = Double.parseDouble(env("PHASE_SECONDS", "60"));
    /** RATE_FLOOR="nginx:100 gated:100": a realm's attack phases below its floor are not run (rate limits hold there). */
    final Map<String, Double> rateFloor = floors(env("RATE_FLOOR", ""));
    final double warmupSeconds = Double.parseDouble(env("WARMUP_SECONDS", "10"));
    /** Real logins per phase; the real users' interval follows from it and the phase length, unless REAL_INTERVAL_MS is set. */
    final int realLogins = Integer.parseInt(env("REAL_LOGINS", "1000"));
    final double realIntervalMs = Double.parseDouble(env("REAL_INTERVAL_MS", Double.toString(phaseSeconds * 1000 / realLogins)));
    /** This run's number (1-based) and the number of runs: each run has a Keycloak (and a database) of its own. */
    final int runNo = Integer.getInteger("run", 1);
    final int runs = Integer.getInteger("runs", 1);
    /** nginx in front of Keycloak, for the {@code nginx} realm; its pids (master and workers) for its CPU. */
    final String nginxBase = System.getProperty("nginxBase", "");
    final List<Long> nginxPids = longs(System.getProperty("nginxPids", ""));
    /** Keycloak's management interface (for {@code /metrics}); empty: the edge's answers are not read. */
    final String management = System.getProperty("management", "");
    final int users = Integer.parseInt(env("USERS", "400"));
    final int maxInflight = Integer.parseInt(env("MAX_INFLIGHT", "128"));
    final int attackNice = Integer.parseInt(env("ATTACK_NICE", "19"));
    final double drainSeconds = Double.parseDouble(env("DRAIN_SECONDS", "30"));
    final double saturated = Double.parseDouble(env("SATURATED_FACTOR", "10"));
    final boolean quiet = env("QUIET", "0").equals("1");
    final int quietMinutes = Integer.parseInt(env("QUIET_MINUTES", "10"));
    final boolean profile = env("PROFILE", "1").equals("1");
    final Path quietFile = Path.of(System.getProperty("quietFile", "/work/QUIET"));
    final Duration realTimeout = Duration.ofSeconds(Long.parseLong(env("REAL_TIMEOUT_SECONDS", "10")));

    final HttpClient http = Web.client();
    final HttpClient admin = Web.client();
    final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "real-user");
        t.setDaemon(true);
        return t;
    });
    final AtomicLong realUserSeq = new AtomicLong();
    final Map<String, AtomicLong> userCursor = new LinkedHashMap<>();
    Process client;
    BufferedReader clientOut;
    PrintWriter clientIn;
    long clientPid;
    final long selfPid = ProcessHandle.current().pid();
    boolean quietHeld;
    long quietDeadline = Long.MAX_VALUE;
    String quietNote = "no quiet window (QUIET=0)";

    /** "realm:rate realm:rate" as a map. */
    static Map<String, Double> floors(String spec) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String part : spec.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                String[] kv = part.split(":", 2);
                m.put(kv[0], Double.parseDouble(kv[1]));
            }
        }
        return m;
    }

    static String env(String k, String d) {
        String v = System.getenv(k);
        return v == null || v.isBlank() ? d : v;
    }

    static List<Long> longs(String s) {
        List<Long> l = new ArrayList<>();
        for (String p : s.trim().split("\\s+")) {
            if (!p.isEmpty()) {
                l.add(Long.parseLong(p));
            }
        }
        return l;
    }

    /** The Keycloak realm behind a row: the nginx row is the stock realm. */
    static String kcRealm(String realm) {
        return realm.equals("nginx") ? "stock" : realm;
    }

    /** Where a row's requests go: nginx for the nginx row, Keycloak itself otherwise. */
    String base(String realm) {
        if (realm.equals("nginx")) {
            if (nginxBase.isEmpty()) {
                throw new IllegalStateException("REALMS has nginx but no nginx runs (-DnginxBase)");
            }
            return nginxBase;
        }
        return base;
    }

    /**
     * {@code abuse_gate_edge_refusals_total} of one realm, summed over its labels, from Keycloak's {@code /metrics};
     * -1 without a management address or when the read fails (the figure is then left out, never guessed).
     */
    long edgeRefusals(String kcRealm) {
        if (management.isEmpty()) {
            return -1;
        }
        try {
            HttpResponse<String> r = admin.send(HttpRequest.newBuilder(URI.create(management + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return -1;
            }
            String label = "realm=\"" + kcRealm + "\"";
            double sum = 0;
            for (String line : r.body().split("\n")) {
                if (line.startsWith("abuse_gate_edge_refusals_total{") && line.contains(label)) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return Math.round(sum);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    long nginxTicks() {
        long t = 0;
        for (long pid : nginxPids) {
            t += Web.cpuTicks(pid);
        }
        return t;
    }

    static List<Double> doubles(String s) {
        List<Double> l = new ArrayList<>();
        for (String p : s.trim().split("\\s+")) {
            l.add(Double.parseDouble(p));
        }
        return l;
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("render") != null) {
            render(Path.of(System.getProperty("render")), Path.of(env("RESULTS", "attack.md")), Path.of(env("PLOT", "attack.png")));
            return;
        }
        new AttackRun().run();
    }

    /**
     * Writes the table and the plot of every run in a directory ({@code phases-run<N>.tsv} and its {@code .header}),
     * or of one TSV file.
     */
    static void render(Path from, Path md, Path png) throws IOException {
        List<Path> tsvs = new ArrayList<>();
        if (Files.isDirectory(from)) {
            try (var s = Files.list(from)) {
                s.filter(f -> f.getFileName().toString().matches("phases-run\\d+\\.tsv")).sorted((a, b) -> Integer.compare(runOf(a), runOf(b)))
                        .forEach(tsvs::add);
            }
        } else {
            tsvs.add(from);
        }
        List<Phase> ps = new ArrayList<>();
        StringBuilder header = new StringBuilder();
        for (Path t : tsvs) {
            ps.addAll(Phase.readTsv(t));
            Path h = Path.of(t + ".header");
            if (Files.exists(h)) {
                header.append(Files.readString(h));
            }
        }
        Report.write(ps, md, png, header.toString());
    }

    static int runOf(Path tsv) {
        return Integer.parseInt(tsv.getFileName().toString().replaceAll("\\D", ""));
    }

    // ------------------------------------------------------------------ the run

    void run() throws Exception {
        Files.createDirectories(work);
        Runtime.getRuntime().addShutdownHook(new Thread(this::releaseQuiet));
        startClient();
        try {
            runPhases();
        } finally {
            releaseQuiet();
            clientIn.println("quit");
            clientIn.flush();
            client.waitFor(10, TimeUnit.SECONDS);
            client.destroy();
        }
    }

    /** The attack shapes of the warm-up: those of {@code one} and {@code spread} the run measures, else {@code one}. */
    List<String> warmupShapes() {
        List<String> w = shapes.stream().filter(x -> x.equals("one") || x.equals("spread")).toList();
        return w.isEmpty() ? List.of("one") : w;
    }

    void runPhases() throws Exception {
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        System.out.printf("attack benchmark, run %d of %d: realms %s, rates %s /s, shapes %s, endpoints %s, %.0f s phases, real user every %.1f ms"
                + " (%d logins a phase), %d users, at most %d attack attempts in flight%n", runNo, runs, realms, rates, shapes, endpoints,
                phaseSeconds, realIntervalMs, realLoginsPerPhase(phaseSeconds), users, maxInflight);
        // Warm-up (not measured): every realm and endpoint, real users and each shape at a low rate.
        int warmId = 250;
        for (String endpoint : endpoints) {
            for (String realm : realms) {
                // The shielded realm's warm-up sends no attack: it would switch the realm-wide layer on before the
                // idle phases (gated's warm-up runs the same gate code).
                // Only the shapes the run measures: a botnet's warm-up switches the gated realm's realm-wide layer on (on by
                // default), which would ask the idle phase's real users for a captcha when no other realm's idle phase
                // runs before it.
                for (String shape : realm.equals("shielded") ? List.of("idle") : warmupShapes()) {
                    Phase w = phase(realm, endpoint, shape, 20, warmupSeconds / 2, warmId--, false);
                    System.out.println("warm-up " + w.summary());
                }
            }
        }
        takeQuiet();
        String loadStart = Files.readString(Path.of("/proc/loadavg")).trim();
        String start = now();
        List<Phase> phases = new ArrayList<>();
        int id = 1;
        Map<String, Phase> idle = new LinkedHashMap<>();
        Map<String, Double> saturatedAt = new LinkedHashMap<>();
        // Every idle phase first, before any attack: the shielded realm's layer stays on for its window after one.
        outer:
        for (String endpoint : endpoints) {
            for (String realm : realms) {
                if (!fits()) {
                    break outer;
                }
                Phase p = phase(realm, endpoint, "idle", 0, phaseSeconds, id++, true);
                idle.put(realm + "/" + endpoint, p);
                phases.add(p);
                System.out.println(p.summary());
            }
        }
        for (String endpoint : endpoints) {
            for (String shape : shapes) {
                for (double rate : rates) {
                    for (String realm : realms) {
                        String line = realm + "/" + endpoint + "/" + shape;
                        if (saturatedAt.containsKey(line)) {
                            phases.add(Phase.skipped(runNo, realm, endpoint, shape, rate, "not run: real users already failed or p99 > "
                                    + (int) saturated + "x idle at " + fmtRate(saturatedAt.get(line)) + "/s"));
                            continue;
                        }
                        if (rate < rateFloor.getOrDefault(realm, 0.0)) {
                            phases.add(Phase.skipped(runNo, realm, endpoint, shape, rate, "not run: below RATE_FLOOR ("
                                    + fmtRate(rateFloor.get(realm)) + "/s for " + realm + ")"));
                            continue;
                        }
                        if (!fits()) {
                            phases.add(Phase.skipped(runNo, realm, endpoint, shape, rate, "not run: the quiet window was over"));
                            continue;
                        }
                        Phase p = phase(realm, endpoint, shape, rate, phaseSeconds, id++, true);
                        phases.add(p);
                        System.out.println(p.summary());
                        Phase i = idle.get(realm + "/" + endpoint);
                        // Where real users solved a captcha, their latency includes the solving: only failures saturate.
                        if (p.realOk < p.realN || (p.realCaptchas == 0 && i != null && p.p99 > saturated * i.p99)) {
                            saturatedAt.put(line, rate);
                        }
                    }
                }
            }
        }
        String end = now();
        String loadEnd = Files.readString(Path.of("/proc/loadavg")).trim();
        // Profiles of the gated realm under the one-address attack at the highest rate, after the table's phases.
        List<String[]> profiles = new ArrayList<>();
        if (profile && runNo == runs) { // the last run only
            for (String endpoint : endpoints) {
                double rate = rates.get(rates.size() - 1);
                if (quietHeld && !fits()) {
                    releaseQuiet(); // the window never outlasts its end: the profile then runs outside it, labelled so
                }
                boolean inWindow = quietHeld;
                Path jfr = work.resolve("gated-one-" + endpoint + ".jfr");
                jcmd("JFR.start", "name=attack-" + endpoint, "settings=profile", "filename=" + jfr);
                Phase p = phase("gated", endpoint, "one", rate, phaseSeconds, id++, true);
                jcmd("JFR.stop", "name=attack-" + endpoint);
                profiles.add(new String[] {endpoint, AttackRun.fmt(rate), jfr.toString(), Boolean.toString(inWindow), p.summary(),
                    Files.readString(Path.of("/proc/loadavg")).trim()});
            }
        }
        releaseQuiet();
        String header = header(start, end, loadBefore, loadStart, loadEnd);
        Path tsv = work.resolve("phases-run" + runNo + ".tsv");
        Phase.writeTsv(phases, tsv);
        Files.writeString(Path.of(tsv + ".header"), header);
        // The runs so far (an interrupted set of runs still leaves the table of those that finished).
        render(work, Path.of(env("RESULTS", work.resolve("attack.md").toString())),
                Path.of(env("PLOT", work.resolve("attack.png").toString())));
        if (!profiles.isEmpty()) {
            Path out = Path.of(env("PROFILE_OUT", work.resolve("attack-profile.txt").toString()));
            StringBuilder b = new StringBuilder("# Where the server's time goes: the gated realm under the one-address attack\n\n"
                    + "Keycloak JVM recorded with JFR (`jcmd <pid> JFR.start settings=profile`) during one extra phase per endpoint "
                    + "after the table's phases, summarised by `dev.abusegate.benchmarks.attack.JfrSummary` (jdk.jfr.consumer). "
                    + "The real users (one login every " + fmt(realIntervalMs) + " ms, each a correct password: one argon2 hash) run "
                    + "during the recording too, so their hashes are in the samples.\n\n" + header + "\n");
            for (String[] f : profiles) {
                b.append("## ").append(f[0].equals("token") ? "Token endpoint" : "Browser form").append(", one-address attack at ")
                        .append(f[1]).append("/s offered, ").append(AttackRun.fmt(phaseSeconds)).append(" s, ")
                        .append(f[3].equals("true") ? "inside the quiet window" : "NOT inside a quiet window: other work may have run")
                        .append("\n\n```\nphase: ").append(f[4]).append("\nload average after: ").append(f[5]).append("\n\n")
                        .append(JfrSummary.summarise(Path.of(f[2]))).append("```\n\n");
            }
            Files.writeString(out, b.toString(), StandardCharsets.UTF_8);
            System.out.println("profile: " + out);
        }
    }

    String header(String start, String end, String loadBefore, String loadStart, String loadEnd) {
        String nginx = realms.contains("nginx") ? "- nginx row: " + env("NGINX_NOTE", "stock realm behind nginx") + "\n" : "";
        String skipped = env("SKIPPED_NOTE", "");
        return "### Run " + runNo + " of " + runs + "\n\n"
                + "- command: `" + env("COMMAND", "benchmarks/attack/run.sh") + "`\n"
                + "- settings: REALMS=\"" + String.join(" ", realms) + "\" RATES=\"" + env("RATES", "10 50 200 800") + "\" RATE_FLOOR=\"" + env("RATE_FLOOR", "") + "\" SHAPES=\"" + String.join(" ", shapes) + "\" ENDPOINTS=\""
                + String.join(" ", endpoints) + "\" PHASE_SECONDS=" + fmt(phaseSeconds) + " WARMUP_SECONDS=" + fmt(warmupSeconds)
                + " REAL_LOGINS=" + realLogins + " REAL_INTERVAL_MS=" + fmt(realIntervalMs) + " (" + realLoginsPerPhase(phaseSeconds)
                + " real logins a phase) USERS=" + users + " MAX_INFLIGHT=" + maxInflight + " ATTACK_NICE=" + attackNice + " SATURATED_FACTOR="
                + fmt(saturated) + " REAL_TIMEOUT_SECONDS=" + realTimeout.toSeconds() + "\n"
                + "- database: " + env("DB_NOTE", "dev-file (H2)") + "\n"
                + (env("START_NOTE", "").isEmpty() ? "" : "- Keycloak's start: " + env("START_NOTE", "") + "\n")
                + "- measured phases from " + start + " to " + end + "; " + quietNote + "\n"
                + "- load average (1, 5, 15 min; /proc/loadavg): " + loadBefore + " before the warm-up, " + loadStart
                + " before the first phase, " + loadEnd + " after the last\n" + nginx + (skipped.isEmpty() ? "" : "- " + skipped + "\n") + "\n";
    }

    /** Whether another phase (its seconds plus 25 s of drain and event reading) still fits into the quiet window. */
    boolean fits() {
        return System.currentTimeMillis() + (long) (phaseSeconds * 1000) + 25_000 < quietDeadline;
    }

    void takeQuiet() throws Exception {
        if (!quiet) {
            return;
        }
        String after = env("QUIET_AFTER", "");
        if (!after.isEmpty()) {
            java.time.LocalTime t = java.time.LocalTime.parse(after);
            while (java.time.LocalTime.now(ZoneOffset.UTC).isBefore(t)) {
                System.out.println("    waiting until " + after + " UTC to take the quiet window");
                Thread.sleep(15_000);
            }
        }
        while (true) {
            long until = System.currentTimeMillis() + quietMinutes * 60_000L;
            String text = "attack until " + DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(until))
                    + " UTC\n";
            try {
                Files.writeString(quietFile, text, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
                quietHeld = true;
                quietDeadline = until - 20_000L;
                quietNote = "inside one quiet window (" + text.trim() + ", taken " + now() + ")";
                System.out.println("==> quiet window taken: " + text.trim());
                return;
            } catch (FileAlreadyExistsException e) {
                System.out.println("    quiet window held by someone else: " + Files.readString(quietFile).trim() + "; waiting");
                Thread.sleep(30_000);
            }
        }
    }

    synchronized void releaseQuiet() {
        if (quietHeld) {
            try {
                Files.deleteIfExists(quietFile);
                System.out.println("==> quiet window released " + now());
            } catch (IOException e) {
                System.out.println("could not remove " + quietFile + ": " + e);
            }
            quietHeld = false;
        }
    }

    void jcmd(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("jcmd", Long.toString(kcPid)));
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd failed: " + out);
        }
    }

    void startClient() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        // The attack client shares this machine's cores with the server it attacks, where a real attacker's machine
        // would not: at ATTACK_NICE (19 by default) it runs on the time Keycloak leaves idle, and what it cannot send
        // in time is counted as dropped or late, never hidden.
        client = new ProcessBuilder("nice", "-n", Integer.toString(attackNice), java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                AttackClient.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        clientPid = client.pid();
        clientOut = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        clientIn = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8);
        String ready = clientOut.readLine();
        if (!"ready".equals(ready)) {
            throw new IllegalStateException("attack client did not start: " + ready);
        }
        System.out.println("attack client: pid " + clientPid + "; driver (real users): pid " + selfPid + "; Keycloak: pid " + kcPid);
    }

    // ------------------------------------------------------------------ one phase

    Phase phase(String realm, String endpoint, String shape, double rate, double seconds, int id, boolean withEvents) throws Exception {
        if (withEvents) {
            deleteEvents(kcRealm(realm));
        }
        waitServerQuiet();
        long ng0 = realm.equals("nginx") ? nginxTicks() : 0;
        long kc0 = Web.cpuTicks(kcPid);
        long cl0 = Web.cpuTicks(clientPid);
        long me0 = Web.cpuTicks(selfPid);
        long edge0 = edgeRefusals(kcRealm(realm));
        long t0 = System.nanoTime();
        if (!shape.equals("idle")) {
            clientIn.println("attack " + base(realm) + " " + kcRealm(realm) + " " + endpoint + " " + shape + " " + rate + " " + seconds + " " + id + " "
                    + maxInflight + " " + drainSeconds);
        }
        // Real users: one login every realIntervalMs, each a tracked task, on schedule whatever the answers.
        List<java.util.concurrent.Future<double[]>> logins = new ArrayList<>();
        long n = realLoginsPerPhase(seconds);
        String to = base(realm);
        String kcRealm = kcRealm(realm);
        for (long i = 0; i < n; i++) {
            long due = t0 + (long) (i * realIntervalMs * 1_000_000L);
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
            }
            int user = nextUser(realm);
            String address = realAddress();
            logins.add(pool.submit(() -> realLogin(to, kcRealm, endpoint, user, address)));
        }
        List<double[]> results = new ArrayList<>();
        for (var f : logins) {
            results.add(f.get());
        }
        String attack = shape.equals("idle") ? null : clientOut.readLine();
        double window = (System.nanoTime() - t0) / 1e9;
        long kc1 = Web.cpuTicks(kcPid);
        long cl1 = Web.cpuTicks(clientPid);
        long me1 = Web.cpuTicks(selfPid);
        long ng1 = realm.equals("nginx") ? nginxTicks() : 0;
        long edge1 = edgeRefusals(kcRealm(realm));
        Phase p = new Phase();
        p.edgeRefusals = edge0 < 0 || edge1 < 0 ? -1 : edge1 - edge0;
        p.run = runNo;
        p.proxyCpu = (ng1 - ng0) / (double) CLK_TCK;
        p.realm = realm;
        p.endpoint = endpoint;
        p.shape = shape;
        p.rate = rate;
        p.seconds = seconds;
        p.window = window;
        p.serverCpu = (kc1 - kc0) / (double) CLK_TCK;
        p.clientCpu = (cl1 - cl0) / (double) CLK_TCK;
        p.driverCpu = (me1 - me0) / (double) CLK_TCK;
        p.realN = results.size();
        p.realCaptchas = (int) results.stream().mapToDouble(r -> r[2]).sum();
        double[] ok = results.stream().filter(r -> r[0] == 1).mapToDouble(r -> r[1]).sorted().toArray();
        p.realOk = ok.length;
        double[] all = results.stream().mapToDouble(r -> r[1]).sorted().toArray();
        p.p50 = pct(all, 50);
        p.p99 = pct(all, 99);
        p.max = all.length == 0 ? Double.NaN : all[all.length - 1];
        p.slowest = slowest(results, realIntervalMs);
        if (attack != null) {
            p.attack = parse(attack);
        }
        if (withEvents) {
            waitServerQuiet();
            countEvents(p, id);
        }
        return p;
    }

    /** Real logins in a phase of this many seconds: one every {@link #realIntervalMs}. */
    long realLoginsPerPhase(double seconds) {
        return Math.round(seconds * 1000 / realIntervalMs);
    }

    int nextUser(String realm) {
        long c = userCursor.computeIfAbsent(realm, k -> new AtomicLong()).getAndIncrement();
        return (int) (c % users) + 1;
    }

    /** A fresh address per real login, from 172.16.0.0/12 (never an attacker's range). */
    String realAddress() {
        long k = realUserSeq.incrementAndGet();
        return "172." + (16 + ((k >> 16) & 15)) + "." + ((k >> 8) & 255) + "." + (k & 255);
    }

    /**
     * {ok (1/0), milliseconds, captchas solved}: the password grant, or the login page GET + the form POST, counted
     * from the first byte sent. Asked for a captcha (HTTP 429 {@code captcha_required} with an ALTCHA challenge), the
     * real user solves it, as a person's browser would, and sends the login again with the solution; the solving
     * is in the latency.
     */
    double[] realLogin(String base, String realm, String endpoint, int user, String address) {
        long t0 = System.nanoTime();
        boolean ok = false;
        int solved = 0;
        try {
            if (endpoint.equals("token")) {
                String solution = null;
                for (int round = 0; round < 3 && !ok; round++) {
                    HttpResponse<String> r = http.send(Web.passwordGrant(base, realm, address, Realms.username(user), Realms.password(user),
                            solution, left(t0)), HttpResponse.BodyHandlers.ofString());
                    ok = r.statusCode() == 200 && r.body().contains("access_token");
                    solution = r.statusCode() == 429 ? Captchas.solveJson(r.body()) : null;
                    if (solution == null) {
                        break;
                    }
                    solved++;
                }
            } else {
                HttpResponse<String> page = http.send(Web.loginPage(base, realm, address, realTimeout), HttpResponse.BodyHandlers.ofString());
                String action = Web.action(page.body());
                if (page.statusCode() == 200 && action != null) {
                    Map<String, String> jar = Web.jar();
                    Web.keepCookies(jar, page.headers());
                    String solution = null;
                    for (int round = 0; round < 3 && !ok; round++) {
                        HttpResponse<String> r = http.send(Web.formPost(action, jar, address, Realms.username(user), Realms.password(user),
                                solution, left(t0)), HttpResponse.BodyHandlers.ofString());
                        String loc = r.headers().firstValue("location").orElse("");
                        ok = r.statusCode() == 302 && loc.startsWith(Realms.REDIRECT) && loc.contains("code=");
                        solution = r.statusCode() == 429 ? Captchas.solvePage(r.body()) : null;
                        if (solution == null) {
                            break;
                        }
                        Web.keepCookies(jar, r.headers());
                        action = Web.action(r.body());
                        if (action == null) {
                            break;
                        }
                        solved++;
                    }
                }
            }
        } catch (Exception e) {
            ok = false;
        }
        return new double[] {ok ? 1 : 0, (System.nanoTime() - t0) / 1e6, solved};
    }

    /** What is left of a real login's timeout. */
    Duration left(long t0) {
        Duration left = realTimeout.minusNanos(System.nanoTime() - t0);
        return left.isNegative() ? Duration.ofMillis(1) : left;
    }

    /** Waits (at most 20 s) until Keycloak uses less than 15 % of one core over half a second: the previous phase's work is done. */
    void waitServerQuiet() throws InterruptedException {
        long until = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < until) {
            long a = Web.cpuTicks(kcPid);
            Thread.sleep(500);
            long b = Web.cpuTicks(kcPid);
            if ((b - a) / (double) CLK_TCK < 0.075) {
                return;
            }
        }
    }

    static Map<String, Long> parse(String line) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String kv : line.substring("result ".length()).split(" ")) {
            int eq = kv.indexOf('=');
            String k = kv.substring(0, eq);
            String v = kv.substring(eq + 1);
            if (k.equals("sample")) {
                if (!v.equals("-")) {
                    System.out.println("    attack client sample of an unexpected answer: " + v);
                }
                continue;
            }
            m.put(k, k.equals("sendSeconds") ? Math.round(Double.parseDouble(v) * 1000) : Long.parseLong(v));
        }
        return m;
    }

    // ------------------------------------------------------------------ events (admin API)

    String adminToken() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/realms/master/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=password&client_id=admin-cli&username=admin&password=admin")).build();
        String body = admin.send(req, HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("\"access_token\":\"([^\"]+)\"").matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("no admin token");
        }
        return m.group(1);
    }

    void deleteEvents(String realm) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/admin/realms/" + realm + "/events"))
                .header("Authorization", "Bearer " + adminToken()).DELETE().build();
        int s = admin.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (s != 204) {
            throw new IllegalStateException("DELETE events: HTTP " + s);
        }
    }

    /**
     * Counts the phase's LOGIN and LOGIN_ERROR events by error and by side (real users' 172.16/12 or the attack). Of the
     * attack's, only those from this phase's own addresses ({@link AttackClient#ofPhase}): a request of the phase
     * before, answered after its events were read (the nginx row shares the stock realm), is not this phase's.
     */
    void countEvents(Phase p, int id) throws Exception {
        String token = adminToken();
        Map<String, Long> attackErrors = new TreeMap<>();
        long realLogin = 0;
        long realErrors = 0;
        long attackLogin = 0;
        int first = 0;
        int page = 20_000;
        while (true) {
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/admin/realms/" + kcRealm(p.realm) + "/events?first=" + first + "&max=" + page))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(120)).GET().build();
            String body = admin.send(req, HttpResponse.BodyHandlers.ofString()).body();
            String[] events = body.split("\\{\"id\":\"");
            int count = events.length - 1;
            for (int i = 1; i < events.length; i++) {
                String e = events[i];
                int d = e.indexOf("\"details\"");
                String head = d > 0 ? e.substring(0, d) : e;
                String type = group(EVENT_TYPE, head);
                String ip = group(EVENT_IP, head);
                String error = group(EVENT_ERROR, head);
                boolean real = ip != null && ip.startsWith("172.");
                if (!real && !AttackClient.ofPhase(p.shape, id, ip)) {
                    continue; // another phase's late answer
                }
                if ("LOGIN".equals(type)) {
                    if (real) {
                        realLogin++;
                    } else {
                        attackLogin++;
                    }
                } else if ("LOGIN_ERROR".equals(type)) {
                    if (real) {
                        realErrors++;
                    } else {
                        attackErrors.merge(error == null ? "?" : error, 1L, Long::sum);
                    }
                }
            }
            if (count < page) {
                break;
            }
            first += page;
        }
        p.events = attackErrors;
        p.realLoginEvents = realLogin;
        p.realErrorEvents = realErrors;
        p.attackLoginEvents = attackLogin;
        p.hashes = attackLogin;
        for (Map.Entry<String, Long> e : attackErrors.entrySet()) {
            if (hashed(p.endpoint, e.getKey())) {
                p.hashes += e.getValue();
            }
        }
    }

    static String group(Pattern p, String s) {
        Matcher m = p.matcher(s);
        return m.find() ? m.group(1) : null;
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The phase's ten slowest real logins as "latency ms @ start s" (start: seconds into the phase, from its
     * schedule), slowest first: whether they cluster at the phase's start, or spread over it.
     */
    static String slowest(List<double[]> results, double intervalMs) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Double.compare(results.get(b)[1], results.get(a)[1]));
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < Math.min(10, order.size()); k++) {
            int i = order.get(k);
            sb.append(k == 0 ? "" : ", ").append(String.format("%.0f@%.1f", results.get(i)[1], i * intervalMs / 1000.0));
        }
        return sb.toString();
    }

    static double pct(double[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    static String now() {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC).format(Instant.now()) + " UTC";
    }

    static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String fmtRate(double d) {
        return fmt(d);
    }
}
