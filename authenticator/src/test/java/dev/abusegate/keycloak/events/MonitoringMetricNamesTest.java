package dev.abusegate.keycloak.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.store.CounterStore;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
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
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * monitoring/grafana-dashboard.json and monitoring/prometheus-alerts.yml query only metrics that {@link GateMetrics}
 * exports, with the labels and label values it gives them, and the dashboard charts every one of them. The exported
 * names are harvested by calling every public method of {@link GateMetrics} on a {@link SimpleMeterRegistry} and
 * naming each meter as Keycloak's Prometheus endpoint does (a counter gets {@code _total}). Each alert's runbook link
 * points at a section of docs/operations.md.
 */
class MonitoringMetricNamesTest {

    private static final Path ROOT = Path.of("..");
    private static final Path DASHBOARD = ROOT.resolve("monitoring").resolve("grafana-dashboard.json");
    private static final Path ALERTS = ROOT.resolve("monitoring").resolve("prometheus-alerts.yml");
    private static final Path OPERATIONS = ROOT.resolve("docs").resolve("operations.md");
    private static final String TEST_REALM = "monitoring-metric-names-test";

    /** Labels Prometheus adds to every scraped series. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

    private static final Set<String> PROMQL_KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "and", "or", "unless", "bool", "offset", "sum", "min", "max", "avg", "count", "group",
            "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "inf", "nan");

    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][\\w:]*)?\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_]\\w*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:$])[a-zA-Z_:][\\w:]*");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][\\w:]*)\\s*,\\s*(\\w+)\\s*\\)");

    /** Exported metric name to its label names. */
    private static Map<String, Set<String>> exported;

    @BeforeAll
    static void harvest() throws Exception {
        exported = exportedMetrics();
    }

    // ------------------------------------------------------------------------------------------
    // The checks

    @Test
    void the_dashboard_and_the_alerts_query_only_metrics_the_code_exports() throws IOException {
        Map<String, Set<String>> used = new TreeMap<>();
        for (String expr : dashboardExpressions()) {
            used.computeIfAbsent(DASHBOARD.getFileName().toString(), k -> new TreeSet<>()).addAll(metricNames(expr));
        }
        for (String expr : alertExpressions()) {
            used.computeIfAbsent(ALERTS.getFileName().toString(), k -> new TreeSet<>()).addAll(metricNames(expr));
        }
        assertThat(used).containsKeys(DASHBOARD.getFileName().toString(), ALERTS.getFileName().toString());
        Map<String, Set<String>> unknown = new TreeMap<>();
        used.forEach((file, names) -> names.stream().filter(n -> !exported.containsKey(n))
                .forEach(n -> unknown.computeIfAbsent(file, k -> new TreeSet<>()).add(n)));
        assertThat(unknown).as("metric names in monitoring/ that GateMetrics does not export (it exports %s)",
                exported.keySet()).isEmpty();
    }

    @Test
    void every_exported_metric_has_a_dashboard_panel() throws IOException {
        Set<String> charted = new TreeSet<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                charted.addAll(metricNames(target.path("expr").asText()));
            }
        }
        assertThat(charted).as("metrics charted by a panel of " + DASHBOARD).containsAll(exported.keySet());
    }

    @Test
    void label_matchers_use_the_labels_and_values_the_code_exports() throws IOException {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        values.put("outcome", codes(Arrays.stream(Outcome.values()).map(Outcome::code).toList()));
        Set<String> layers = new TreeSet<>(List.of("none", GateEvents.LAYER_REALM));
        Arrays.stream(Layer.values()).map(Layer::label).forEach(layers::add);
        values.put("layer", layers);
        values.put("table", codes(CounterStore.TABLES));
        List<String> problems = new ArrayList<>();
        List<String> expressions = new ArrayList<>(dashboardExpressions());
        expressions.addAll(alertExpressions());
        for (String expr : expressions) {
            Matcher s = SELECTOR.matcher(expr);
            while (s.find()) {
                String metric = s.group(1);
                if (metric == null) {
                    problems.add("a selector without a metric name in: " + expr);
                    continue;
                }
                Set<String> labels = exported.getOrDefault(metric, Set.of());
                Matcher m = MATCHER.matcher(s.group(2));
                while (m.find()) {
                    String label = m.group(1);
                    if (!labels.contains(label) && !TARGET_LABELS.contains(label)) {
                        problems.add(metric + " has no label " + label + " (it has " + labels + "): " + expr);
                    } else if (m.group(2).equals("=") && values.containsKey(label)
                            && !values.get(label).contains(m.group(3))) {
                        problems.add(label + "=\"" + m.group(3) + "\" is not a value the code gives ("
                                + values.get(label) + "): " + expr);
                    }
                }
            }
        }
        assertThat(problems).as("label matchers in monitoring/").isEmpty();
    }

    @Test
    void each_alert_has_a_description_and_a_runbook_section_in_operations_md() throws IOException {
        Set<String> anchors = new TreeSet<>();
        for (String line : Files.readAllLines(OPERATIONS, StandardCharsets.UTF_8)) {
            if (line.startsWith("#")) {
                anchors.add(slug(line.replaceFirst("^#+\\s*", "")));
            }
        }
        List<String> lines = Files.readAllLines(ALERTS, StandardCharsets.UTF_8);
        List<String> alerts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String alert = null;
        Set<String> seen = new LinkedHashSet<>();
        for (String line : lines) {
            String t = line.trim();
            if (t.startsWith("- alert:")) {
                checkAlert(alert, seen, anchors, problems);
                alert = t.substring("- alert:".length()).trim();
                alerts.add(alert);
                seen = new LinkedHashSet<>();
            } else if (alert != null && t.startsWith("runbook_url:")) {
                seen.add("runbook_url " + unquote(t.substring("runbook_url:".length()).trim()));
            } else if (alert != null && t.startsWith("description:")) {
                seen.add("description");
            }
        }
        checkAlert(alert, seen, anchors, problems);
        assertThat(alerts).contains("AbuseGateAttackStarted", "AbuseGateRealmUnderAttack", "AbuseGateStoreNearBound",
                "AbuseGateStoreOutage");
        assertThat(problems).as("alerts in " + ALERTS + " (runbook sections: " + OPERATIONS + ")").isEmpty();
    }

    /** The check itself: a misspelt name, a wrong label and a made-up layer are caught. */
    @Test
    void a_misspelt_metric_name_is_caught() {
        assertThat(metricNames("sum by (layer) (rate(abuse_gate_decision_total{realm=~\"$realm\"}[$__rate_interval]))"))
                .containsExactly("abuse_gate_decision_total")
                .isNotEmpty()
                .allSatisfy(n -> assertThat(exported).doesNotContainKey(n));
        assertThat(metricNames("max by (realm) (abuse_gate_realm_under_attack) == 1 and on (realm) up > 0"))
                .containsExactlyInAnyOrder("abuse_gate_realm_under_attack", "up");
        assertThat(metricNames("label_values(abuse_gate_decisions_totl, realm)")).containsExactly("abuse_gate_decisions_totl");
        assertThat(exported).containsKeys("abuse_gate_decisions_total", "abuse_gate_realm_under_attack",
                "abuse_gate_table_share", "abuse_gate_store_degraded_total", "abuse_gate_store_failures_total");
    }

    private static void checkAlert(String alert, Set<String> seen, Set<String> anchors, List<String> problems) {
        if (alert == null) {
            return;
        }
        if (!seen.contains("description")) {
            problems.add(alert + " has no description");
        }
        String url = seen.stream().filter(s -> s.startsWith("runbook_url ")).findFirst().map(s -> s.substring(12)).orElse(null);
        String prefix = "docs/operations.md#";
        if (url == null || !url.startsWith(prefix)) {
            problems.add(alert + ": runbook_url " + url + " does not start with " + prefix);
        } else if (!anchors.contains(url.substring(prefix.length()))) {
            problems.add(alert + ": no section #" + url.substring(prefix.length()) + " in docs/operations.md");
        }
    }

    // ------------------------------------------------------------------------------------------
    // What the code exports

    private static Map<String, Set<String>> exportedMetrics() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.globalRegistry.add(registry);
        try {
            int called = 0;
            for (Method m : GateMetrics.class.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                for (Object[] args : argumentSets(m)) {
                    try {
                        m.invoke(null, args);
                    } catch (InvocationTargetException e) {
                        throw new AssertionError("GateMetrics." + m.getName() + " threw", e.getCause());
                    }
                }
                called++;
            }
            assertThat(called).as("public methods of GateMetrics").isPositive();
            Map<String, Set<String>> names = new TreeMap<>();
            for (Meter meter : registry.getMeters()) {
                if (!TEST_REALM.equals(meter.getId().getTag("realm"))) {
                    continue;
                }
                Set<String> labels = names.computeIfAbsent(prometheusName(meter.getId()), k -> new TreeSet<>());
                meter.getId().getTags().stream().map(Tag::getKey).forEach(labels::add);
            }
            return names;
        } finally {
            Metrics.globalRegistry.remove(registry);
            for (Meter meter : List.copyOf(Metrics.globalRegistry.getMeters())) {
                if (TEST_REALM.equals(meter.getId().getTag("realm"))) {
                    Metrics.globalRegistry.remove(meter);
                }
            }
        }
    }

    /** The name Keycloak's /metrics gives a meter (Micrometer's Prometheus naming convention). */
    private static String prometheusName(Meter.Id id) {
        String base = id.getName().replace('.', '_');
        switch (id.getType()) {
            case COUNTER:
                return base.endsWith("_total") ? base : base + "_total";
            case GAUGE:
                return base;
            default:
                throw new AssertionError("GateMetrics registers a " + id.getType() + " (" + id.getName()
                        + "): teach MonitoringMetricNamesTest its Prometheus names");
        }
    }

    /** Arguments for each call of a GateMetrics method: every constant of each enum parameter is used once. */
    private static List<Object[]> argumentSets(Method m) {
        Class<?>[] types = m.getParameterTypes();
        int calls = 1;
        for (Class<?> t : types) {
            if (t.isEnum()) {
                calls = Math.max(calls, t.getEnumConstants().length);
            }
        }
        List<Object[]> sets = new ArrayList<>();
        for (int call = 0; call < calls; call++) {
            Object[] args = new Object[types.length];
            boolean realm = true;
            for (int i = 0; i < types.length; i++) {
                Class<?> t = types[i];
                if (t == String.class) {
                    args[i] = realm ? TEST_REALM : "x";
                    realm = false;
                } else if (t.isEnum()) {
                    Object[] constants = t.getEnumConstants();
                    args[i] = constants[call % constants.length];
                } else {
                    args[i] = sample(m, t);
                }
            }
            sets.add(args);
        }
        return sets;
    }

    private static Object sample(Method m, Class<?> t) {
        if (t == BooleanSupplier.class) {
            return (BooleanSupplier) () -> true;
        } else if (t == DoubleSupplier.class) {
            return (DoubleSupplier) () -> 0.5;
        } else if (t == LongSupplier.class) {
            return (LongSupplier) () -> 1L;
        } else if (t == IntSupplier.class) {
            return (IntSupplier) () -> 1;
        } else if (t == Supplier.class) {
            return (Supplier<Object>) () -> 1;
        } else if (t == double.class || t == Double.class) {
            return 1.0;
        } else if (t == long.class || t == Long.class) {
            return 1L;
        } else if (t == int.class || t == Integer.class) {
            return 1;
        } else if (t == boolean.class || t == Boolean.class) {
            return true;
        } else if (t.isAssignableFrom(IllegalStateException.class)) {
            return new IllegalStateException("test");
        }
        throw new AssertionError("GateMetrics." + m.getName() + " takes a " + t.getName()
                + ": teach MonitoringMetricNamesTest.sample to make one");
    }

    private static Set<String> codes(List<String> list) {
        return new TreeSet<>(list);
    }

    // ------------------------------------------------------------------------------------------
    // What monitoring/ queries

    private static List<JsonNode> panels() throws IOException {
        JsonNode root = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<JsonNode> out = new ArrayList<>();
        collectPanels(root.path("panels"), out);
        assertThat(out).as("panels of " + DASHBOARD).isNotEmpty();
        return out;
    }

    private static void collectPanels(JsonNode panels, List<JsonNode> out) {
        for (JsonNode p : panels) {
            if (!"row".equals(p.path("type").asText())) {
                out.add(p);
            }
            collectPanels(p.path("panels"), out);
        }
    }

    private static List<String> dashboardExpressions() throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode panel : panels()) {
            assertThat(panel.path("targets").size()).as("queries of panel " + panel.path("title")).isPositive();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asText()).as("expr of panel " + panel.path("title")).isNotBlank();
                out.add(target.path("expr").asText());
            }
        }
        JsonNode root = new ObjectMapper().readTree(DASHBOARD.toFile());
        for (JsonNode variable : root.path("templating").path("list")) {
            JsonNode q = variable.path("query");
            out.add(q.isObject() ? q.path("query").asText() : q.asText());
            out.add(variable.path("definition").asText());
        }
        return out;
    }

    /** The {@code expr:} values of the rules file (one line each, or a block scalar). */
    private static List<String> alertExpressions() throws IOException {
        List<String> lines = Files.readAllLines(ALERTS, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).trim();
            if (!t.startsWith("expr:")) {
                continue;
            }
            String value = t.substring("expr:".length()).trim();
            if (value.startsWith("|") || value.startsWith(">")) {
                int indent = lines.get(i).indexOf("expr:");
                StringBuilder block = new StringBuilder();
                while (i + 1 < lines.size() && (lines.get(i + 1).isBlank()
                        || lines.get(i + 1).length() - lines.get(i + 1).stripLeading().length() > indent)) {
                    block.append(lines.get(++i).trim()).append(' ');
                }
                value = block.toString();
            }
            out.add(unquote(value));
        }
        assertThat(out).as("expressions in " + ALERTS).isNotEmpty();
        return out;
    }

    /** The metric names a PromQL expression (or a Grafana {@code label_values} query) reads. */
    static Set<String> metricNames(String expr) {
        Set<String> names = new TreeSet<>();
        if (expr == null || expr.isBlank()) {
            return names;
        }
        Matcher lv = LABEL_VALUES.matcher(expr);
        while (lv.find()) {
            names.add(lv.group(1));
        }
        String rest = LABEL_VALUES.matcher(expr).replaceAll(" ")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\"[^\"]*\"", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Matcher id = IDENTIFIER.matcher(rest);
        while (id.find()) {
            String name = id.group();
            String after = rest.substring(id.end()).stripLeading();
            if (after.startsWith("(") || PROMQL_KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            names.add(name);
        }
        return names;
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
    private static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
