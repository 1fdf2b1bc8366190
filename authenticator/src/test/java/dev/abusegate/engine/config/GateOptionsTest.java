package dev.abusegate.engine.config;

import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.Outcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class GateOptionsTest {

    /** The Default column of docs/reference.md's settings table, as literals (the constants would check nothing). */
    @Test
    void defaults_are_the_documented_defaults() {
        for (GateOptions d : List.of(GateOptions.defaults(), TestOptions.builder().build())) {
            assertPolicy(d.policy(Layer.PER_IP), 100, 300);
            assertPolicy(d.policy(Layer.PER_IP_ACCOUNT), 10, 900);
            assertPolicy(d.policy(Layer.ACCOUNT_LOCKOUT), 10, 900);
            assertThat(d.policy(Layer.ACCOUNT_LOCKOUT).lockoutSeconds()).isEqualTo(900);
            assertPolicy(d.policy(Layer.CREDENTIAL_STUFFING), 20, 600);
            assertThat(d.captchaEnabled()).isTrue();
            assertThat(d.captchaFactor()).isEqualTo(0.5);
            assertThat(d.ipv6PrefixLength()).isEqualTo(64);
            assertThat(d.ipv6NetworkPrefixLength()).isEqualTo(48);
            assertThat(d.ipv6NetworkThreshold()).isEqualTo(1000);
            assertThat(d.deviceCookieEnabled()).isFalse();
            assertThat(d.deviceCookieDays()).isEqualTo(90);
            assertThat(d.deviceCookieThreshold()).isEqualTo(5);
            assertThat(d.ignoreRepeatedPasswords()).isFalse();
            assertThat(d.progressiveFactor()).isEqualTo(1.0);
            assertThat(d.maxLockoutSeconds()).isEqualTo(86_400);
            assertThat(d.allowlist().isEmpty()).isTrue();
        }
    }

    private static void assertPolicy(LayerPolicy p, int threshold, long window) {
        assertThat(p.enabled()).as("%s enabled", p.layer()).isTrue();
        assertThat(p.threshold()).as("%s threshold", p.layer()).isEqualTo(threshold);
        assertThat(p.windowSeconds()).as("%s window", p.layer()).isEqualTo(window);
        assertThat(p.failureMode()).as("%s failure mode", p.layer()).isEqualTo(FailureMode.FAIL_OPEN);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("perIp.threshold", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP, 0, 300).build()),
                Arguments.of("perIp.threshold", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP, -5, 300).build()),
                Arguments.of("perIpAccount.threshold", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP_ACCOUNT, 0, 900).build()),
                Arguments.of("accountLockout.threshold", (Supplier<?>) () -> TestOptions.builder().layer(Layer.ACCOUNT_LOCKOUT, 0, 900).build()),
                Arguments.of("credentialStuffing.threshold", (Supplier<?>) () -> TestOptions.builder().layer(Layer.CREDENTIAL_STUFFING, 0, 600).build()),
                Arguments.of("perIp.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP, 3, 0).build()),
                Arguments.of("perIpAccount.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP_ACCOUNT, 3, -1).build()),
                Arguments.of("accountLockout.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.ACCOUNT_LOCKOUT, 3, 0).build()),
                Arguments.of("credentialStuffing.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.CREDENTIAL_STUFFING, 3, -60).build()),
                Arguments.of("perIp.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.PER_IP, 3, Long.MAX_VALUE / 1000).build()),
                Arguments.of("credentialStuffing.windowSeconds", (Supplier<?>) () -> TestOptions.builder().layer(Layer.CREDENTIAL_STUFFING, 3, Integer.MAX_VALUE + 1L).build()),
                Arguments.of("accountLockout.lockoutSeconds", (Supplier<?>) () -> TestOptions.builder().lockoutSeconds(Long.MAX_VALUE).build()),
                Arguments.of("accountLockout.lockoutSeconds", (Supplier<?>) () -> TestOptions.builder().lockoutSeconds(0).build()),
                Arguments.of("accountLockout.lockoutSeconds", (Supplier<?>) () -> TestOptions.builder().lockoutSeconds(-900).build()),
                Arguments.of("perIp.failureMode", (Supplier<?>) () -> TestOptions.builder().failureMode(Layer.PER_IP, null).build()),
                Arguments.of("captcha.factor", (Supplier<?>) () -> TestOptions.builder().captchaFactor(0.0).build()),
                Arguments.of("captcha.factor", (Supplier<?>) () -> TestOptions.builder().captchaFactor(-0.5).build()),
                Arguments.of("captcha.factor", (Supplier<?>) () -> TestOptions.builder().captchaFactor(1.0001).build()),
                Arguments.of("captcha.factor", (Supplier<?>) () -> TestOptions.builder().captchaFactor(Double.NaN).build()),
                Arguments.of("captcha.factor", (Supplier<?>) () -> TestOptions.builder().captchaFactor(Double.POSITIVE_INFINITY).build()),
                Arguments.of("ipv6.prefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6PrefixLength(0).build()),
                Arguments.of("ipv6.prefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6PrefixLength(129).build()),
                Arguments.of("ipv6.prefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6PrefixLength(-64).build()),
                Arguments.of("ipv6.networkPrefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6Network(15, 1000).build()),
                Arguments.of("ipv6.networkPrefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6Network(128, 1000).build()),
                Arguments.of("ipv6.networkPrefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6Network(64, 1000).build()),
                Arguments.of("ipv6.networkPrefixLength", (Supplier<?>) () -> TestOptions.builder().ipv6PrefixLength(48).build()),
                Arguments.of("perIp.ipv6NetworkThreshold", (Supplier<?>) () -> TestOptions.builder().ipv6Network(48, -1).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalid_values_are_rejected_naming_the_key(String key, Supplier<?> build) {
        InvalidOptionException e = catchThrowableOfType(InvalidOptionException.class, build::get);
        assertThat(e).as("rejected").isNotNull();
        assertThat(e.key()).isEqualTo(key);
        assertThat(e).hasMessageStartingWith(key);
        assertThat(e).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.5, 1.0})
    void factors_in_zero_exclusive_to_one_inclusive_are_accepted(double factor) {
        assertThat(TestOptions.builder().captchaFactor(factor).build().captchaFactor()).isEqualTo(factor);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 48, 64, 128})
    void prefix_lengths_from_1_to_128_are_accepted(int bits) {
        // a network prefix must be shorter: from /17 one of /16 can be counted, below that none
        TestOptions b = TestOptions.builder().ipv6PrefixLength(bits).ipv6Network(16, bits > 16 ? 1000 : 0);
        assertThat(b.build().ipv6PrefixLength()).isEqualTo(bits);
    }

    @Test
    void the_network_prefix_must_be_shorter_than_the_address_prefix_while_networks_are_counted() {
        assertThatThrownBy(() -> TestOptions.builder().ipv6Network(64, 10).build())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("ipv6.networkPrefixLength: must be shorter than ipv6.prefixLength (64), was 64");
        assertThat(TestOptions.builder().ipv6Network(63, 10).build().ipv6NetworkPrefixCounted()).isEqualTo(63);
        assertThat(TestOptions.builder().ipv6Network(16, 10).build().ipv6NetworkPrefixCounted()).isEqualTo(16);
        GateOptions off = TestOptions.builder().ipv6PrefixLength(48).ipv6Network(48, 0).build();
        assertThat(off.ipv6NetworkPrefixCounted()).as("threshold 0: no network counted").isZero();
    }

    @Test
    void a_saved_network_prefix_not_shorter_than_the_address_prefix_is_reported_and_no_network_is_counted() {
        List<String> reported = new java.util.ArrayList<>();
        GateOptions o = GateOptions.read(new SettingReader(java.util.Map.of("ipv6.prefixLength", "48"),
                (key, why, consequence) -> reported.add(key + ": " + why + "; " + consequence)));
        assertThat(reported).containsExactly("ipv6.networkPrefixLength: must be shorter than ipv6.prefixLength (48), was 48; "
                + "IPv6 networks are not counted (perIp.ipv6NetworkThreshold taken as 0)");
        assertThat(o.ipv6PrefixLength()).as("the rest as configured").isEqualTo(48);
        assertThat(o.ipv6NetworkPrefixCounted()).isZero();

        reported.clear();
        GateOptions fine = GateOptions.read(new SettingReader(java.util.Map.of("ipv6.prefixLength", "56",
                "ipv6.networkPrefixLength", "40", "perIp.ipv6NetworkThreshold", "500"), (key, why, consequence) -> reported.add(key)));
        assertThat(reported).isEmpty();
        assertThat(fine.ipv6NetworkPrefixLength()).isEqualTo(40);
        assertThat(fine.ipv6NetworkThreshold()).isEqualTo(500);
    }

    @Test
    void threshold_one_and_one_second_windows_are_the_smallest_accepted() {
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 1, 1).layer(Layer.ACCOUNT_LOCKOUT, 1, 1)
                .lockoutSeconds(1).build();
        assertThat(o.policy(Layer.PER_IP).threshold()).isEqualTo(1);
        assertThat(o.policy(Layer.PER_IP).windowSeconds()).isEqualTo(1);
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).threshold()).isEqualTo(1);
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).windowSeconds()).isEqualTo(1);
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).lockoutSeconds()).isEqualTo(1);
    }

    @Test
    void a_per_address_block_lasts_its_window_whatever_its_lockout_seconds_say() {
        for (long lockoutSeconds : new long[] {0, 1, GateSettings.MAX_SECONDS * 10}) {
            LayerPolicy perIp = new LayerPolicy(Layer.PER_IP, true, new LayerPolicy.Counting(3, 60, lockoutSeconds), FailureMode.FAIL_OPEN);
            GateOptions o = GateFixture.only(Layer.PER_IP, 3, 60).policy(perIp).build();
            GateFixture f = new GateFixture();
            for (int i = 0; i < 3; i++) {
                assertThat(f.evaluate(o, "192.0.2.1", "a" + i).outcome()).as("lockout %s, attempt %s", lockoutSeconds, i + 1)
                        .isEqualTo(Outcome.ALLOW);
            }
            assertThat(f.evaluate(o, "192.0.2.1", "a").outcome()).as("lockout %s", lockoutSeconds).isEqualTo(Outcome.BLOCKED);
            f.clock.advanceSeconds(60);
            assertThat(f.evaluate(o, "192.0.2.1", "a").outcome()).as("lockout %s: a quiet window later", lockoutSeconds)
                    .isEqualTo(Outcome.ALLOW);
        }
    }

    @Test
    void bad_progressive_values_are_rejected_naming_the_key() {
        assertThatThrownBy(() -> TestOptions.builder().progressiveLockout(0.5, 600).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("accountLockout.progressiveFactor");
        assertThatThrownBy(() -> TestOptions.builder().progressiveLockout(2, 0).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("accountLockout.maxLockoutSeconds");
        assertThatThrownBy(() -> TestOptions.builder().deviceCookie(true, 0, 30).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("deviceCookie.threshold");
    }

    @Test
    void the_builder_keeps_unrelated_settings() {
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 7, 70).lockoutSeconds(1234)
                .failureMode(Layer.CREDENTIAL_STUFFING, FailureMode.FAIL_CLOSED).disable(Layer.PER_IP_ACCOUNT).build();
        assertThat(o.policy(Layer.PER_IP).threshold()).isEqualTo(7);
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).lockoutSeconds()).isEqualTo(1234);
        assertThat(o.policy(Layer.ACCOUNT_LOCKOUT).threshold()).isEqualTo(10);
        assertThat(o.policy(Layer.CREDENTIAL_STUFFING).failureMode()).isEqualTo(FailureMode.FAIL_CLOSED);
        assertThat(o.policy(Layer.PER_IP_ACCOUNT).enabled()).isFalse();
        assertThat(TestOptions.from(o).build()).isEqualTo(o);
    }

    @Test
    void switching_layers_off_keeps_everything_else() {
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 7, 70).lockoutSeconds(1234).captchaFactor(0.5).build();
        GateOptions w = o.without(Layer.PER_IP, Layer.CREDENTIAL_STUFFING);
        for (Layer layer : Layer.values()) {
            boolean off = layer == Layer.PER_IP || layer == Layer.CREDENTIAL_STUFFING;
            assertThat(w.policy(layer)).as(layer.label()).isEqualTo(off ? o.policy(layer).withEnabled(false) : o.policy(layer));
        }
        assertThat(w.values()).isEqualTo(o.values());
    }

    @Test
    void the_longest_accepted_window_and_lockout_still_count_and_lock() {
        GateOptions o = GateFixture.only(Layer.PER_IP, 1, GateSettings.MAX_SECONDS).build();
        GateFixture f = new GateFixture();
        assertThat(f.evaluate(o, "192.0.2.1", "a").outcome()).isEqualTo(Outcome.ALLOW);
        f.clock.advanceSeconds(GateSettings.MAX_SECONDS - 1);
        assertThat(f.evaluate(o, "192.0.2.1", "a").outcome()).as("a year later, still inside the window").isEqualTo(Outcome.BLOCKED);

        GateOptions lock = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 1, GateSettings.MAX_SECONDS).lockoutSeconds(GateSettings.MAX_SECONDS).build();
        f.wrongPassword(lock, "192.0.2.2", "bob");
        f.clock.advanceSeconds(GateSettings.MAX_SECONDS - 1);
        assertThat(f.evaluate(lock, "192.0.2.2", "bob").outcome()).isEqualTo(Outcome.BLOCKED);
    }
}
