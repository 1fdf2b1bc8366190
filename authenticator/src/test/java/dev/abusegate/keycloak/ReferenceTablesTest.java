package dev.abusegate.keycloak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/reference.md's "Realm settings" table lists every key once, with the default and valid values of its
 * descriptor; a table row naming a key anywhere else (README's Configure table, other docs) agrees on its default.
 * On failure the message shows the rows the descriptors expect: a new setting's row goes into docs/reference.md.
 */
class ReferenceTablesTest {

    private static final Path ROOT = Path.of("..");
    private static final Path REFERENCE = ROOT.resolve("docs").resolve("reference.md");
    private static final String SETTINGS_SECTION = "## Realm settings";

    private static String section(String text, String heading) {
        int a = text.indexOf("\n" + heading + "\n");
        assertThat(a).as(heading + " in " + REFERENCE).isNotNegative();
        int b = text.indexOf("\n## ", a + heading.length() + 2);
        return text.substring(a, b < 0 ? text.length() : b);
    }

    /** Table rows whose first cell is a backticked key (not a kc.sh option): key to cells. */
    private static Map<String, List<String>> keyRows(String text, boolean once) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String t = line.trim();
            if (!t.startsWith("| `") || t.startsWith("| `--")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String c : t.substring(1, t.length() - 1).split("\\|")) {
                cells.add(c.trim());
            }
            String key = cells.get(0).replace("`", "");
            if (rows.put(key, cells) != null && once) {
                throw new AssertionError(REFERENCE + " lists " + key + " twice");
            }
        }
        return rows;
    }

    private static String defaultCell(Setting<?> s) {
        return s.defaultValue() == null ? "(empty)" : "`" + s.defaultValue() + "`";
    }

    private static String validCell(Setting<?> s) {
        switch (s.kind()) {
            case TEXT:
            case SECRET:
                return null; // free text, described in words
            default:
                return s.validValues();
        }
    }

    @Test
    void the_reference_lists_every_setting_as_its_descriptor_says() throws IOException {
        String reference = Files.readString(REFERENCE, StandardCharsets.UTF_8);
        Map<String, List<String>> rows = keyRows(section(reference, SETTINGS_SECTION), true);
        StringBuilder expected = new StringBuilder();
        List<String> problems = new ArrayList<>();
        for (Setting<?> s : SettingProperties.settings()) {
            expected.append("| `").append(s.key()).append("` | ").append(defaultCell(s)).append(" | ")
                    .append(validCell(s) == null ? "…" : validCell(s)).append(" | … |\n");
            List<String> cells = rows.remove(s.key());
            if (cells == null) {
                problems.add(s.key() + ": missing");
                continue;
            }
            if (cells.size() < 4) {
                problems.add(s.key() + ": expected Key | Default | Valid values | Meaning");
                continue;
            }
            if (!cells.get(1).equals(defaultCell(s))) {
                problems.add(s.key() + ": default " + cells.get(1) + ", descriptor " + defaultCell(s));
            }
            if (validCell(s) != null && !cells.get(2).equals(validCell(s))) {
                problems.add(s.key() + ": valid values '" + cells.get(2) + "', descriptor '" + validCell(s) + "'");
            }
        }
        rows.keySet().forEach(k -> problems.add(k + ": in " + REFERENCE + ", but no such key"));
        assertThat(problems).as(REFERENCE + " " + SETTINGS_SECTION + " disagrees with the descriptors; expected rows:\n"
                + expected).isEmpty();
    }

    @Test
    void other_rows_naming_a_key_agree_on_its_default() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        int checked = 0;
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            if (file.equals(REFERENCE)) {
                text = text.replace(section(text, SETTINGS_SECTION), "");
            }
            Map<String, List<String>> rows = keyRows(text, false);
            for (Setting<?> s : SettingProperties.settings()) {
                List<String> cells = rows.get(s.key());
                if (cells != null) {
                    assertThat(cells.get(1)).as(file + ": " + s.key()).isEqualTo(defaultCell(s));
                    checked++;
                }
            }
        }
        assertThat(checked).as("README's Configure table names some keys").isPositive();
    }
}
