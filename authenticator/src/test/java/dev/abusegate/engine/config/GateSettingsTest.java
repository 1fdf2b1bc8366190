package dev.abusegate.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The descriptors are the one place for defaults and bounds: the builders enforce the same bounds. */
class GateSettingsTest {

    @Test
    void every_key_is_described_once_with_a_default_inside_its_own_bounds() {
        Set<String> keys = new HashSet<>();
        for (Setting<?> s : GateSettings.all()) {
            assertThat(keys.add(s.key())).as("duplicate " + s.key()).isTrue();
            assertThat(s.label()).isNotBlank();
            assertThat(s.help()).isNotBlank();
            if (s.defaultValue() != null) {
                assertThat(s.invalidReason(s.defaultValue())).as(s.key()).isNull();
            }
        }
        assertThat(keys).contains("perIp.threshold", "accountLockout.lockoutSeconds", "captcha.factor", "allowlist.cidrs")
                .doesNotContain("perIp.lockoutSeconds");
    }

    @Test
    void the_defaults_object_is_built_from_the_descriptors() {
        GateOptions d = GateOptions.defaults();
        for (Layer layer : Layer.values()) {
            assertThat(d.policy(layer).threshold()).isEqualTo(GateSettings.of(layer, GateSettings.THRESHOLD).defaultTyped());
            assertThat(d.policy(layer).windowSeconds()).isEqualTo(GateSettings.of(layer, GateSettings.WINDOW_SECONDS).defaultTyped());
        }
        assertThat(d.captchaFactor()).isEqualTo(GateSettings.CAPTCHA_FACTOR.defaultTyped());
        assertThat(d.deviceCookieThreshold()).isEqualTo(GateSettings.DEVICE_COOKIE_THRESHOLD.defaultTyped());
        assertThat(d.maxLockoutSeconds()).isEqualTo(GateSettings.MAX_LOCKOUT_SECONDS.defaultTyped());
    }

    @Test
    void the_options_hold_one_value_per_descriptor_and_read_it_from_a_configuration() {
        assertThat(GateOptions.defaults().values().keySet())
                .containsExactlyElementsOf(GateSettings.options().stream().map(Setting::key).toList());
        for (Setting<?> s : GateSettings.options()) {
            assertThat(GateOptions.defaults().get(s)).as(s.key()).isEqualTo(s.defaultTyped());
        }
        GateOptions read = GateOptions.read(new SettingReader(java.util.Map.of("deviceCookie.days", "7", "captcha.enabled", "false"),
                (key, why, consequence) -> {
                    throw new AssertionError(key + ": " + why);
                }));
        assertThat(read).isEqualTo(TestOptions.builder().captchaEnabled(false).set(GateSettings.DEVICE_COOKIE_DAYS, 7).build());
        assertThat(read.deviceCookieDays()).isEqualTo(7);
    }

    @Test
    void the_refusal_events_budget_defaults_to_60_takes_0_for_every_refusal_and_refuses_bad_input_naming_the_key() {
        Setting<Integer> s = GateSettings.REFUSAL_EVENTS_PER_MINUTE;
        assertThat(s.key()).isEqualTo("events.refusalsPerMinute");
        assertThat(GateOptions.defaults().refusalEventsPerMinute()).isEqualTo(60);
        assertThat(s.invalidReason("0")).isNull();
        assertThat(s.invalidReason("-1")).isEqualTo("expected a whole number from 0 to 1000000");
        assertThat(s.invalidReason("lots")).isEqualTo("expected a whole number from 0 to 1000000");
        java.util.List<String> reported = new java.util.ArrayList<>();
        GateOptions read = GateOptions.read(new SettingReader(java.util.Map.of(s.key(), "ten"),
                (key, why, consequence) -> reported.add(key + ": " + why + "; " + consequence)));
        assertThat(read.refusalEventsPerMinute()).isEqualTo(60);
        assertThat(reported).singleElement().asString().startsWith("events.refusalsPerMinute: expected a whole number");
        assertThatThrownBy(() -> TestOptions.builder().set(s, -1).build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("events.refusalsPerMinute");
    }

    @Test
    void the_store_failure_events_budget_defaults_to_60_takes_0_for_every_failure_and_refuses_bad_input_naming_the_key() {
        Setting<Integer> s = GateSettings.STORE_FAILURE_EVENTS_PER_MINUTE;
        assertThat(s.key()).isEqualTo("events.storeFailuresPerMinute");
        assertThat(GateOptions.defaults().storeFailureEventsPerMinute()).isEqualTo(60);
        assertThat(TestOptions.builder().set(s, 0).build().storeFailureEventsPerMinute()).isZero();
        assertThat(s.invalidReason("-1")).isEqualTo("expected a whole number from 0 to 1000000");
        assertThatThrownBy(() -> TestOptions.builder().set(s, -1).build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("events.storeFailuresPerMinute");
    }

    private static LayerPolicy withWindow(LayerPolicy p, long seconds) {
        return p.withWindowSeconds(seconds);
    }

    @Test
    void the_builders_accept_exactly_the_descriptors_bounds() {
        Setting<?> window = GateSettings.of(Layer.PER_IP, GateSettings.WINDOW_SECONDS);
        LayerPolicy p = GateOptions.defaults().policy(Layer.PER_IP);
        assertThat(withWindow(p, (long) window.max()).windowSeconds()).isEqualTo(31_536_000L);
        assertThatThrownBy(() -> withWindow(p, (long) window.max() + 1))
                .isInstanceOf(InvalidOptionException.class).hasMessageStartingWith("perIp.windowSeconds");
        assertThat(GateSettings.MAX_SECONDS).isEqualTo((long) window.max());

        Setting<Integer> device = GateSettings.DEVICE_COOKIE_THRESHOLD;
        assertThat(TestOptions.builder().deviceCookie(true, (int) device.max(), 90).build().deviceCookieThreshold()).isEqualTo(1000);
        assertThatThrownBy(() -> TestOptions.builder().deviceCookie(true, (int) device.max() + 1, 90).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageStartingWith("deviceCookie.threshold");
        assertThat(device.invalidReason("1001")).isNotNull();

        assertThatThrownBy(() -> TestOptions.builder().progressiveLockout(1, GateSettings.MAX_SECONDS + 1).build())
                .hasMessageStartingWith("accountLockout.maxLockoutSeconds");
        assertThatThrownBy(() -> TestOptions.builder().captchaFactor(0).build()).hasMessageStartingWith("captcha.factor");
        assertThatThrownBy(() -> TestOptions.builder().captchaFactor(Double.NaN).build()).hasMessageStartingWith("captcha.factor");
    }

    @Test
    void reasons_name_the_valid_values() {
        assertThat(GateSettings.of(Layer.PER_IP, GateSettings.THRESHOLD).invalidReason("0"))
                .isEqualTo("expected a whole number from 1 to 2147483647");
        assertThat(GateSettings.CAPTCHA_FACTOR.invalidReason("0")).isEqualTo("expected a number greater than 0, at most 1");
        assertThat(GateSettings.CAPTCHA_FACTOR.invalidReason("1")).isNull();
        assertThat(GateSettings.of(Layer.PER_IP, GateSettings.FAILURE_MODE).invalidReason("fail_closed")).isNull();
        assertThat(GateSettings.of(Layer.PER_IP, GateSettings.FAILURE_MODE).invalidReason("maybe"))
                .isEqualTo("expected FAIL_OPEN or FAIL_CLOSED");
        assertThat(GateSettings.CAPTCHA_ENABLED.invalidReason("yes")).isEqualTo("expected true or false");
    }
}
