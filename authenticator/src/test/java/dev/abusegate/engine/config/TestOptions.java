package dev.abusegate.engine.config;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test support: collects {@link GateOptions} for tests and benchmarks. {@link #build()} goes through the options'
 * constructor, which rejects values the gate cannot work with, naming the key; production reads its options from
 * a configuration ({@link GateOptions#read}).
 */
public final class TestOptions {
    private final Map<Layer, LayerPolicy> policies;
    private final Map<String, Object> values;

    private TestOptions(GateOptions from) {
        this.policies = new EnumMap<>(from.policies());
        this.values = new LinkedHashMap<>(from.values());
    }

    /** Starts from the production defaults. */
    public static TestOptions builder() {
        return new TestOptions(GateOptions.defaults());
    }

    /** Starts from the given options. */
    public static TestOptions from(GateOptions options) {
        return new TestOptions(options);
    }

    /** Sets one of {@link GateSettings#options()}; checked by {@link #build()}. */
    public <T> TestOptions set(Setting<T> s, T value) {
        values.put(s.key(), value);
        return this;
    }

    public TestOptions policy(LayerPolicy policy) {
        policies.put(policy.layer(), policy);
        return this;
    }

    /** Shorthand: enabled, with this threshold and window (and the lockout duration kept). */
    public TestOptions layer(Layer layer, int threshold, long windowSeconds) {
        LayerPolicy p = policies.get(layer);
        return policy(p.withEnabled(true).withThreshold(threshold).withWindowSeconds(windowSeconds));
    }

    public TestOptions disable(Layer layer) {
        return policy(policies.get(layer).withEnabled(false));
    }

    public TestOptions failureMode(Layer layer, FailureMode mode) {
        LayerPolicy p = policies.get(layer);
        return policy(p.withFailureMode(mode));
    }

    public TestOptions lockoutSeconds(long seconds) {
        LayerPolicy p = policies.get(Layer.ACCOUNT_LOCKOUT);
        return policy(p.withLockoutSeconds(seconds));
    }

    public TestOptions captchaEnabled(boolean enabled) {
        return set(GateSettings.CAPTCHA_ENABLED, enabled);
    }

    public TestOptions captchaFactor(double factor) {
        return set(GateSettings.CAPTCHA_FACTOR, factor);
    }

    public TestOptions ipv6PrefixLength(int bits) {
        return set(GateSettings.IPV6_PREFIX, bits);
    }

    /** IPv6 networks of {@code bits} counted against {@code threshold} per layer 1's window (0: not counted). */
    public TestOptions ipv6Network(int bits, int threshold) {
        return set(GateSettings.IPV6_NETWORK_PREFIX, bits).set(GateSettings.IPV6_NETWORK_THRESHOLD, threshold);
    }

    public TestOptions allowlist(Allowlist value) {
        return set(GateSettings.ALLOWLIST, value == null ? Allowlist.EMPTY : value);
    }

    public TestOptions deviceCookie(boolean enabled, int threshold, int days) {
        return set(GateSettings.DEVICE_COOKIE_ENABLED, enabled).set(GateSettings.DEVICE_COOKIE_THRESHOLD, threshold)
                .set(GateSettings.DEVICE_COOKIE_DAYS, days);
    }

    public TestOptions ignoreRepeatedPasswords(boolean value) {
        return set(GateSettings.IGNORE_REPEATED_PASSWORDS, value);
    }

    public TestOptions progressiveLockout(double factor, long maxSeconds) {
        return set(GateSettings.PROGRESSIVE_FACTOR, factor).set(GateSettings.MAX_LOCKOUT_SECONDS, maxSeconds);
    }

    public GateOptions build() {
        return new GateOptions(policies, values);
    }
}
