package dev.abusegate.it;

import dev.abusegate.captcha.AltchaSolver;
import dev.abusegate.it.support.ProcessBackendOnly;
import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.HeadlessChromium;
import dev.abusegate.it.support.NeedsChromium;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.keycloak.representations.idm.EventRepresentation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Captcha, the widget in a real headless Chromium: the ALTCHA widget (bundled altcha.js, Web
 * Crypto in a worker) renders on the 429 page, is solved by the browser itself, and its solution is
 * verified by the server.
 *
 * <p>A browser cannot send X-Forwarded-For, so this realm's gate keys on the real peer address
 * 127.0.0.1; the state of 127.0.0.1 + alice is cleared through the admin API before each test. The
 * realm is this class's own, so other classes using 127.0.0.1 do not interfere. Per address+account
 * threshold 6, factor 0.5: attempts 1-3 free, then the captcha, blocked from the 7th.
 *
 * <p>Writes docs/screenshots/captcha-required.png and docs/screenshots/blocked.png. The band is
 * {@link CaptchaBandIT}, which solutions pass {@link CaptchaAltchaIT} and {@link CaptchaVendorIT}.
 */
@NeedsChromium
@ProcessBackendOnly("counts the peer address 127.0.0.1 (no X-Forwarded-For); the browser is local")
class CaptchaWidgetIT extends ServerTest {

    private static final String USER = "alice";
    private static final String PASSWORD = "alice-Secret-1";
    private static final String PEER = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static String realm;
    private HeadlessChromium chromium;
    private ChromeDriver driver;

    @BeforeAll
    static void importBrowserRealm() {
        realm = importClassRealm(RealmBuilder.unique("browser-captcha")
                .set("displayName", "Example Corp")
                .user(USER, PASSWORD)
                .gatedBrowserFlow("abuse-gate-username-password-form", Map.of(
                        "perIp.threshold", "1000",
                        "perIpAccount.threshold", "6",
                        "accountLockout.threshold", "1000",
                        "credentialStuffing.threshold", "1000",
                        "captcha.enabled", "true",
                        "captcha.factor", "0.5",
                        "captcha.altcha.maxNumber", "5000")));
    }

    @BeforeEach
    void freshStateAndBrowser() {
        AdminClient.Response cleared = admin.clearGateState(realm, PEER, USER);
        assertThat(cleared.body()).contains("\"cleared\"");
        chromium = HeadlessChromium.start();
        driver = chromium.driver();
    }

    @AfterEach
    void closeBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    // ------------------------------------------------------------------------------------------

    @Test
    void a_person_gets_three_free_attempts_then_the_altcha_challenge_solves_it_in_the_browser_and_logs_in() {
        openLogin();
        assertThat(driver.executeScript("return window.isSecureContext")).as("http://127.0.0.1 is a secure context (Web Crypto)")
                .isEqualTo(true);

        // (1) three free attempts: Keycloak's own error, no gate
        for (int i = 1; i <= 3; i++) {
            submitLogin(USER, "wrong-" + i);
            assertThat(bodyText()).as("attempt %d", i).contains("Invalid username or password.");
            assertThat(driver.findElements(By.id("abuse-gate-status"))).as("attempt %d is free", i).isEmpty();
        }

        // (2) the fourth meets the challenge
        submitLogin(USER, "wrong-4");
        assertGateCode("captcha_required");
        WebElement checkbox = awaitWidgetCheckbox();
        assertThat(driver.findElement(By.id("username")).getDomProperty("value")).as("username kept").isEqualTo(USER);
        assertThat(driver.findElement(By.id("abuse-gate-captcha")).getDomAttribute("data-provider")).isEqualTo("altcha");
        assertThat(checkbox.isDisplayed()).isTrue();
        assertThat(widgetState()).isEqualTo("unverified");
        chromium.screenshot(screenshotDir().resolve("captcha-required.png"));

        // (3) submitting without solving it: challenged again, not blocked
        submitLogin(null, PASSWORD);
        assertGateCode("captcha_required");
        assertThat(driver.findElements(By.id("abuse-gate-captcha-error"))).as("nothing was submitted").isEmpty();
        assertThat(driver.getCurrentUrl()).doesNotContain("code=");

        // (4) solve the widget in the browser, type the right password: logged in
        solveWidgetByClick();
        submitLogin(null, PASSWORD);
        new WebDriverWait(driver, WAIT).withMessage(this::diagnostics).until(ExpectedConditions.urlContains("code="));
        assertThat(driver.getCurrentUrl()).startsWith(RealmBuilder.REDIRECT_URI).contains("code=");
        assertNoScriptErrors();

        EventRepresentation login = admin.awaitEvent(realm, e -> PEER.equals(e.getIpAddress()), Duration.ofSeconds(10), "LOGIN");
        assertThat(login.getType()).isEqualTo("LOGIN");
    }

    @Test
    void past_the_threshold_a_solved_captcha_is_still_blocked() {
        // 127.0.0.1 + alice at 5 of 6: three free attempts and two with a captcha solved by the Java solver
        primeAttempts(5);

        openLogin();
        submitLogin(USER, "wrong-6");
        assertGateCode("captcha_required");
        awaitWidgetCheckbox();

        // meanwhile the sixth attempt is used up elsewhere: the threshold is reached
        primeAttempts(1);

        solveWidgetByClick();
        submitLogin(null, PASSWORD);
        assertGateCode("blocked");
        assertThat(driver.getCurrentUrl()).doesNotContain("code=");
        assertThat(driver.findElements(By.tagName("altcha-widget"))).as("no captcha offered when blocked").isEmpty();
        assertThat(driver.findElement(By.id("abuse-gate-status")).getText()).isNotBlank();
        assertThat(driver.findElement(By.id("username")).getDomProperty("value")).isEqualTo(USER);
        chromium.screenshot(screenshotDir().resolve("blocked.png"));
        assertNoScriptErrors();
    }

    @Test
    void the_challenge_is_usable_by_keyboard_and_announced_as_an_alert() {
        primeAttempts(3);
        openLogin();
        submitLogin(USER, "wrong-4");
        assertGateCode("captcha_required");
        WebElement status = driver.findElement(By.id("abuse-gate-status"));
        assertThat(status.getDomAttribute("role")).isEqualTo("alert");
        assertThat(status.getText()).isNotBlank();
        WebElement checkbox = awaitWidgetCheckbox();
        String accessibleName = checkbox.getAccessibleName();
        assertThat(accessibleName).as("the widget checkbox has an accessible label").isNotBlank();
        System.out.println("[CaptchaWidgetIT] accessible name of the ALTCHA checkbox: " + accessibleName);

        // from the password field (focused on load), Tab reaches the checkbox
        WebElement password = driver.findElement(By.id("password"));
        password.click();
        password.sendKeys(PASSWORD);
        boolean reached = false;
        for (int i = 0; i < 10 && !reached; i++) {
            driver.switchTo().activeElement().sendKeys(Keys.TAB);
            reached = Boolean.TRUE.equals(driver.executeScript("return document.activeElement === arguments[0]", checkbox));
        }
        assertThat(reached).as("the captcha checkbox is reachable with Tab; focus is on %s",
                driver.executeScript("return document.activeElement.outerHTML.substring(0, 200)")).isTrue();

        // Space on the focused checkbox solves it; Enter in the form submits
        driver.switchTo().activeElement().sendKeys(Keys.SPACE);
        awaitVerified();
        driver.switchTo().activeElement().sendKeys(Keys.ENTER);
        new WebDriverWait(driver, WAIT).withMessage(this::diagnostics).until(ExpectedConditions.urlContains("code="));
        assertNoScriptErrors();
    }

    // ------------------------------------------------------------------------------------------
    // Page helpers

    private void openLogin() {
        driver.get(new BrowserLogin(server.baseUrl()).authUrl(realm));
        new WebDriverWait(driver, WAIT).withMessage(this::diagnostics)
                .until(ExpectedConditions.presenceOfElementLocated(By.id("kc-login")));
    }

    /** Types into the form (username only when given) and clicks the login button; waits for the next page. */
    private void submitLogin(String username, String password) {
        if (username != null) {
            WebElement u = driver.findElement(By.id("username"));
            u.clear();
            u.sendKeys(username);
        }
        WebElement p = driver.findElement(By.id("password"));
        p.clear();
        p.sendKeys(password);
        WebElement button = driver.findElement(By.id("kc-login"));
        button.click();
        new WebDriverWait(driver, WAIT).withMessage(this::diagnostics).until(ExpectedConditions.stalenessOf(button));
        new WebDriverWait(driver, WAIT).until((Function<WebDriver, Boolean>) d ->
                "complete".equals(driver.executeScript("return document.readyState")));
    }

    private void assertGateCode(String code) {
        List<WebElement> status = driver.findElements(By.id("abuse-gate-status"));
        assertThat(status).as("#abuse-gate-status on %s\n%s", driver.getCurrentUrl(), diagnostics()).hasSize(1);
        assertThat(status.get(0).getDomAttribute("data-code")).isEqualTo(code);
        assertThat(status.get(0).getDomAttribute("role")).isEqualTo("alert");
    }

    /** Waits until the altcha custom element has rendered its checkbox. */
    private WebElement awaitWidgetCheckbox() {
        return new WebDriverWait(driver, WAIT).withMessage(() -> "the ALTCHA widget did not render\n" + diagnostics())
                .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("altcha-widget input[type=checkbox]")));
    }

    private String widgetState() {
        return (String) driver.executeScript("var w = document.querySelector('altcha-widget .altcha');"
                + "return w ? w.getAttribute('data-state') : null;");
    }

    private void solveWidgetByClick() {
        awaitWidgetCheckbox().click();
        awaitVerified();
    }

    /** Waits until the widget says verified and its hidden form field holds the solution. */
    private void awaitVerified() {
        new WebDriverWait(driver, WAIT).withMessage(() -> "the ALTCHA widget did not verify (state " + widgetState() + ")\n"
                        + diagnostics())
                .until((Function<WebDriver, Boolean>) d -> "verified".equals(widgetState()) && !String.valueOf(driver.executeScript(
                        "var i = document.querySelector('form#kc-form-login input[name=altcha]'); return i ? i.value : '';"))
                        .isEmpty());
    }

    private String bodyText() {
        return driver.findElement(By.tagName("body")).getText();
    }

    private final List<LogEntry> console = new ArrayList<>();

    private List<LogEntry> console() {
        console.addAll(chromium.consoleLogs());
        return console;
    }

    /** URL, console and the start of the page, for failure messages. */
    private String diagnostics() {
        String source = driver.getPageSource();
        return "URL " + driver.getCurrentUrl() + "\nconsole:\n" + HeadlessChromium.describe(console())
                + "\npage:\n" + (source.length() > 4000 ? source.substring(0, 4000) : source);
    }

    /** Script errors and CSP violations in the console (HTTP 429 answers and the unreachable callback are expected). */
    private void assertNoScriptErrors() {
        List<String> bad = console().stream()
                .map(e -> e.getLevel() + " " + e.getMessage())
                .filter(m -> m.contains("Uncaught") || m.contains("Content Security Policy") || m.contains("Refused to")
                        || m.contains("Web Crypto") || m.contains("altcha"))
                .toList();
        assertThat(bad).as("console:\n%s", HeadlessChromium.describe(console)).isEmpty();
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Makes {@code n} attempts for alice from 127.0.0.1 with this JVM's HTTP client (no X-Forwarded-For, so
     * the peer address counts), solving the captcha with the Java solver once the band is reached.
     */
    private static void primeAttempts(int n) {
        BrowserLogin http = server.newBrowser();
        for (int i = 0; i < n; i++) {
            BrowserLogin.LoginResult page = http.openLoginPage(realm, null);
            BrowserLogin.LoginResult r = http.submit(page, USER, "primed-wrong", null, Map.of());
            if (r.status() == 429) {
                assertThat(r.gateCode()).contains("captcha_required");
                r = http.submit(r.nextPage(), USER, "primed-wrong", null,
                        Map.of("altcha", AltchaSolver.solve(GateIt.altchaChallenge(r.body()))));
            }
            assertThat(r.status()).as("primed attempt: %s", r).isEqualTo(200);
            assertThat(r.keycloakError()).contains("Invalid username or password.");
        }
    }

    /** docs/screenshots of the repository: from the module's basedir (set by Maven), else ../docs. */
    private static Path screenshotDir() {
        String basedir = System.getProperty("basedir");
        Path module = basedir == null ? Paths.get("").toAbsolutePath() : Paths.get(basedir);
        return module.resolve("../docs/screenshots").normalize();
    }
}
