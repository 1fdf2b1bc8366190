package dev.abusegate.benchmarks.attack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JFR recording's CPU samples ({@code jdk.ExecutionSample}: Java code running on a CPU) went: by area
 * (share of samples whose stack passes through it), by top frame (self), and the hottest methods of this
 * project and of Keycloak including callees; plus the GC pauses and the CPU load JFR saw.
 *
 * <p>Usage: {@code JfrSummary <recording.jfr>}.
 */
public final class JfrSummary {

    /** Areas, each a set of class-name prefixes; a sample counts for every area its stack passes through. */
    static final Map<String, String[]> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("abuse gate (dev.abusegate)", new String[] {"dev.abusegate."});
        AREAS.put("FreeMarker page rendering", new String[] {"freemarker."});
        AREAS.put("password hashing (argon2, bouncycastle)", new String[] {"org.bouncycastle.crypto.generators.Argon2",
            "org.keycloak.credential.hash."});
        AREAS.put("database (Hibernate, H2, JDBC, Agroal)", new String[] {"org.hibernate.", "org.h2.", "io.agroal."});
        AREAS.put("event store (JpaEventStoreProvider)", new String[] {"org.keycloak.events.jpa."});
        AREAS.put("Infinispan", new String[] {"org.infinispan."});
        AREAS.put("token/JWT signing and JSON", new String[] {"org.keycloak.jose.", "org.keycloak.crypto.", "com.fasterxml.jackson."});
        AREAS.put("authentication sessions / flow processor", new String[] {"org.keycloak.authentication.", "org.keycloak.sessions.",
            "org.keycloak.models.sessions."});
        AREAS.put("HTTP server (Vert.x, Netty, RESTEasy)", new String[] {"io.vertx.", "io.netty.", "org.jboss.resteasy."});
    }

    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println(summarise(Path.of(args[0])));
    }

    static String summarise(Path file) throws IOException {
        long samples = 0;
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        Map<String, Long> areas = new LinkedHashMap<>();
        for (String a : AREAS.keySet()) {
            areas.put(a, 0L);
        }
        double gcPauseMs = 0;
        long gcs = 0;
        double cpuUser = 0;
        double cpuSystem = 0;
        double machine = 0;
        long loads = 0;
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                switch (type) {
                    case "jdk.ExecutionSample" -> {
                        if (e.getStackTrace() == null) {
                            continue;
                        }
                        samples++;
                        List<RecordedFrame> frames = e.getStackTrace().getFrames();
                        if (!frames.isEmpty()) {
                            self.merge(name(frames.get(0)), 1L, Long::sum);
                        }
                        Set<String> seen = new HashSet<>();
                        Set<String> seenArea = new HashSet<>();
                        for (RecordedFrame f : frames) {
                            String n = name(f);
                            if (seen.add(n)) {
                                inclusive.merge(n, 1L, Long::sum);
                            }
                            for (Map.Entry<String, String[]> a : AREAS.entrySet()) {
                                for (String prefix : a.getValue()) {
                                    if (n.startsWith(prefix) && seenArea.add(a.getKey())) {
                                        areas.merge(a.getKey(), 1L, Long::sum);
                                    }
                                }
                            }
                        }
                    }
                    case "jdk.GarbageCollection" -> {
                        gcs++;
                        gcPauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
                    }
                    case "jdk.CPULoad" -> {
                        loads++;
                        cpuUser += e.getFloat("jvmUser");
                        cpuSystem += e.getFloat("jvmSystem");
                        machine += e.getFloat("machineTotal");
                    }
                    default -> {
                    }
                }
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%d CPU samples (jdk.ExecutionSample, Java frames only; time in native code and in the "
                + "JVM's own threads is not sampled)%n", samples));
        if (loads > 0) {
            b.append(String.format(Locale.ROOT, "CPU load JFR saw (mean of %d samples, share of the whole machine): JVM user %.0f %%, "
                    + "JVM system %.0f %%, machine total %.0f %%%n", loads, 100 * cpuUser / loads, 100 * cpuSystem / loads,
                    100 * machine / loads));
        }
        b.append(String.format(Locale.ROOT, "GC: %d collections, %.0f ms of pauses%n%n", gcs, gcPauseMs));
        b.append("Share of samples whose stack passes through (areas overlap):\n");
        for (Map.Entry<String, Long> a : areas.entrySet()) {
            b.append(String.format(Locale.ROOT, "  %5.1f %%  %s%n", pct(a.getValue(), samples), a.getKey()));
        }
        b.append("\nTop frames (self), top 25:\n");
        for (Map.Entry<String, Long> e : top(self, 25, null)) {
            b.append(String.format(Locale.ROOT, "  %5.1f %%  %s%n", pct(e.getValue(), samples), e.getKey()));
        }
        b.append("\nThe gate's methods, including callees, top 15:\n");
        for (Map.Entry<String, Long> e : top(inclusive, 15, "dev.abusegate.")) {
            b.append(String.format(Locale.ROOT, "  %5.1f %%  %s%n", pct(e.getValue(), samples), e.getKey()));
        }
        b.append("\nKeycloak's methods, including callees, top 25:\n");
        for (Map.Entry<String, Long> e : top(inclusive, 25, "org.keycloak.")) {
            b.append(String.format(Locale.ROOT, "  %5.1f %%  %s%n", pct(e.getValue(), samples), e.getKey()));
        }
        return b.toString();
    }

    static String name(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        return m == null ? "?" : m.getType().getName() + "." + m.getName();
    }

    static double pct(long n, long total) {
        return total == 0 ? 0 : 100.0 * n / total;
    }

    static List<Map.Entry<String, Long>> top(Map<String, Long> m, int n, String prefix) {
        List<Map.Entry<String, Long>> l = new ArrayList<>();
        for (Map.Entry<String, Long> e : m.entrySet()) {
            if (prefix == null || e.getKey().startsWith(prefix)) {
                l.add(e);
            }
        }
        l.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        return l.subList(0, Math.min(n, l.size()));
    }
}
