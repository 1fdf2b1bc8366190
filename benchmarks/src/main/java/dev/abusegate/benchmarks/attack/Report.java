package dev.abusegate.benchmarks.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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

    static void write(List<Phase> ps, Path md, Path png, String header) throws IOException {
        Set<String> endpoints = values(ps, p -> p.endpoint);
        Set<String> shapes = values(ps, p -> p.shape);
        shapes.remove("idle");
        double lowest = ps.stream().filter(p -> !p.shape.equals("idle")).mapToDouble(p -> p.rate).min().orElse(0);
        StringBuilder b = new StringBuilder();
        b.append("# Logins under attack: stock Keycloak 26.7.3 against the abuse gate\n\n");
        if (realms(ps).contains("shielded")) {
            b.append("Realms: " + String.join(", ", realms(ps).stream().map(Report::realmName).toList())
                    + ". The shielded realm's settings are in `Realms.SHIELD` (benchmarks/src/main/java/dev/abusegate/benchmarks/attack/Realms.java).\n\n");
        }
        b.append("Produced by `benchmarks/attack/run.sh` (what it does: [benchmarks/attack/README.md](../attack/README.md); "
                + "discussion: [benchmarks/results/attack-availability.md](attack-availability.md)). One run on a shared 2-core machine.\n\n");
        b.append(header).append('\n');
        b.append("## Headline: the highest attack rate at which every real user still logged in with p99 within 2x of idle\n\n");
        b.append("Offered attack requests/s, the highest tested rate at which this and every lower tested rate kept all real users "
                + "logging in with p99 at most twice the same realm's idle p99 on that endpoint (\"< r\": not even the lowest rate r).\n\n");
        List<String> realms = realms(ps);
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
                    b.append(' ').append(rateText(highestAvailable(ps, r, e, s), lowest)).append(" |");
                }
                if (realms.contains("stock")) {
                    double st = highestAvailable(ps, "stock", e, s);
                    for (String r : others) {
                        double ga = highestAvailable(ps, r, e, s);
                        String ratio = Double.isNaN(ga) ? "-" : Double.isNaN(st) ? "> " + AttackRun.fmt(ga / lowest) + "x" : fmt0(ga / st) + "x";
                        b.append(' ').append(ratio).append(" |");
                    }
                }
                b.append('\n');
            }
        }
        if (realms.contains("stock")) {
            b.append("\n## Passwords hashed for the attack, and real users, over all rates of a shape\n\n");
            b.append("Summed over the phases that ran at every offered rate (a realm's phases that were not run count nothing, so "
                    + "compare realms over the same rates). Real users: logins that succeeded, and the captchas they solved to get "
                    + "there (each asked with 429 `captcha_required`, then sent again with the solution).\n\n");
            b.append("| endpoint | attack | realm | rates run | passwords hashed | ÷ stock's over the same rates | real users ok | captchas solved |\n");
            b.append("|---|---|---|---|---|---|---|---|\n");
            for (String e : endpoints) {
                for (String s : shapes) {
                    for (String r : realms) {
                        List<Phase> line = line(ps, r, e, s);
                        long hashes = 0;
                        long stockSame = 0;
                        int ok = 0;
                        int n = 0;
                        int solved = 0;
                        int run = 0;
                        for (Phase p : line) {
                            if (!p.ran()) {
                                continue;
                            }
                            run++;
                            hashes += p.hashes;
                            ok += p.realOk;
                            n += p.realN;
                            solved += p.realCaptchas;
                            for (Phase q : line(ps, "stock", e, s)) {
                                if (q.ran() && q.rate == p.rate) {
                                    stockSame += q.hashes;
                                }
                            }
                        }
                        String share = r.equals("stock") || stockSame == 0 ? "-"
                                : String.format(Locale.ROOT, "%.1f %%", 100.0 * hashes / stockSame);
                        b.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %s | %d/%d | %d |%n", endpointName(e), shapeName(s),
                                realmName(r), run, hashes, share, ok, n, solved));
                    }
                }
            }
        }
        b.append("\nIdle (real users only): ");
        List<String> idles = new ArrayList<>();
        for (String e : endpoints) {
            for (String r : realms) {
                Phase i = idle(ps, r, e);
                if (i != null) {
                    idles.add(String.format(Locale.ROOT, "%s %s p50 %.0f ms, p99 %.0f ms (%d/%d ok)", r, e, i.p50, i.p99, i.realOk, i.realN));
                }
            }
        }
        b.append(String.join("; ", idles)).append(".\n\n");

        b.append("## Table\n\n");
        b.append("Per phase: one realm, one endpoint, one attack shape at one offered rate. Columns: real users' logins that "
                + "succeeded and their latency (nearest-rank percentiles of one phase's logins; with under 100 logins the p99 is the "
                + "slowest or second slowest); attack attempts sent per second of the phase, and those dropped (due while "
                + MAX_INFLIGHT_TEXT + " were unanswered) or sent late (over 50 ms behind schedule); what the attack got back; "
                + "passwords Keycloak hashed for the attack, from its events; the server's CPU per 1,000 attack attempts after "
                + "taking away what the same number of real logins cost in the idle phase; the attack client's own CPU per 1,000 "
                + "attempts sent (its own JVM). On the form an attempt is one POST; the GETs opening login sessions are counted "
                + "apart (\"GETs\").\n\n");
        b.append("| endpoint | realm | attack | offered /s | sent /s | dropped / late | real users ok | p50 ms | p99 ms | answers: "
                + "wrong password / 429 captcha / 429 blocked / other | GETs | passwords hashed | server CPU s | server CPU s per 1,000 "
                + "attempts | client CPU s per 1,000 |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String e : endpoints) {
            for (Phase p : ps) {
                if (!p.endpoint.equals(e)) {
                    continue;
                }
                String offered = p.shape.equals("idle") ? "0" : AttackRun.fmt(p.rate);
                if (!p.ran()) {
                    b.append("| ").append(e).append(" | ").append(p.realm).append(" | ").append(shapeName(p.shape)).append(" | ")
                            .append(offered).append(" | ").append(p.note).append(" | | | | | | | | | | |\n");
                    continue;
                }
                Phase idle = idle(ps, p.realm, e);
                boolean attack = !p.shape.equals("idle");
                long sent = p.a("sent");
                long answered = sent - p.a("unanswered");
                String cpuPer = "-";
                String clientPer = "-";
                if (attack && answered > 0 && idle != null) {
                    double marginal = p.serverCpu - idle.serverCpu * p.realN / Math.max(1, idle.realN);
                    cpuPer = String.format(Locale.ROOT, "%.2f", marginal * 1000 / answered);
                    clientPer = String.format(Locale.ROOT, "%.2f", p.clientCpu * 1000 / Math.max(1, sent));
                }
                String mark = attack && idle != null && !available(p, idle) ? " ✗" : "";
                b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d/%d%s | %.0f | %.0f | %s | %s | %d | %.1f | %s | %s |%n",
                        e, p.realm, attack ? shapeName(p.shape) : "idle", offered,
                        attack ? String.format(Locale.ROOT, "%.0f", sent / p.seconds) : "0",
                        attack ? p.a("dropped") + " / " + p.a("late") : "-", p.realOk, p.realN, mark, p.p50, p.p99,
                        attack ? p.a("invalid") + " / " + p.a("captcha") + " / " + p.a("blocked") + " / "
                                + (p.a("other") + p.a("errors") + p.a("unanswered") + p.a("success")) : "-",
                        attack && e.equals("form") ? Long.toString(p.a("gets")) : "-", p.hashes, p.serverCpu, cpuPer, clientPer));
            }
        }
        b.append("\n✗: not every real user logged in, or their p99 was over twice the idle p99.\n\n");
        b.append("## Events per phase (the attack's LOGIN_ERROR errors; real users' LOGIN / LOGIN_ERROR)\n\n");
        for (Phase p : ps) {
            if (p.ran()) {
                b.append(String.format(Locale.ROOT, "- %s %s %s %s/s: attack %s, attack LOGIN %d; real users LOGIN %d, LOGIN_ERROR %d; "
                        + "CPU s: server %.2f, attack client %.2f, real-user driver %.2f over %.1f s; attack sent %d, unanswered %d, "
                        + "latest send %d ms behind schedule%n", p.endpoint, p.realm, p.shape, AttackRun.fmt(p.rate), p.events,
                        p.attackLoginEvents, p.realLoginEvents, p.realErrorEvents, p.serverCpu, p.clientCpu, p.driverCpu, p.window,
                        p.a("sent"), p.a("unanswered"), p.a("maxLagMs")));
            }
        }
        b.append("\n").append(RULE);
        Files.createDirectories(md.toAbsolutePath().getParent());
        Files.writeString(md, b.toString(), StandardCharsets.UTF_8);
        Plot.write(ps, png);
        System.out.println("results: " + md + "\nplot: " + png);
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

    static String rateText(double r, double lowest) {
        return Double.isNaN(r) ? "< " + AttackRun.fmt(lowest) + "/s" : AttackRun.fmt(r) + "/s";
    }

    static String fmt0(double d) {
        return d >= 10 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
