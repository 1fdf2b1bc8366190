package dev.abusegate.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/** A headless Chromium from the system's binaries (never Selenium Manager), with a fresh profile; see {@link NeedsChromium}. */
public final class HeadlessChromium implements AutoCloseable {

    public static final String CHROMIUM = System.getProperty("chromium.binary", "/usr/bin/chromium");
    public static final String CHROMEDRIVER = System.getProperty("chromedriver.binary", "/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts Chromium (1280x900, English, browser console logged) or fails with what is missing. */
    public static HeadlessChromium start() {
        String missing = missing();
        if (missing != null) {
            throw new AssertionError(missing + "; CI installs them.");
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        Path profile;
        try {
            profile = Files.createTempDirectory("abuse-gate-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM).addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions", "--lang=en-US",
                "--window-size=1280,900", "--user-data-dir=" + profile);
        options.setExperimentalOption("prefs", Map.of("intl.accept_languages", "en-US,en"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().withTimeout(Duration.ofSeconds(120)).build();
        ChromeDriver driver;
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            KeycloakProcess.deleteQuietly(profile);
            throw e;
        }
        driver.manage().window().setSize(new Dimension(1280, 900));
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(driver, profile);
    }

    /** Why the browser tests cannot run here (one line naming the install command), or null when they can. */
    static String missing() {
        for (String binary : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(Path.of(binary))) {
                return binary + " not found: browser tests need Chromium (apt-get install chromium chromium-driver)";
            }
        }
        return null;
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Console messages since the last call (level, message), e.g. for failure messages. */
    public List<LogEntry> consoleLogs() {
        return driver.manage().logs().get(LogType.BROWSER).getAll();
    }

    public static String describe(List<LogEntry> entries) {
        return entries.stream().map(e -> e.getLevel() + " " + e.getMessage()).collect(Collectors.joining("\n"));
    }

    public Path screenshot(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            KeycloakProcess.deleteQuietly(profile);
        }
    }
}
