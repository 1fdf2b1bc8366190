package dev.abusegate.benchmarks.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One phase's figures (one realm, one endpoint, one attack shape at one offered rate, or idle), and its TSV form. */
final class Phase {

    String realm;
    String endpoint;
    String shape;
    double rate;
    double seconds;
    /** From the first real login and the attack's start until every real login and attack attempt was answered. */
    double window;
    double serverCpu;
    double clientCpu;
    double driverCpu;
    int realN;
    int realOk;
    double p50 = Double.NaN;
    double p99 = Double.NaN;
    double max = Double.NaN;
    /** The ten slowest real logins, "ms@s into the phase" (printed with the phase, not kept in the TSV); null when not known. */
    String slowest;
    /** The attack client's counts (sent, dropped, late, gets, invalid, blocked, captcha, ...), empty when idle. */
    Map<String, Long> attack = new LinkedHashMap<>();
    /** The attack's LOGIN_ERROR events by error. */
    Map<String, Long> events = new TreeMap<>();
    long realLoginEvents;
    long realErrorEvents;
    long attackLoginEvents;
    /** Captchas the real users solved (each asked with HTTP 429 captcha_required, then logged in with the solution). */
    int realCaptchas;
    /** Password hashes Keycloak computed for the attack, from its events ({@link AttackRun#hashed}). */
    long hashes;
    /** Why the phase did not run; null when it ran. */
    String note;
    /** Which of the RUNS repetitions (1-based) the phase belongs to; each run has a Keycloak of its own. */
    int run = 1;
    /** CPU seconds of the reverse proxy (nginx, master and workers) in front of the realm; 0 without one. */
    double proxyCpu;
    /** Attempts the gate answered at the edge, before Keycloak's flow ({@code abuse_gate_edge_refusals_total}); -1 unknown. */
    long edgeRefusals = -1;

    static Phase skipped(int run, String realm, String endpoint, String shape, double rate, String note) {
        Phase p = new Phase();
        p.run = run;
        p.realm = realm;
        p.endpoint = endpoint;
        p.shape = shape;
        p.rate = rate;
        p.note = note;
        return p;
    }

    /** Not run because the rate is below its realm's RATE_FLOOR (a line then starts at its floor). */
    boolean belowFloor() {
        return note != null && note.startsWith("not run: below RATE_FLOOR");
    }

    boolean ran() {
        return note == null;
    }

    long a(String k) {
        return attack.getOrDefault(k, 0L);
    }

    String summary() {
        return String.format("%-8s %-5s %-6s %6s/s: real %d/%d ok (" + realCaptchas + " captchas solved), p50 %.0f ms, p99 %.0f ms | attack sent %d dropped %d late %d "
                + "(invalid %d, captcha %d, blocked %d, other %d, errors %d, unanswered %d) | hashes %d | CPU s: server %.2f, attack client %.2f, "
                + "driver %.2f in %.1f s | events %s", realm, endpoint, shape, AttackRun.fmt(rate), realOk, realN, p50, p99, a("sent"),
                a("dropped"), a("late"), a("invalid"), a("captcha"), a("blocked"), a("other"), a("errors"), a("unanswered"), hashes,
                serverCpu, clientCpu, driverCpu, window, events) + (proxyCpu > 0 ? String.format(" | nginx CPU s %.2f", proxyCpu) : "")
                + (edgeRefusals >= 0 ? " | answered at the edge " + edgeRefusals : "")
                + (slowest != null ? " | slowest (ms@s into the phase) " + slowest : "");
    }

    static final String[] COLUMNS = {"realm", "endpoint", "shape", "rate", "seconds", "window", "serverCpu", "clientCpu", "driverCpu",
        "realN", "realOk", "p50", "p99", "max", "attack", "events", "realLoginEvents", "realErrorEvents", "attackLoginEvents", "hashes",
        "note", "realCaptchas", "run", "proxyCpu", "edgeRefusals"};

    String tsv() {
        return String.join("\t", realm, endpoint, shape, Double.toString(rate), Double.toString(seconds), Double.toString(window),
                Double.toString(serverCpu), Double.toString(clientCpu), Double.toString(driverCpu), Integer.toString(realN),
                Integer.toString(realOk), Double.toString(p50), Double.toString(p99), Double.toString(max), map(attack), map(events),
                Long.toString(realLoginEvents), Long.toString(realErrorEvents), Long.toString(attackLoginEvents), Long.toString(hashes),
                note == null ? "" : note, Integer.toString(realCaptchas), Integer.toString(run), Double.toString(proxyCpu),
                Long.toString(edgeRefusals));
    }

    static Phase fromTsv(String line) {
        String[] f = line.split("\t", -1);
        Phase p = new Phase();
        p.realm = f[0];
        p.endpoint = f[1];
        p.shape = f[2];
        p.rate = Double.parseDouble(f[3]);
        p.seconds = Double.parseDouble(f[4]);
        p.window = Double.parseDouble(f[5]);
        p.serverCpu = Double.parseDouble(f[6]);
        p.clientCpu = Double.parseDouble(f[7]);
        p.driverCpu = Double.parseDouble(f[8]);
        p.realN = Integer.parseInt(f[9]);
        p.realOk = Integer.parseInt(f[10]);
        p.p50 = Double.parseDouble(f[11]);
        p.p99 = Double.parseDouble(f[12]);
        p.max = Double.parseDouble(f[13]);
        p.attack = unmap(f[14], new LinkedHashMap<>());
        p.events = unmap(f[15], new TreeMap<>());
        p.realLoginEvents = Long.parseLong(f[16]);
        p.realErrorEvents = Long.parseLong(f[17]);
        p.attackLoginEvents = Long.parseLong(f[18]);
        p.hashes = Long.parseLong(f[19]);
        p.note = f[20].isEmpty() ? null : f[20];
        // TSVs written before these columns have none: no captchas, one run, no proxy, edge unknown
        p.realCaptchas = f.length > 21 ? Integer.parseInt(f[21]) : 0;
        p.run = f.length > 22 ? Integer.parseInt(f[22]) : 1;
        p.proxyCpu = f.length > 23 ? Double.parseDouble(f[23]) : 0;
        p.edgeRefusals = f.length > 24 ? Long.parseLong(f[24]) : -1;
        return p;
    }

    static void writeTsv(List<Phase> phases, Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(String.join("\t", COLUMNS));
        for (Phase p : phases) {
            lines.add(p.tsv());
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    static List<Phase> readTsv(Path file) throws IOException {
        List<Phase> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String l : lines.subList(1, lines.size())) {
            out.add(fromTsv(l));
        }
        return out;
    }

    private static String map(Map<String, Long> m) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Long> e : m.entrySet()) {
            b.append(b.length() > 0 ? "," : "").append(e.getKey()).append('=').append(e.getValue());
        }
        return b.toString();
    }

    private static Map<String, Long> unmap(String s, Map<String, Long> into) {
        if (!s.isEmpty()) {
            for (String kv : s.split(",")) {
                int eq = kv.indexOf('=');
                into.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
            }
        }
        return into;
    }
}
