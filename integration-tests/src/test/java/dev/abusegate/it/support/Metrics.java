package dev.abusegate.it.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the Prometheus text format served on the management port's {@code /metrics}. */
public final class Metrics {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)(\\s+\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private Metrics() {
    }

    /** One sample line: metric name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /** All samples in {@code text}. */
    public static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher lm = LABEL.matcher(m.group(3));
                while (lm.find()) {
                    labels.put(lm.group(1), lm.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
                }
            }
            double value;
            try {
                value = Double.parseDouble(m.group(4));
            } catch (NumberFormatException e) {
                continue;
            }
            out.add(new Sample(m.group(1), labels, value));
        }
        return out;
    }

    /** Sum of the values of the samples of {@code name} whose labels contain all of {@code labels}; 0 if none. */
    public static double sum(String text, String name, Map<String, String> labels) {
        return parse(text).stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }
}
