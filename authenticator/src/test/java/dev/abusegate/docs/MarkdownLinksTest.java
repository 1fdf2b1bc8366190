package dev.abusegate.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files reaches a file or folder that exists, and every
 * {@code #anchor} (in the same file or another Markdown file) names a heading there, by GitHub's rules: the heading's
 * text lower-cased, each character other than a letter, a digit, a space, a hyphen or an underscore dropped, spaces
 * made hyphens, a repeated anchor suffixed {@code -1}, {@code -2}, ... Links to web addresses are not fetched.
 */
class MarkdownLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", ".idea", ".vscode");
    /** An inline link or image: [text](target) or [text](target "title"). */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    @Test
    void every_relative_link_and_anchor_in_the_markdown_files_resolves() throws IOException {
        List<Path> files = markdownFiles();
        assertThat(files).as("Markdown files under " + ROOT).isNotEmpty();
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> dead = new ArrayList<>();
        for (Path file : files) {
            for (String target : links(Files.readString(file, StandardCharsets.UTF_8))) {
                String problem = check(file, target, anchors);
                if (problem != null) {
                    dead.add(ROOT.relativize(file) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(dead).as("dead links in " + files.size() + " Markdown files").isEmpty();
    }

    @Test
    void anchors_follow_githubs_rules() {
        assertThat(anchors("# Two bounds, no eviction\n## Direct grant: the token endpoint's password grant\n"
                + "### `perIp.threshold` and **more**\n## FAQ\n## FAQ\n## See [the demo](demo.md) → now\n"))
                .containsExactly("two-bounds-no-eviction", "direct-grant-the-token-endpoints-password-grant",
                        "peripthreshold-and-more", "faq", "faq-1", "see-the-demo--now");
    }

    private static String check(Path from, String target, Map<Path, Set<String>> anchors) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("//")) {
            return null; // http:, https:, mailto: ...
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = path.isEmpty() ? from : from.getParent().resolve(decode(path)).normalize();
        if (!to.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(to)) {
            return "no such file";
        }
        if (anchor == null || anchor.isEmpty()) {
            return null;
        }
        if (!to.toString().endsWith(".md")) {
            return null; // #L10 in source files and the like
        }
        Set<String> known = anchors.computeIfAbsent(to, p -> {
            try {
                return anchors(Files.readString(p, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return known.contains(decode(anchor).toLowerCase(Locale.ROOT)) ? null
                : "no heading for #" + anchor + " in " + ROOT.relativize(to);
    }

    /** The link targets of a Markdown text, outside fenced code blocks and code spans. */
    static List<String> links(String text) {
        List<String> targets = new ArrayList<>();
        for (String line : outsideFences(text)) {
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (m.find()) {
                targets.add(m.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives a Markdown text's headings, in order, plus its explicit HTML anchors. */
    static Set<String> anchors(String text) {
        Set<String> result = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : outsideFences(text)) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                result.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                result.add(a.group(1).toLowerCase(Locale.ROOT));
            }
        }
        return result;
    }

    private static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link's text only
                .replaceAll("<[^>]+>", "")                                       // inline HTML tags
                .replace("`", "")
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** The lines of a Markdown text outside fenced code blocks. */
    private static List<String> outsideFences(String text) {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.trim().startsWith("```") || line.trim().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static List<Path> markdownFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> ROOT.relativize(p).toString().split("/").length > 0)
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            if (SKIPPED_DIRS.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .collect(Collectors.toList());
        }
    }
}
