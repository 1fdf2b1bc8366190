package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine is plain Java: no Keycloak, Infinispan, Micrometer, Jakarta or JBoss types. Checked on the
 * compiled classes (their constant pools name every referenced type) and on the sources' imports.
 */
class EngineArchitectureTest {

    static final List<String> FORBIDDEN = List.of("org/keycloak/", "org/infinispan/", "io/micrometer/", "jakarta/", "org/jboss/");

    @Test
    void engine_classes_reference_no_server_framework() throws Exception {
        Path root = Paths.get(AbuseGate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path pkg = root.resolve("dev/abusegate/engine");
        Map<String, List<String>> offenders = new TreeMap<>();
        List<Path> classes;
        try (Stream<Path> s = Files.walk(pkg)) {
            classes = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(classes).as("engine classes found under " + pkg).hasSizeGreaterThanOrEqualTo(15);
        for (Path c : classes) {
            List<String> refs = forbiddenReferences(constantPoolStrings(Files.readAllBytes(c)));
            if (!refs.isEmpty()) {
                offenders.put(pkg.relativize(c).toString(), refs);
            }
        }
        assertThat(offenders).isEmpty();
    }

    @Test
    void engine_sources_import_no_server_framework() throws IOException {
        Path src = Paths.get("src/main/java/dev/abusegate/engine");
        assertThat(src).isDirectory();
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    String t = line.trim();
                    if (t.startsWith("import ") && FORBIDDEN.stream().anyMatch(f -> t.contains(f.replace('/', '.')))) {
                        offenders.add(src.relativize(p) + ": " + t);
                    }
                }
            }
        }
        assertThat(offenders).isEmpty();
    }

    @Test
    void the_scanner_would_catch_a_framework_reference() throws IOException {
        // A test-only class that does touch Jakarta: the same scan must flag it.
        byte[] bytes;
        try (InputStream in = ArchitectureFixtureUsingJakarta.class.getResourceAsStream("ArchitectureFixtureUsingJakarta.class")) {
            bytes = in.readAllBytes();
        }
        assertThat(forbiddenReferences(constantPoolStrings(bytes))).contains("jakarta/ws/rs/core/Response");
    }

    static List<String> forbiddenReferences(List<String> utf8) {
        List<String> out = new ArrayList<>();
        for (String s : utf8) {
            for (String f : FORBIDDEN) {
                int at = s.indexOf(f);
                if (at >= 0) {
                    int end = at;
                    while (end < s.length() && s.charAt(end) != ';' && s.charAt(end) != ')' && s.charAt(end) != '<') {
                        end++;
                    }
                    out.add(s.substring(at, end));
                }
            }
        }
        return out;
    }

    /** The CONSTANT_Utf8 entries of a class file: every class, descriptor and signature it names. */
    static List<String> constantPoolStrings(byte[] b) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(b);
        if (in.getInt() != 0xCAFEBABE) {
            throw new IllegalArgumentException("not a class file");
        }
        in.getShort();
        in.getShort();
        int count = in.getShort() & 0xffff;
        List<String> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.get() & 0xff;
            switch (tag) {
                case 1: {
                    int len = in.getShort() & 0xffff;
                    byte[] s = new byte[len];
                    in.get(s);
                    out.add(new String(s, StandardCharsets.UTF_8));
                    break;
                }
                case 3: case 4: in.position(in.position() + 4); break;
                case 5: case 6: in.position(in.position() + 8); i++; break;
                case 7: case 8: case 16: case 19: case 20: in.position(in.position() + 2); break;
                case 9: case 10: case 11: case 12: case 17: case 18: in.position(in.position() + 4); break;
                case 15: in.position(in.position() + 3); break;
                default: throw new IllegalArgumentException("unknown constant pool tag " + tag);
            }
        }
        return out;
    }
}

/** Deliberately references a framework type; used only to prove the scanner notices. */
final class ArchitectureFixtureUsingJakarta {
    static Object status() {
        return jakarta.ws.rs.core.Response.Status.OK;
    }
}
