package dev.abusegate.keycloak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.RealmSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link GateConfig.Cache#parse}: valid values apply, invalid ones fall back per key with one WARN, missing ones are defaults. */
class GateConfigTest {

    /** What the cache reported: (topic, message). */
    private final List<String[]> reported = new ArrayList<>();
    /** A fresh cache per test, so nothing carries over from another test. */
    private final GateConfig.Cache cache = new GateConfig.Cache((topic, message) -> reported.add(new String[] {topic, message}));

    private GateOptions parse(Map<String, String> config, String realm) {
        return cache.parse(config, realm).options();
    }

    private List<String> warningTexts() {
        return reported.stream().map(r -> r[1]).toList();
    }

    private List<String> topics() {
        return reported.stream().map(r -> r[0]).toList();
    }

    @Test
    void a_missing_or_empty_config_is_the_production_defaults() {
        assertThat(parse(Map.of(), "r")).isEqualTo(GateOptions.defaults());
        assertThat(parse(Map.of("perIp.threshold", "", "captcha.factor", "  ", "perIp.enabled", "inherit"), "r"))
                .isEqualTo(GateOptions.defaults());
        assertThat(reported).isEmpty();
    }

    @Test
    void valid_values_apply() {
        Map<String, String> c = new HashMap<>();
        c.put("perIp.threshold", " 7 ");
        c.put("perIp.windowSeconds", "31536000");
        c.put("perIpAccount.enabled", "FALSE");
        c.put("accountLockout.lockoutSeconds", "60");
        c.put("credentialStuffing.failureMode", "fail_closed");
        c.put("captcha.factor", "1");
        c.put("ipv6.prefixLength", "48");
        c.put("ipv6.networkPrefixLength", "32");
        c.put("perIp.ipv6NetworkThreshold", "500");
        c.put("deviceCookie.enabled", "true");
        c.put("deviceCookie.threshold", "1000");
        c.put("deviceCookie.days", "3650");
        c.put("accountLockout.progressiveFactor", "2.5");
        c.put("accountLockout.maxLockoutSeconds", "3600");
        c.put("allowlist.cidrs", "203.0.113.0/24, 2001:db8::/32");
        c.put("realm", "ignored: the console stores its route parameters too");
        GateOptions o = parse(c, "r");
        assertThat(o.policy(Layer.PER_IP).threshold()).isEqualTo(7);
        assertThat(o.policy(Layer.PER_IP).windowSeconds()).isEqualTo(31_536_000);
        assertThat(o.policy(Layer.PER_IP_ACCOUNT).enabled()).isFalse();
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).lockoutSeconds()).isEqualTo(60);
        assertThat(o.policy(Layer.CREDENTIAL_STUFFING).failureMode()).isEqualTo(FailureMode.FAIL_CLOSED);
        assertThat(o.captchaFactor()).isEqualTo(1.0);
        assertThat(o.ipv6PrefixLength()).isEqualTo(48);
        assertThat(o.ipv6NetworkPrefixLength()).isEqualTo(32);
        assertThat(o.ipv6NetworkThreshold()).isEqualTo(500);
        assertThat(o.deviceCookieEnabled()).isTrue();
        assertThat(o.deviceCookieThreshold()).isEqualTo(1000);
        assertThat(o.deviceCookieDays()).isEqualTo(3650);
        assertThat(o.progressiveFactor()).isEqualTo(2.5);
        assertThat(o.maxLockoutSeconds()).isEqualTo(3600);
        assertThat(o.allowlist()).isEqualTo(Allowlist.parse("203.0.113.0/24,2001:db8::/32"));
        assertThat(reported).isEmpty();
    }

    @Test
    void each_invalid_value_falls_back_to_its_own_default_with_one_warning_naming_realm_and_key() {
        Map<String, String> c = new HashMap<>();
        c.put("perIp.threshold", "lots");
        c.put("perIp.windowSeconds", "31536001");
        c.put("perIpAccount.threshold", "3");
        c.put("captcha.factor", "0");
        c.put("deviceCookie.threshold", "1001");
        c.put("accountLockout.failureMode", "SOMETIMES");
        c.put("captcha.enabled", "yes");
        GateOptions o = parse(c, "shop");
        GateOptions d = GateOptions.defaults();
        assertThat(o.policy(Layer.PER_IP)).isEqualTo(d.policy(Layer.PER_IP));
        assertThat(o.policy(Layer.PER_IP_ACCOUNT).threshold()).as("the valid key keeps its value").isEqualTo(3);
        assertThat(o.captchaFactor()).isEqualTo(d.captchaFactor());
        assertThat(o.deviceCookieThreshold()).isEqualTo(d.deviceCookieThreshold());
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).failureMode()).isEqualTo(FailureMode.FAIL_OPEN);
        assertThat(o.captchaEnabled()).isTrue();

        assertThat(warningTexts()).hasSize(6).allSatisfy(w -> assertThat(w).startsWith("Abuse gate: realm 'shop' has an invalid value for '")
                .doesNotContain("lots", "31536001", "SOMETIMES", "yes)"));
        assertThat(warningTexts()).anySatisfy(w -> assertThat(w).contains("'perIp.threshold' (expected a whole number from 1 to 2147483647)"))
                .anySatisfy(w -> assertThat(w).contains("'deviceCookie.threshold' (expected a whole number from 1 to 1000)"))
                .anySatisfy(w -> assertThat(w).contains("'captcha.factor' (expected a number greater than 0, at most 1)"));

        assertThat(topics()).as("one topic per realm and key, which the runtime's limiter lets through once a minute")
                .doesNotHaveDuplicates().allSatisfy(t -> assertThat(t).contains("shop").doesNotContain("lots", "SOMETIMES"));
        List<String> first = topics();
        reported.clear();
        parse(c, "shop");
        assertThat(topics()).as("parsed again: the same topics, so the limiter gives no second warning")
                .containsExactlyInAnyOrderElementsOf(first);
    }

    @Test
    void a_bad_allowlist_entry_is_dropped_and_the_good_ones_apply() {
        GateOptions o = parse(Map.of("allowlist.cidrs", "203.0.113.0/24, not-an-address"), "r");
        assertThat(o.allowlist()).isEqualTo(Allowlist.parse("203.0.113.0/24"));
        assertThat(warningTexts()).singleElement().satisfies(w -> assertThat(w).contains("'allowlist.cidrs'"));
    }

    @Test
    void a_step_key_wins_and_every_other_key_comes_from_the_realm() {
        Map<String, String> realm = Map.of("perIpAccount.threshold", "2", "captcha.enabled", "false", "captcha.secret", "s3cret");
        Map<String, String> step = new HashMap<>();
        step.put("perIpAccount.threshold", "4");
        step.put("captcha.enabled", "inherit");
        step.put("perIp.threshold", "");
        step.put("captcha.secret", "**********");
        Map<String, String> merged = GateConfig.merge(realm, step);
        assertThat(merged).containsEntry("perIpAccount.threshold", "4").containsEntry("captcha.enabled", "false")
                .containsEntry("captcha.secret", "s3cret").doesNotContainKey("perIp.threshold");
        GateOptions o = parse(merged, "r");
        assertThat(o.policy(Layer.PER_IP_ACCOUNT).threshold()).isEqualTo(4);
        assertThat(o.captchaEnabled()).isFalse();
        assertThat(o.policy(Layer.PER_IP).threshold()).isEqualTo(100);
    }

    @Test
    void problems_name_each_bad_key_for_the_realm_tab() {
        assertThat(GateConfig.problems(Map.of("perIp.threshold", "5", "tab", "abuse-gate"))).isEmpty();
        assertThat(GateConfig.problems(Map.of("perIp.threshold", "0", "allowlist.cidrs", "10.0.0.0/33",
                "captcha.verifyUrl", "ftp://x", "captcha.provider", "nope")))
                .hasSize(4)
                .anySatisfy(p -> assertThat(p).isEqualTo("perIp.threshold: expected a whole number from 1 to 2147483647"))
                .anySatisfy(p -> assertThat(p).startsWith("allowlist.cidrs: "))
                .anySatisfy(p -> assertThat(p).isEqualTo("captcha.verifyUrl: expected an http(s) URL"))
                .anySatisfy(p -> assertThat(p).startsWith("captcha.provider: expected altcha or turnstile"));
        assertThat(GateConfig.problems(Map.of("ipv6.prefixLength", "56", "ipv6.networkPrefixLength", "56")))
                .containsExactly("ipv6.networkPrefixLength: must be shorter than ipv6.prefixLength (56), was 56");
        assertThat(GateConfig.problems(Map.of("ipv6.prefixLength", "48", "perIp.ipv6NetworkThreshold", "0"))).isEmpty();
    }

    @Test
    void captcha_settings_come_from_the_same_descriptors() {
        CaptchaConfig c = cache.parse(Map.of("captcha.altcha.maxNumber", "999", "captcha.altcha.expirySeconds", "60"), "r").captcha();
        assertThat(c.altchaMaxNumber()).isEqualTo(100_000);
        assertThat(c.altchaExpirySeconds()).isEqualTo(60);
        assertThat(warningTexts()).singleElement().satisfies(w -> assertThat(w).contains("'captcha.altcha.maxNumber'"));
    }

    @Test
    void the_captcha_settings_never_print_the_secret() {
        CaptchaConfig c = cache.parse(Map.of("captcha.provider", "turnstile", "captcha.siteKey", "0x4AAAA-site",
                "captcha.secret", "0x4AAAA-very-secret"), "r").captcha();

        assertThat(c.secret()).isEqualTo("0x4AAAA-very-secret");
        assertThat(c.toString()).doesNotContain("very-secret").contains("captcha.secret=(set)", "captcha.provider=turnstile",
                "captcha.siteKey=0x4AAAA-site");
        assertThat(cache.parse(Map.of(), "r").captcha().toString()).contains("captcha.secret=unset");
    }

    @Test
    void a_harder_captcha_raises_only_the_altcha_difficulty_offered_and_at_most_to_its_cap() {
        CaptchaConfig c = cache.parse(Map.of("captcha.altcha.maxNumber", "20000", "captcha.verifyBudget", "7"), "r").captcha();

        CaptchaConfig harder = c.harder(4);
        assertThat(harder.altchaMaxNumber()).isEqualTo(80_000);
        assertThat(harder.toString()).isEqualTo(c.toString().replace("offered altcha.maxNumber=20000", "offered altcha.maxNumber=80000"));
        assertThat(harder.verifyBudget()).isEqualTo(7);
        assertThat(c.harder(1.5).altchaMaxNumber()).isEqualTo(30_000);
        assertThat(c.harder(1000).altchaMaxNumber()).isEqualTo(CaptchaConfig.MAX_RAISED_ALTCHA_NUMBER).isEqualTo(160_000);
        assertThat(c.harder(1)).isSameAs(c);
        // a difficulty already above the cap is neither raised nor lowered
        CaptchaConfig hard = cache.parse(Map.of("captcha.altcha.maxNumber", "2000000"), "r").captcha();
        assertThat(hard.harder(4)).isSameAs(hard);
        // the default: 100000 times 1.5
        CaptchaConfig defaults = cache.parse(Map.of(), "r").captcha();
        assertThat(defaults.harder(RealmSettings.ALTCHA_FACTOR.parser().apply(RealmSettings.ALTCHA_FACTOR.defaultValue()))
                .altchaMaxNumber()).isEqualTo(150_000);
    }

    @Test
    void the_realm_altcha_factor_above_its_cap_and_the_realm_min_networks_out_of_bounds_are_refused_naming_the_valid_values() {
        assertThat(RealmSettings.ALTCHA_FACTOR.invalidReason("160")).isNull();
        assertThat(RealmSettings.ALTCHA_FACTOR.invalidReason("161")).isEqualTo("expected a number from 1 to 160");
        assertThat(RealmSettings.ALTCHA_FACTOR.invalidReason("0.5")).isEqualTo("expected a number from 1 to 160");
        assertThat(RealmSettings.MIN_NETWORKS.defaultValue()).isEqualTo("10");
        assertThat(RealmSettings.MIN_NETWORKS.invalidReason("2")).isNull();
        assertThat(RealmSettings.MIN_NETWORKS.invalidReason("1")).isEqualTo("expected a whole number from 2 to 1000");
        assertThat(RealmSettings.MIN_NETWORKS.invalidReason("1001")).isEqualTo("expected a whole number from 2 to 1000");
        assertThat(RealmSettings.MIN_NETWORKS.invalidReason("ten")).isEqualTo("expected a whole number from 2 to 1000");
    }
}
