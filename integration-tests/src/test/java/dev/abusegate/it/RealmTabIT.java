package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.HeadlessChromium;
import dev.abusegate.it.support.NeedsChromium;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.DedicatedServer;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The realm's "Abuse gate" tab (Realm settings), on a Keycloak with the declarative-ui feature that shows
 * extension tabs: set through the real admin console in headless Chromium and felt on the login form;
 * defaults without any configuration; a step's saved key winning over the tab's, key by key; realm import
 * and partial export carrying the tab's component (secret masked); an invalid value refused on save.
 */
@DedicatedServer(name = "realm-tab", options = "--features=declarative-ui")
class RealmTabIT extends ServerTest {

    private static final String PW = "Secret-pw-1";
    private static final String TAB_TYPE = "org.keycloak.services.ui.extend.UiTabProvider";
    private static final String TAB_ID = "abuse-gate";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The admin console's name of a key (a dot becomes a beer mug); Keycloak shows the tab's keys so. */
    private static String form(String key) {
        return key.replace(".", "\uD83C\uDF7A");
    }

    /** Also checks that the realm is there. */
    @Override
    protected String importRealm(RealmBuilder b) {
        String name = super.importRealm(b);
        assertThat(admin.realmExists(name)).as("realm " + name + " imported").isTrue();
        return name;
    }

    private static LoginResult attempt(String realm, String password, String address) {
        return attempt(realm, "alice", password, address);
    }

    private static List<Map<String, Object>> tabComponents(String realm) {
        return admin.getList("/admin/realms/" + AdminClient.seg(realm) + "/components?type=" + TAB_TYPE);
    }

    @SuppressWarnings("unchecked")
    private static String configValue(Map<String, Object> component, String key) {
        List<String> v = ((Map<String, List<String>>) component.get("config")).get(form(key));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static Map<String, Object> tabComponent(Map<String, String> config) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", "Abuse gate");
        c.put("providerId", TAB_ID);
        Map<String, List<String>> cfg = new LinkedHashMap<>();
        config.forEach((k, v) -> cfg.put(k, List.of(v)));
        c.put("config", cfg);
        return c;
    }

    // ------------------------------------------------------------------------------------------

    @Test
    void without_tab_or_step_configuration_the_defaults_apply() {
        String realm = importRealm(RealmBuilder.unique("tab-defaults").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null));
        assertThat(tabComponents(realm)).isEmpty();
        String a = "198.51.100.10";
        // per address and account: default threshold 10 x captcha factor 0.5 = five free attempts
        for (int i = 1; i <= 5; i++) {
            GateIt.assertWrongPassword(attempt(realm, "wrong-" + i, a));
        }
        GateIt.assertGate(attempt(realm, "wrong-6", a), "captcha_required");
    }

    @Test
    @NeedsChromium
    void a_threshold_saved_in_the_admin_console_tab_takes_effect_on_the_login_form() {
        String realm = importRealm(RealmBuilder.unique("tab-console").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null));
        String before = "198.51.100.20";
        GateIt.assertWrongPassword(attempt(realm, "wrong-1", before));
        GateIt.assertWrongPassword(attempt(realm, "wrong-2", before));

        try (HeadlessChromium chromium = HeadlessChromium.start()) {
            ChromeDriver driver = chromium.driver();
            // Realm settings has many tabs; an extension tab comes last: a wide screen shows them all without
            // the tab bar's own scrolling (which headless Chromium does not do for a click)
            driver.manage().window().setSize(new Dimension(2400, 1000));
            WebDriverWait wait = new WebDriverWait(driver, WAIT);
            wait.withMessage(() -> "page " + driver.getCurrentUrl() + "\nconsole:\n" + HeadlessChromium.describe(chromium.consoleLogs()));
            driver.get(server.baseUrl() + "/admin/master/console/#/" + realm + "/realm-settings");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(KeycloakServer.ADMIN_USERNAME);
            driver.findElement(By.id("password")).sendKeys(KeycloakServer.ADMIN_PASSWORD);
            driver.findElement(By.id("kc-login")).click();

            // The extension tab, titled from the theme messages, next to Keycloak's own tabs
            By tabLink = By.xpath("//a[contains(@href, 'realm-settings/abuse-gate')]");
            WebElement tab = wait.until(ExpectedConditions.elementToBeClickable(tabLink));
            assertThat(tab.getText()).isEqualTo("Abuse gate");
            clickAsAUserWould(driver, wait, tabLink);
            wait.until(ExpectedConditions.urlContains("/realm-settings/abuse-gate"));
            By threshold = By.cssSelector("input[data-testid='" + form("perIpAccount.threshold") + "']");
            WebElement field = wait.until(ExpectedConditions.visibilityOfElementLocated(threshold));
            assertThat(field.getDomProperty("value")).as("the default is shown").isEqualTo("10");
            assertThat(driver.findElements(By.cssSelector("input[data-testid='" + form("perIp.threshold") + "']"))).isNotEmpty();
            field.sendKeys(Keys.chord(Keys.CONTROL, "a"), "4");
            clickAsAUserWould(driver, wait, By.cssSelector("button[data-testid='save']"));
            wait.until(d -> !tabComponents(realm).isEmpty());
            // shown again from what was stored
            driver.navigate().refresh();
            new WebDriverWait(driver, Duration.ofSeconds(20))
                    .withMessage(() -> "the saved value is not shown after a reload; stored: " + tabComponents(realm))
                    .until(d -> d.findElements(threshold).stream().anyMatch(e -> "4".equals(e.getDomProperty("value"))));
            chromium.screenshot(Path.of(System.getProperty("keycloak.it.workDir", "target"), "screenshots", "realm-tab-saved.png"));
        }

        List<Map<String, Object>> saved = tabComponents(realm);
        assertThat(saved).singleElement().satisfies(c -> {
            assertThat(c.get("providerId")).isEqualTo(TAB_ID);
            assertThat(configValue(c, "perIpAccount.threshold")).as(String.valueOf(c.get("config"))).isEqualTo("4");
        });
        // threshold 4 x captcha factor 0.5: two free attempts, the third needs a captcha (the default gave five)
        String after = "198.51.100.21";
        GateIt.assertWrongPassword(attempt(realm, "wrong-1", after));
        GateIt.assertWrongPassword(attempt(realm, "wrong-2", after));
        GateIt.assertGate(attempt(realm, "wrong-3", after), "captcha_required");
        // the address that had two attempts before the change is now at the band too
        GateIt.assertGate(attempt(realm, "wrong-3", before), "captcha_required");
    }

    @Test
    void a_steps_saved_key_wins_and_the_other_keys_come_from_the_tab() {
        String realm = importRealm(RealmBuilder.unique("tab-step").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, Map.of("perIpAccount.threshold", "4", "captcha.enabled", "inherit"))
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null)
                .set("components", Map.of(TAB_TYPE, List.of(tabComponent(Map.of(
                        "perIpAccount.threshold", "2", "captcha.enabled", "false", "captcha.secret", "tab-secret-value"))))));
        assertThat(tabComponents(realm)).as("realm import carried the tab").singleElement().satisfies(c -> {
            assertThat(configValue(c, "perIpAccount.threshold")).isEqualTo("2");
            assertThat(configValue(c, "captcha.secret")).as("never shown back").isEqualTo("**********");
        });

        // Browser step: threshold 4 from the step, captcha off from the tab -> four pass, the fifth is blocked.
        // (Tab alone: the third blocked; step and defaults alone: a captcha from the third.)
        String a = "198.51.100.30";
        for (int i = 1; i <= 4; i++) {
            GateIt.assertWrongPassword(attempt(realm, "wrong-" + i, a));
        }
        GateIt.assertGate(attempt(realm, "wrong-5", a), "blocked");

        // Token endpoint, no step configuration: the tab alone -> two pass, the third is blocked
        String b = "198.51.100.31";
        assertThat(tokens.passwordGrant(realm, "alice", "wrong-1", null, b).isKeycloakInvalidGrant()).isTrue();
        assertThat(tokens.passwordGrant(realm, "alice", "wrong-2", null, b).isKeycloakInvalidGrant()).isTrue();
        TokenClient.TokenResponse third = tokens.passwordGrant(realm, "alice", PW, null, b);
        assertThat(third.status()).as(third.toString()).isEqualTo(429);
        assertThat(third.json().get("error")).isEqualTo("blocked");
    }

    @Test
    @SuppressWarnings("unchecked")
    void partial_export_carries_the_tab_with_its_secret_masked() {
        String realm = importRealm(RealmBuilder.unique("tab-export").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null));
        String realmId = admin.realmId(realm);
        Map<String, Object> component = tabComponent(Map.of("perIp.threshold", "42", "captcha.secret", "tab-secret-value"));
        component.put("parentId", realmId);
        component.put("providerType", TAB_TYPE);
        AdminClient.Response created = admin.send("POST", "/admin/realms/" + AdminClient.seg(realm) + "/components", component);
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        AdminClient.Response export = admin.send("POST", "/admin/realms/" + AdminClient.seg(realm) + "/partial-export", null);
        assertThat(export.status()).as(export.body()).isEqualTo(200);
        assertThat(export.body()).doesNotContain("tab-secret-value");
        Map<String, Object> components = (Map<String, Object>) Json.parseMap(export.body()).get("components");
        assertThat((List<Map<String, Object>>) components.get(TAB_TYPE)).singleElement().satisfies(c -> {
            assertThat(c.get("providerId")).isEqualTo(TAB_ID);
            assertThat(((Map<String, List<String>>) c.get("config")).get(form("perIp.threshold"))).containsExactly("42");
        });
    }

    @Test
    void the_tab_refuses_an_invalid_value_naming_the_key_and_a_second_configuration() {
        String realm = importRealm(RealmBuilder.unique("tab-invalid").user("alice", PW)
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, null));
        String realmId = admin.realmId(realm);
        String path = "/admin/realms/" + AdminClient.seg(realm) + "/components";

        Map<String, Object> bad = tabComponent(Map.of("perIp.windowSeconds", "31536001", "deviceCookie.threshold", "1001"));
        bad.put("parentId", realmId);
        bad.put("providerType", TAB_TYPE);
        AdminClient.Response refused = admin.send("POST", path, bad);
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("perIp.windowSeconds").contains("1 to 31536000").contains("deviceCookie.threshold")
                .doesNotContain("Exception");
        assertThat(tabComponents(realm)).isEmpty();

        Map<String, Object> good = tabComponent(Map.of("perIp.windowSeconds", "600"));
        good.put("parentId", realmId);
        good.put("providerType", TAB_TYPE);
        assertThat(admin.send("POST", path, good).status()).isEqualTo(201);
        AdminClient.Response second = admin.send("POST", path, good);
        assertThat(second.status()).as(second.body()).isEqualTo(400);
        assertThat(tabComponents(realm)).hasSize(1);
        assertThat(server.logTextSince(logMark)).doesNotContain("tab-secret-value");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> config(Map<String, Object> component) {
        return (Map<String, List<String>>) component.get("config");
    }

    /** Two wrong passwords for alice from a fresh address, then the right one: what the third attempt gets. */
    private static int thirdTokenAttempt(String realm, String address) {
        assertThat(tokens.passwordGrant(realm, "alice", "wrong-1", null, address).isKeycloakInvalidGrant()).isTrue();
        assertThat(tokens.passwordGrant(realm, "alice", "wrong-2", null, address).isKeycloakInvalidGrant()).isTrue();
        return tokens.passwordGrant(realm, "alice", PW, null, address).status();
    }

    @Test
    void documented_and_console_key_names_work_on_create_update_and_export() {
        String realm = importRealm(RealmBuilder.unique("tab-rest").user("alice", PW)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null));
        String realmId = admin.realmId(realm);
        String path = "/admin/realms/" + AdminClient.seg(realm) + "/components";

        // create with the documented names
        Map<String, Object> component = tabComponent(Map.of("perIpAccount.threshold", "2", "captcha.enabled", "false",
                "captcha.secret", "tab-secret-value"));
        component.put("parentId", realmId);
        component.put("providerType", TAB_TYPE);
        AdminClient.Response created = admin.send("POST", path, component);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Map<String, Object> stored = tabComponents(realm).get(0);
        assertThat(config(stored)).as("shown back under both names").containsEntry("perIpAccount.threshold", List.of("2"))
                .containsEntry(form("perIpAccount.threshold"), List.of("2"))
                .containsEntry("captcha.secret", List.of("**********")).containsEntry(form("captcha.secret"), List.of("**********"));
        assertThat(thirdTokenAttempt(realm, "198.51.100.50")).as("threshold 2: the third is blocked").isEqualTo(429);

        // update with a documented name only (the PUT): it takes effect
        String id = String.valueOf(stored.get("id"));
        Map<String, Object> put = new LinkedHashMap<>(stored);
        put.put("config", Map.of("perIpAccount.threshold", List.of("20")));
        AdminClient.Response updated = admin.send("PUT", path + "/" + id, put);
        assertThat(updated.status()).as(updated.body()).isEqualTo(204);
        assertThat(config(tabComponents(realm).get(0))).containsEntry("perIpAccount.threshold", List.of("20"))
                .containsEntry(form("perIpAccount.threshold"), List.of("20")).containsEntry("captcha.enabled", List.of("false"));
        assertThat(thirdTokenAttempt(realm, "198.51.100.51")).as("threshold 20: the right password signs in").isEqualTo(200);

        // the whole representation as GET shows it, edited under the documented name, as a script would
        Map<String, Object> full = new LinkedHashMap<>(tabComponents(realm).get(0));
        Map<String, List<String>> edited = new LinkedHashMap<>(config(full));
        edited.put("perIpAccount.threshold", List.of("2"));
        full.put("config", edited);
        assertThat(admin.send("PUT", path + "/" + id, full).status()).isEqualTo(204);
        assertThat(config(tabComponents(realm).get(0))).containsEntry(form("perIpAccount.threshold"), List.of("2"));
        assertThat(thirdTokenAttempt(realm, "198.51.100.52")).isEqualTo(429);

        // update with the console's name
        put.put("config", Map.of(form("perIpAccount.threshold"), List.of("30")));
        assertThat(admin.send("PUT", path + "/" + id, put).status()).isEqualTo(204);
        assertThat(config(tabComponents(realm).get(0))).containsEntry("perIpAccount.threshold", List.of("30"));
        assertThat(thirdTokenAttempt(realm, "198.51.100.53")).isEqualTo(200);

        // an invalid value under the documented name is refused, naming the key; nothing changes
        put.put("config", Map.of("perIpAccount.threshold", List.of("0")));
        AdminClient.Response refused = admin.send("PUT", path + "/" + id, put);
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("perIpAccount.threshold").doesNotContain("Exception");
        assertThat(config(tabComponents(realm).get(0))).containsEntry("perIpAccount.threshold", List.of("30"));

        // cleared under the documented name: both names go, the default applies
        put.put("config", Map.of("perIpAccount.threshold", List.of("")));
        assertThat(admin.send("PUT", path + "/" + id, put).status()).isEqualTo(204);
        assertThat(config(tabComponents(realm).get(0))).doesNotContainKeys("perIpAccount.threshold", form("perIpAccount.threshold"))
                .containsEntry("captcha.secret", List.of("**********"));
        assertThat(server.logTextSince(logMark)).doesNotContain("tab-secret-value");
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_partial_export_imports_again_with_the_same_settings() {
        String source = importRealm(RealmBuilder.unique("tab-trip").user("alice", PW)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null)
                .set("components", Map.of(TAB_TYPE, List.of(tabComponent(Map.of(
                        "perIpAccount.threshold", "2", form("captcha.enabled"), "false"))))));
        AdminClient.Response export = admin.send("POST", "/admin/realms/" + AdminClient.seg(source) + "/partial-export", null);
        assertThat(export.status()).as(export.body()).isEqualTo(200);
        Map<String, Object> exported = Json.parseMap(export.body());
        Map<String, Object> tab = ((Map<String, List<Map<String, Object>>>) exported.get("components")).get(TAB_TYPE).get(0);
        assertThat(config(tab)).containsEntry("perIpAccount.threshold", List.of("2")).containsEntry(form("perIpAccount.threshold"), List.of("2"))
                .containsEntry("captcha.enabled", List.of("false")).containsEntry(form("captcha.enabled"), List.of("false"));

        // the exported component, as it is, in a new realm
        Map<String, Object> copy = new LinkedHashMap<>(tab);
        copy.remove("id");
        String target = importRealm(RealmBuilder.unique("tab-trip-in").user("alice", PW)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", null)
                .set("components", Map.of(TAB_TYPE, List.of(copy))));
        assertThat(config(tabComponents(target).get(0))).containsEntry("perIpAccount.threshold", List.of("2"))
                .containsEntry("captcha.enabled", List.of("false"));
        assertThat(thirdTokenAttempt(target, "198.51.100.60")).isEqualTo(429);
    }

    @Test
    void a_realm_import_with_an_invalid_tab_value_answers_400_naming_the_key() {
        for (String key : List.of("accountLockout.threshold", form("accountLockout.threshold"))) {
            RealmBuilder bad = RealmBuilder.unique("tab-bad-import").user("alice", PW)
                    .set("components", Map.of(TAB_TYPE, List.of(tabComponent(Map.of(key, "0")))));
            AdminClient.Response r = admin.send("POST", "/admin/realms", bad.toMap());
            if (r.isSuccess()) {
                deleteAfterTest(bad.name());
            }
            assertThat(r.status()).as(key + ": " + r.body()).isEqualTo(400);
            assertThat(r.body()).contains("accountLockout.threshold").contains("1 to").doesNotContain("unknown_error")
                    .doesNotContain("Exception");
            assertThat(admin.realmExists(bad.name())).as("nothing of the realm is left").isFalse();
        }
        assertThat(server.logTextSince(logMark)).doesNotContain("ComponentValidationException");
    }

    /**
     * Scrolls the element into the middle of the view (the console's tab bar scrolls sideways) and clicks it, as a
     * user would; while the console still lays out (an overlay or a scroll button over it), waits and tries again.
     */
    private static void clickAsAUserWould(ChromeDriver driver, WebDriverWait wait, By what) {
        ElementClickInterceptedException last = null;
        for (int i = 0; i < 10; i++) {
            WebElement e = wait.until(ExpectedConditions.elementToBeClickable(what));
            driver.executeScript("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", e);
            try {
                e.click();
                return;
            } catch (ElementClickInterceptedException ex) {
                last = ex;
                GateIt.sleep(500);
            }
        }
        throw last;
    }
}
