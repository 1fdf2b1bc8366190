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

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    public static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line.strip());
            if (line.strip().startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                LABEL.matcher(m.group(3)).results().forEach(l -> labels.put(l.group(1),
                        l.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\")));
            }
            try {
                out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
            } catch (NumberFormatException notANumber) {
                // "+Inf" and the like are no samples to sum
            }
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
