package dev.abusegate.engine;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the gate can be tuned with, immutable and validated when built. The production defaults
 * live here and nowhere else.
 */
public final class GateOptions {

    public static final String CAPTCHA_ENABLED = "captcha.enabled";
    public static final String CAPTCHA_FACTOR = "captcha.factor";
    public static final String IPV6_PREFIX = "ipv6.prefixLength";

    public static final double DEFAULT_CAPTCHA_FACTOR = 0.5;
    public static final int DEFAULT_IPV6_PREFIX = 64;

    private static final GateOptions DEFAULTS = builder().build();

    private final Map<Layer, LayerPolicy> policies;
    private final boolean captchaEnabled;
    private final double captchaFactor;
    private final int ipv6PrefixLength;

    private GateOptions(Builder b) {
        this.policies = new EnumMap<>(b.policies);
        this.captchaEnabled = b.captchaEnabled;
        this.captchaFactor = b.captchaFactor;
        this.ipv6PrefixLength = b.ipv6PrefixLength;
    }

    /** The production defaults. */
    public static GateOptions defaults() {
        return DEFAULTS;
    }

    /** The production default for one layer. */
    public static LayerPolicy defaultPolicy(Layer layer) {
        switch (layer) {
            case PER_IP:
                return new LayerPolicy(layer, true, 100, 300, 0, FailureMode.FAIL_OPEN);
            case PER_IP_ACCOUNT:
                return new LayerPolicy(layer, true, 10, 900, 0, FailureMode.FAIL_OPEN);
            case ACCOUNT_LOCKOUT:
                return new LayerPolicy(layer, true, 10, 900, 900, FailureMode.FAIL_OPEN);
            case CREDENTIAL_STUFFING:
                return new LayerPolicy(layer, true, 20, 600, 0, FailureMode.FAIL_OPEN);
            default:
                throw new IllegalArgumentException(String.valueOf(layer));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.policies.putAll(policies);
        b.captchaEnabled = captchaEnabled;
        b.captchaFactor = captchaFactor;
        b.ipv6PrefixLength = ipv6PrefixLength;
        return b;
    }

    public LayerPolicy policy(Layer layer) {
        return policies.get(layer);
    }

    public boolean captchaEnabled() {
        return captchaEnabled;
    }

    public double captchaFactor() {
        return captchaFactor;
    }

    public int ipv6PrefixLength() {
        return ipv6PrefixLength;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GateOptions)) {
            return false;
        }
        GateOptions other = (GateOptions) o;
        return policies.equals(other.policies) && captchaEnabled == other.captchaEnabled
                && Double.compare(captchaFactor, other.captchaFactor) == 0
                && ipv6PrefixLength == other.ipv6PrefixLength;
    }

    @Override
    public int hashCode() {
        return Objects.hash(policies, captchaEnabled, captchaFactor, ipv6PrefixLength);
    }

    @Override
    public String toString() {
        return "GateOptions" + policies.values() + ", captchaEnabled=" + captchaEnabled
                + ", captchaFactor=" + captchaFactor + ", ipv6PrefixLength=" + ipv6PrefixLength;
    }

    /** Collects options; {@link #build()} rejects values the gate cannot work with, naming the key. */
    public static final class Builder {
        private final Map<Layer, LayerPolicy> policies = new EnumMap<>(Layer.class);
        private boolean captchaEnabled = true;
        private double captchaFactor = DEFAULT_CAPTCHA_FACTOR;
        private int ipv6PrefixLength = DEFAULT_IPV6_PREFIX;

        private Builder() {
            for (Layer layer : Layer.values()) {
                policies.put(layer, defaultPolicy(layer));
            }
        }

        public Builder policy(LayerPolicy policy) {
            policies.put(policy.layer(), policy);
            return this;
        }

        /** Shorthand: enabled, with this threshold and window (and the lockout duration kept). */
        public Builder layer(Layer layer, int threshold, long windowSeconds) {
            return policy(policies.get(layer).withEnabled(true).withThreshold(threshold).withWindowSeconds(windowSeconds));
        }

        public Builder disable(Layer layer) {
            return policy(policies.get(layer).withEnabled(false));
        }

        public Builder failureMode(Layer layer, FailureMode mode) {
            return policy(policies.get(layer).withFailureMode(mode));
        }

        public Builder lockoutSeconds(long seconds) {
            return policy(policies.get(Layer.ACCOUNT_LOCKOUT).withLockoutSeconds(seconds));
        }

        public Builder captchaEnabled(boolean enabled) {
            this.captchaEnabled = enabled;
            return this;
        }

        public Builder captchaFactor(double factor) {
            this.captchaFactor = factor;
            return this;
        }

        public Builder ipv6PrefixLength(int bits) {
            this.ipv6PrefixLength = bits;
            return this;
        }

        public GateOptions build() {
            if (!(captchaFactor > 0.0 && captchaFactor <= 1.0)) {
                throw new InvalidOptionException(CAPTCHA_FACTOR, "must be greater than 0 and at most 1, was " + captchaFactor);
            }
            if (ipv6PrefixLength < 1 || ipv6PrefixLength > 128) {
                throw new InvalidOptionException(IPV6_PREFIX, "must be between 1 and 128, was " + ipv6PrefixLength);
            }
            return new GateOptions(this);
        }
    }
}
