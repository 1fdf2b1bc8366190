package dev.abusegate.benchmarks.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** The markdown results (headline, table, events) and the plot of one run. */
final class Report {

    /** The realms of a run, in the order they ran (stock first). */
    static List<String> realms(List<Phase> ps) {
        return new ArrayList<>(values(ps, p -> p.realm));
    }

    /** What a realm is, for the tables. */
    static String realmName(String realm) {
        return switch (realm) {
            case "stock" -> "stock";
            case "gated" -> "gated";
            case "nginx" -> "nginx (stock behind nginx `limit_req`)";
            case "shielded" -> "shielded (gated + realm under attack)";
            default -> realm;
        };
    }

    private Report() {
    }

    static Phase idle(List<Phase> ps, String realm, String endpoint) {
        for (Phase p : ps) {
            if (p.ran() && p.shape.equals("idle") && p.realm.equals(realm) && p.endpoint.equals(endpoint)) {
                return p;
            }
        }
        return null;
    }

    /** Real users all logged in, and their p99 was at most twice the idle phase's. */
    static boolean available(Phase p, Phase idle) {
        return p.ran() && idle != null && p.realN > 0 && p.realOk == p.realN && p.p99 <= 2 * idle.p99;
    }

    /** The highest offered rate at which this and every lower rate kept real users available; NaN if none did. */
    static double highestAvailable(List<Phase> ps, String realm, String endpoint, String shape) {
        Phase idle = idle(ps, realm, endpoint);
        double best = Double.NaN;
        List<Phase> line = line(ps, realm, endpoint, shape);
        for (Phase p : line) {
            if (p.belowFloor()) {
                continue;
            }
            if (!available(p, idle)) {
                break;
            }
            best = p.rate;
        }
        return best;
    }

    static List<Phase> line(List<Phase> ps, String realm, String endpoint, String shape) {
        List<Phase> out = new ArrayList<>();
        for (Phase p : ps) {
            if (p.realm.equals(realm) && p.endpoint.equals(endpoint) && p.shape.equals(shape)) {
                out.add(p);
            }
        }
        out.sort((x, y) -> Double.compare(x.rate, y.rate));
        return out;
    }

    static Set<String> values(List<Phase> ps, java.util.function.Function<Phase, String> f) {
        Set<String> s = new LinkedHashSet<>();
        for (Phase p : ps) {
            s.add(f.apply(p));
        }
        return s;
    }

    static String shapeName(String shape) {
        return switch (shape) {
            case "one" -> "one address";
            case "spread" -> "botnet (4 names/address)";
            case "v6" -> "one IPv6 /48";
            default -> shape;
        };
    }

    static String endpointName(String e) {
        return e.equals("token") ? "token endpoint (password grant)" : "browser form";
    }

    /** The runs of a set of phases, in order. */
    static List<Integer> runs(List<Phase> ps) {
        return ps.stream().map(p -> p.run).distinct().sorted().toList();
    }

    static List<Phase> ofRun(List<Phase> ps, int run) {
        return ps.stream().filter(p -> p.run == run).toList();
    }

    /** The phases of one realm, endpoint, shape and rate over every run, in the order the first run had them. */
    static Map<String, List<Phase>> byKey(List<Phase> ps) {
        Map<String, List<Phase>> m = new LinkedHashMap<>();
        for (Phase p : ps) {
            m.computeIfAbsent(p.realm + "|" + p.endpoint + "|" + p.shape + "|" + p.rate, k -> new ArrayList<>()).add(p);
        }
        return m;
    }

    /** {median, min, max} of the values (NaN when there are none); the median of an even count is the mean of the middle two. */
    static double[] stats(double[] v) {
        if (v.length == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        return new double[] {median, s[0], s[n - 1]};
    }

    /** A figure over runs: the median, and "(min–max)" when more than one run has it. */
    static String fig(double[] values, String format) {
        double[] st = stats(values);
        if (values.length == 0) {
            return "-";
        }
        String m = String.format(Locale.ROOT, format, st[0]);
        return values.length == 1 ? m : m + " (" + String.format(Locale.ROOT, format, st[1]) + "–" + String.format(Locale.ROOT, format, st[2]) + ")";
    }

    static String fig(List<Phase> ps, ToDoubleFunction<Phase> f, String format) {
        return fig(ps.stream().mapToDouble(f).toArray(), format);
    }

    /**
     * The lower median: with an even number of runs, the lower of the two middle ones, so that a headline rate is
     * always a rate that was tested (and a run's "not even the lowest rate" is not averaged into one).
     */
    static double lowerMedian(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    /** A headline rate over runs (the lower median, then min – max): 0 stands for "not even the lowest rate". */
    static String rateFig(double[] perRun, double lowest) {
        double[] st = stats(perRun);
        String m = rateText(lowerMedian(perRun), lowest);
        return perRun.length <= 1 || st[1] == st[2] ? m : m + " (" + rateText(st[1], lowest) + " – " + rateText(st[2], lowest) + ")";
    }

    /** Keycloak's CPU, and nginx's in front of it for the nginx row. */
    static double serverCpu(Phase p) {
        return p.serverCpu + p.proxyCpu;
    }

    static void write(List<Phase> ps, Path md, Path png, String header) throws IOException {
        Set<String> endpoints = values(ps, p -> p.endpoint);
        Set<String> shapes = values(ps, p -> p.shape);
        shapes.remove("idle");
        List<Integer> runs = runs(ps);
        int nRuns = runs.size();
        Map<String, List<Phase>> keys = byKey(ps);
        double lowest = ps.stream().filter(p -> !p.shape.equals("idle")).mapToDouble(p -> p.rate).min().orElse(0);
        StringBuilder b = new StringBuilder();
        b.append("# Logins under attack: stock Keycloak 26.7.3 against the abuse gate\n\n");
        List<String> realms = realms(ps);
        b.append("Realms: " + String.join(", ", realms.stream().map(Report::realmName).toList()) + ".");
        if (realms.contains("shielded")) {
            b.append(" The shielded realm's settings are in `Realms.SHIELD` (benchmarks/src/main/java/dev/abusegate/benchmarks/attack/Realms.java).");
        }
        b.append("\n\n");
        b.append("Produced by `benchmarks/attack/run.sh` (what it does: [benchmarks/attack/README.md](../attack/README.md); "
                + "discussion: [benchmarks/results/attack-availability.md](attack-availability.md)). " + nRuns + (nRuns == 1 ? " run" : " runs")
                + " on a shared 2-core machine, each with a Keycloak (and a database) of its own. "
                + (nRuns > 1 ? "Every figure is the median over the runs, with the lowest and highest run in brackets (min–max).\n\n" : "\n\n"));
        b.append(header).append('\n');
        b.append("## Headline: the highest attack rate at which every real user still logged in with p99 within 2x of idle\n\n");
        b.append("Offered attack requests/s, the highest tested rate at which this and every lower tested rate kept all real users "
                + "logging in with p99 at most twice the same realm's idle p99 on that endpoint (\"< r\": not even the lowest rate r); "
                + "found per run, then the median over the runs (with an even number of runs the lower middle one), and the "
                + "lowest – highest run.\n\n");
        List<String> others = new ArrayList<>(realms);
        others.remove("stock");
        StringBuilder head = new StringBuilder("| endpoint | attack |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (String r : realms) {
            head.append(' ').append(r).append(" |");
            rule.append("---|");
        }
        if (realms.contains("stock")) {
            for (String r : others) {
                head.append(' ').append(r).append(" ÷ stock |");
                rule.append("---|");
            }
        }
        b.append(head).append('\n').append(rule).append('\n');
        for (String e : endpoints) {
            for (String s : shapes) {
                b.append("| ").append(endpointName(e)).append(" | ").append(shapeName(s)).append(" |");
                for (String r : realms) {
                    b.append(' ').append(rateFig(headline(ps, runs, r, e, s), lowestRun(ps, r, e, s, lowest))).append(" |");
                }
                if (realms.contains("stock")) {
                    double st = lowerMedian(headline(ps, runs, "stock", e, s));
                    for (String r : others) {
                        double ga = lowerMedian(headline(ps, runs, r, e, s));
                        String ratio = ga == 0 ? "-" : st == 0 ? "> " + AttackRun.fmt(ga / lowest) + "x" : fmt0(ga / st) + "x";
                        b.append(' ').append(ratio).append(" |");
                    }
                }
                b.append('\n');
            }
        }
        if (realms.contains("stock")) {
            b.append("\n## Passwords hashed for the attack, and real users, over all rates of a shape\n\n");
            b.append("Summed per run over the phases that ran at every offered rate (a realm's phases that were not run count nothing, "
                    + "so compare realms over the same rates), then the median over the runs (min–max). Real users: logins that "
                    + "succeeded and the captchas they solved to get there (each asked with 429 `captcha_required`, then sent again "
                    + "with the solution), summed over all runs.\n\n");
            b.append("| endpoint | attack | realm | rates run | passwords hashed | ÷ stock's over the same rates | real users ok | captchas solved |\n");
            b.append("|---|---|---|---|---|---|---|---|\n");
            for (String e : endpoints) {
                for (String s : shapes) {
                    for (String r : realms) {
                        double[] hashes = new double[nRuns];
                        double[] share = new double[nRuns];
                        double[] ran = new double[nRuns];
                        boolean shared = true;
                        int ok = 0;
                        int n = 0;
                        int solved = 0;
                        for (int i = 0; i < nRuns; i++) {
                            List<Phase> run = ofRun(ps, runs.get(i));
                            long stockSame = 0;
                            for (Phase p : line(run, r, e, s)) {
                                if (!p.ran()) {
                                    continue;
                                }
                                ran[i]++;
                                hashes[i] += p.hashes;
                                ok += p.realOk;
                                n += p.realN;
                                solved += p.realCaptchas;
                                for (Phase q : line(run, "stock", e, s)) {
                                    if (q.ran() && q.rate == p.rate) {
                                        stockSame += q.hashes;
                                    }
                                }
                            }
                            shared &= stockSame > 0;
                            share[i] = stockSame == 0 ? Double.NaN : 100.0 * hashes[i] / stockSame;
                        }
                        String shareText = r.equals("stock") || !shared ? "-" : fig(share, "%.1f") + " %";
                        b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d/%d | %d |%n", endpointName(e), shapeName(s),
                                realmName(r), fig(ran, "%.0f"), fig(hashes, "%.0f"), shareText, ok, n, solved));
                    }
                }
            }
        }
        b.append("\nIdle (real users only): ");
        List<String> idles = new ArrayList<>();
        for (String e : endpoints) {
            for (String r : realms) {
                List<Phase> is = idles(ps, r, e);
                if (!is.isEmpty()) {
                    idles.add(String.format(Locale.ROOT, "%s %s p50 %s ms, p99 %s ms (%d/%d ok)", r, e, fig(is, p -> p.p50, "%.0f"),
                            fig(is, p -> p.p99, "%.0f"), is.stream().mapToInt(p -> p.realOk).sum(), is.stream().mapToInt(p -> p.realN).sum()));
                }
            }
        }
        b.append(String.join("; ", idles)).append(".\n\n");
        b.append(machineSpeed(ps));

        b.append("## Table\n\n");
        b.append("Per realm, endpoint, attack shape and offered rate, over the runs in which the phase ran (\"runs\"): the median "
                + "(min–max). Columns: real users' logins that succeeded, summed over the runs (✗n: in n runs not every real user "
                + "logged in, or p99 was over twice that run's idle p99), and their latency (nearest-rank percentiles of one "
                + "phase's logins, then the median over the runs); attack attempts sent per second of the phase, and those dropped "
                + "(due while " + MAX_INFLIGHT_TEXT + " were unanswered) or sent late (over 50 ms behind schedule); what the attack "
                + "got back; passwords Keycloak hashed for the attack, from its events; the server's CPU (on the nginx row: "
                + "Keycloak's plus nginx's) and the same per 1,000 attack attempts after taking away what the same number of real "
                + "logins cost in that run's idle phase; the attack client's own CPU per 1,000 attempts sent (its own JVM). On the "
                + "form an attempt is one POST; the GETs opening login sessions are counted apart (\"GETs\"). The 429 answers the gate "
                + "gave before Keycloak's flow ran are read from `abuse_gate_edge_refusals_total` on the management port (\"-\": "
                + "not read, as in runs before it was).\n\n");
        b.append("| endpoint | realm | attack | offered /s | runs | sent /s | dropped / late | real users ok | p50 ms | p99 ms | answers: "
                + "wrong password / 429 captcha / 429 blocked / other | of which answered at the edge | GETs | passwords hashed | server CPU s | server CPU s per 1,000 "
                + "attempts | client CPU s per 1,000 |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String e : endpoints) {
            for (List<Phase> k : keys.values()) {
                Phase first = k.get(0);
                if (!first.endpoint.equals(e)) {
                    continue;
                }
                boolean attack = !first.shape.equals("idle");
                String offered = attack ? AttackRun.fmt(first.rate) : "0";
                List<Phase> ran = k.stream().filter(Phase::ran).toList();
                if (ran.isEmpty()) {
                    b.append("| ").append(e).append(" | ").append(first.realm).append(" | ").append(shapeName(first.shape)).append(" | ")
                            .append(offered).append(" | 0/").append(nRuns).append(" | ").append(first.note).append(" | | | | | | | | | | | |\n");
                    continue;
                }
                int failed = 0;
                List<Double> cpuPer = new ArrayList<>();
                List<Double> clientPer = new ArrayList<>();
                for (Phase p : ran) {
                    Phase idle = idle(ofRun(ps, p.run), p.realm, e);
                    if (attack && idle != null && !available(p, idle)) {
                        failed++;
                    }
                    long sent = p.a("sent");
                    long answered = sent - p.a("unanswered");
                    if (attack && answered > 0 && idle != null) {
                        double marginal = serverCpu(p) - serverCpu(idle) * p.realN / Math.max(1, idle.realN);
                        cpuPer.add(marginal * 1000 / answered);
                        clientPer.add(p.clientCpu * 1000 / Math.max(1, sent));
                    }
                }
                String mark = failed > 0 ? " ✗" + failed : "";
                b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d/%d | %s | %s | %d/%d%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        e, first.realm, attack ? shapeName(first.shape) : "idle", offered, ran.size(), nRuns,
                        attack ? fig(ran, p -> p.a("sent") / p.seconds, "%.0f") : "0",
                        attack ? fig(ran, p -> p.a("dropped"), "%.0f") + " / " + fig(ran, p -> p.a("late"), "%.0f") : "-",
                        ran.stream().mapToInt(p -> p.realOk).sum(), ran.stream().mapToInt(p -> p.realN).sum(), mark,
                        fig(ran, p -> p.p50, "%.0f"), fig(ran, p -> p.p99, "%.0f"),
                        attack ? fig(ran, p -> p.a("invalid"), "%.0f") + " / " + fig(ran, p -> p.a("captcha"), "%.0f") + " / "
                                + fig(ran, p -> p.a("blocked"), "%.0f") + " / "
                                + fig(ran, p -> p.a("other") + p.a("errors") + p.a("unanswered") + p.a("success"), "%.0f") : "-",
                        attack && ran.stream().allMatch(p -> p.edgeRefusals >= 0) ? fig(ran, p -> p.edgeRefusals, "%.0f") : "-",
                        attack && e.equals("form") ? fig(ran, p -> p.a("gets"), "%.0f") : "-", fig(ran, p -> p.hashes, "%.0f"),
                        fig(ran, Report::serverCpu, "%.1f"), cpuPer.isEmpty() ? "-" : fig(cpuPer.stream().mapToDouble(d -> d).toArray(), "%.2f"),
                        clientPer.isEmpty() ? "-" : fig(clientPer.stream().mapToDouble(d -> d).toArray(), "%.2f")));
            }
        }
        b.append("\n✗n: in n runs not every real user logged in, or their p99 was over twice the idle p99.\n\n");
        b.append("## Events per phase and run (the attack's LOGIN_ERROR errors; real users' LOGIN / LOGIN_ERROR)\n\n");
        for (Phase p : ps) {
            if (p.ran()) {
                b.append(String.format(Locale.ROOT, "- run %d: %s %s %s %s/s: attack %s, attack LOGIN %d; real users LOGIN %d, LOGIN_ERROR %d; "
                        + "CPU s: server %.2f%s, attack client %.2f, real-user driver %.2f over %.1f s; attack sent %d, unanswered %d, "
                        + "latest send %d ms behind schedule%s%n", p.run, p.endpoint, p.realm, p.shape, AttackRun.fmt(p.rate), p.events,
                        p.attackLoginEvents, p.realLoginEvents, p.realErrorEvents, p.serverCpu,
                        p.proxyCpu > 0 ? String.format(Locale.ROOT, " (+ nginx %.2f)", p.proxyCpu) : "", p.clientCpu, p.driverCpu, p.window,
                        p.a("sent"), p.a("unanswered"), p.a("maxLagMs"),
                        p.edgeRefusals >= 0 ? "; answered at the edge " + p.edgeRefusals : ""));
            }
        }
        b.append("\n").append(RULE);
        Files.createDirectories(md.toAbsolutePath().getParent());
        Files.writeString(md, b.toString(), StandardCharsets.UTF_8);
        Plot.write(ps, png);
        System.out.println("results: " + md + "\nplot: " + png);
    }

    /** Per run, the headline rate of a line (0: not even the lowest rate). */
    static double[] headline(List<Phase> ps, List<Integer> runs, String realm, String endpoint, String shape) {
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) {
            double h = highestAvailable(ofRun(ps, runs.get(i)), realm, endpoint, shape);
            v[i] = Double.isNaN(h) ? 0 : h;
        }
        return v;
    }

    /**
     * Each run's Keycloak CPU per real login over its idle phases: how fast the machine was in that run. A run whose
     * real users alone nearly fill the cores leaves the attack no room, whatever answers it.
     */
    static String machineSpeed(List<Phase> ps) {
        Map<Integer, List<Phase>> idleByRun = ps.stream().filter(p -> p.ran() && p.shape.equals("idle"))
                .collect(Collectors.groupingBy(p -> p.run, TreeMap::new, Collectors.toList()));
        List<String> runs = new ArrayList<>();
        idleByRun.forEach((run, idle) -> {
            double cpu = idle.stream().mapToDouble(p -> p.serverCpu).sum();
            double seconds = idle.stream().mapToDouble(p -> p.seconds).sum();
            int logins = idle.stream().mapToInt(p -> p.realN).sum();
            runs.add(String.format(Locale.ROOT, "run %d %.0f ms a login (%.2f cores busy)", run, 1000 * cpu / Math.max(1, logins),
                    cpu / Math.max(1e-9, seconds)));
        });
        return runs.isEmpty() ? "" : "Machine speed: Keycloak's CPU per real login in the idle phases, and how many cores the "
                + "real users alone kept busy there: " + String.join("; ", runs) + ".\n\n";
    }

    /** A realm's idle phases on an endpoint, one per run. */
    static List<Phase> idles(List<Phase> ps, String realm, String endpoint) {
        return ps.stream().filter(p -> p.ran() && p.shape.equals("idle") && p.realm.equals(realm) && p.endpoint.equals(endpoint)).toList();
    }

    static final String MAX_INFLIGHT_TEXT = "MAX_INFLIGHT attempts";

    static final String RULE = "## How passwords hashed are counted\n\n"
            + "Keycloak 26.7.3's own steps, read in its `services` module (`AbstractUsernameFormAuthenticator`, "
            + "`directgrant/ValidateUsername`, `ValidatePassword`, `AuthenticatorUtils.dummyHash`): an unknown username is hashed "
            + "too (a dummy hash with the realm's algorithm, so that it takes as long as a known one). Counted as one hash each: "
            + "the attack's `LOGIN_ERROR` events with error `invalid_user_credentials` or `user_not_found` (both endpoints), and on "
            + "the password grant also `user_temporarily_disabled`, `user_disabled` (Keycloak's brute-force lock: the password "
            + "grant hashes a dummy there, the form does not) and `invalid_user` (a service account); and any `LOGIN`. Not counted: "
            + "the gate's `abuse_gate_blocked` and `abuse_gate_captcha_required` (refused before the lookup; a realm records at "
            + "most `events.refusalsPerMinute` of them a minute per node, so the events per phase do not count refusals: the "
            + "table's 429 answers come from the HTTP status of each attempt). Events are told "
            + "apart by address: real users come from 172.16.0.0/12, the attack from 198.18.0.0/15, 10.0.0.0/8 and 2001:db8::/32. "
            + "The attack's usernames exist in neither realm, so every hash it causes is a `user_not_found` dummy hash.\n";

    /** The lowest rate a line was run at (its RATE_FLOOR, if any), else {@code lowest}. */
    static double lowestRun(List<Phase> ps, String realm, String endpoint, String shape, double lowest) {
        return line(ps, realm, endpoint, shape).stream().filter(p -> !p.belowFloor()).mapToDouble(p -> p.rate).min().orElse(lowest);
    }

    static String rateText(double r, double lowest) {
        return Double.isNaN(r) || r == 0 ? "< " + AttackRun.fmt(lowest) + "/s" : AttackRun.fmt(r) + "/s";
    }

    static String fmt0(double d) {
        return d >= 10 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
