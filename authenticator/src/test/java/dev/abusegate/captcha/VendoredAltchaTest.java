package dev.abusegate.captcha;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The ALTCHA widget is vendored into {@code theme/} (so the build needs no npm) by
 * {@code theme/refresh-altcha.sh}, which writes a manifest next to it. The lockfile's integrity covers the
 * npm tarball, not the file taken out of it, so the chain is: package-lock.json pins version and tarball
 * integrity; the manifest was written from that tarball after checking that integrity; the vendored files
 * must still hash to what the manifest says. A hand-edited widget, or a lockfile bumped without a refresh,
 * fails here.
 */
class VendoredAltchaTest {

    // Surefire runs in the module directory (authenticator/).
    private static final Path THEME = Path.of("..", "theme");
    private static final Path VENDORED = THEME.resolve("theme-resources/resources/abuse-gate");

    @Test
    void the_manifest_names_the_version_and_tarball_the_lockfile_pins() throws IOException {
        JsonNode locked = new ObjectMapper().readTree(THEME.resolve("package-lock.json").toFile())
                .path("packages").path("node_modules/altcha");
        Properties manifest = manifest();

        assertThat(locked.path("version").asText()).as("altcha version in package-lock.json").isNotEmpty();
        assertThat(manifest.getProperty("package")).isEqualTo("altcha");
        assertThat(manifest.getProperty("version"))
                .as("version in altcha.vendored.properties (run theme/refresh-altcha.sh after changing the pin)")
                .isEqualTo(locked.path("version").asText());
        assertThat(manifest.getProperty("tarball.integrity"))
                .as("tarball integrity in altcha.vendored.properties")
                .startsWith("sha512-")
                .isEqualTo(locked.path("integrity").asText());
    }

    @Test
    void the_vendored_widget_and_its_license_are_the_files_the_manifest_hashed() throws Exception {
        Properties manifest = manifest();
        for (String file : new String[] {"altcha.js", "altcha.LICENSE.txt"}) {
            assertThat(sha256(VENDORED.resolve(file)))
                    .as("sha256 of vendored %s (rewrite it with theme/refresh-altcha.sh, never by hand)", file)
                    .isEqualTo(manifest.getProperty(file + ".sha256"));
        }
        assertThat(Files.readString(VENDORED.resolve("altcha.LICENSE.txt"))).startsWith("MIT License");
    }

    @Test
    void the_package_json_pin_is_exact_and_matches_the_lockfile() throws IOException {
        // A range in package.json would let a refresh pick a newer release than the one reviewed.
        ObjectMapper json = new ObjectMapper();
        String declared = json.readTree(THEME.resolve("package.json").toFile())
                .path("dependencies").path("altcha").asText();
        String locked = json.readTree(THEME.resolve("package-lock.json").toFile())
                .path("packages").path("node_modules/altcha").path("version").asText();
        assertThat(declared).isEqualTo(locked);
    }

    private static Properties manifest() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(VENDORED.resolve("altcha.vendored.properties"))) {
            p.load(r);
        }
        return p;
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
