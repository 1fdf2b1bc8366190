package dev.abusegate.engine.config;

import dev.abusegate.engine.Layer;
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
    public static final String DEVICE_COOKIE_ENABLED = "deviceCookie.enabled";
    public static final String DEVICE_COOKIE_DAYS = "deviceCookie.days";
    public static final String DEVICE_COOKIE_THRESHOLD = "deviceCookie.threshold";
    public static final String IGNORE_REPEATED_PASSWORDS = "accountLockout.ignoreRepeatedPasswords";
    public static final String PROGRESSIVE_FACTOR = "accountLockout.progressiveFactor";
    public static final String MAX_LOCKOUT_SECONDS = "accountLockout.maxLockoutSeconds";

    // The defaults come from the keys' descriptors (GateSettings), which also hold the bounds checked below.
    public static final double DEFAULT_CAPTCHA_FACTOR = GateSettings.CAPTCHA_FACTOR.defaultDouble();
    public static final int DEFAULT_IPV6_PREFIX = GateSettings.IPV6_PREFIX.defaultInt();
    public static final int DEFAULT_DEVICE_COOKIE_DAYS = GateSettings.DEVICE_COOKIE_DAYS.defaultInt();
    public static final int DEFAULT_DEVICE_COOKIE_THRESHOLD = GateSettings.DEVICE_COOKIE_THRESHOLD.defaultInt();
    public static final double DEFAULT_PROGRESSIVE_FACTOR = GateSettings.PROGRESSIVE_FACTOR.defaultDouble();
    public static final long DEFAULT_MAX_LOCKOUT_SECONDS = GateSettings.MAX_LOCKOUT_SECONDS.defaultLong();
    /** How many distinct recent wrong passwords per identifier are remembered (as keyed tags). */
    public static final int REMEMBERED_WRONG_PASSWORDS = 5;

    private static final GateOptions DEFAULTS = builder().build();

    private final Map<Layer, LayerPolicy> policies;
    private final boolean captchaEnabled;
    private final double captchaFactor;
    private final int ipv6PrefixLength;
    private final Allowlist allowlist;
    private final boolean deviceCookieEnabled;
    private final int deviceCookieDays;
    private final int deviceCookieThreshold;
    private final boolean ignoreRepeatedPasswords;
    private final double progressiveFactor;
    private final long maxLockoutSeconds;

    private GateOptions(Builder b) {
        this.policies = new EnumMap<>(b.policies);
        this.captchaEnabled = b.captchaEnabled;
        this.captchaFactor = b.captchaFactor;
        this.ipv6PrefixLength = b.ipv6PrefixLength;
        this.allowlist = b.allowlist;
        this.deviceCookieEnabled = b.deviceCookieEnabled;
        this.deviceCookieDays = b.deviceCookieDays;
        this.deviceCookieThreshold = b.deviceCookieThreshold;
        this.ignoreRepeatedPasswords = b.ignoreRepeatedPasswords;
        this.progressiveFactor = b.progressiveFactor;
        this.maxLockoutSeconds = b.maxLockoutSeconds;
    }

    /** The production defaults. */
    public static GateOptions defaults() {
        return DEFAULTS;
    }

    /** The production default for one layer (from the keys' descriptors, {@link GateSettings}). */
    public static LayerPolicy defaultPolicy(Layer layer) {
        Setting lockout = GateSettings.of(layer, GateSettings.LOCKOUT_SECONDS);
        return new LayerPolicy(layer,
                GateSettings.of(layer, GateSettings.ENABLED).defaultBoolean(),
                GateSettings.of(layer, GateSettings.THRESHOLD).defaultInt(),
                GateSettings.of(layer, GateSettings.WINDOW_SECONDS).defaultLong(),
                lockout == null ? 0 : lockout.defaultLong(),
                FailureMode.valueOf(GateSettings.of(layer, GateSettings.FAILURE_MODE).defaultValue()));
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
        b.allowlist = allowlist;
        b.deviceCookieEnabled = deviceCookieEnabled;
        b.deviceCookieDays = deviceCookieDays;
        b.deviceCookieThreshold = deviceCookieThreshold;
        b.ignoreRepeatedPasswords = ignoreRepeatedPasswords;
        b.progressiveFactor = progressiveFactor;
        b.maxLockoutSeconds = maxLockoutSeconds;
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

    /** Address ranges exempt from layers 1, 2 and 4 (layer 3 still applies). */
    public Allowlist allowlist() {
        return allowlist;
    }

    /** Whether a verified device cookie moves layer 3 to that device's own budget. */
    public boolean deviceCookieEnabled() {
        return deviceCookieEnabled;
    }

    public int deviceCookieDays() {
        return deviceCookieDays;
    }

    /** Failed passwords one device may make per lockout window before it is locked out itself. */
    public int deviceCookieThreshold() {
        return deviceCookieThreshold;
    }

    /** Whether a wrong password identical to a recent wrong one for the identifier counts again. */
    public boolean ignoreRepeatedPasswords() {
        return ignoreRepeatedPasswords;
    }

    /** Each consecutive lock of an identifier lasts this many times the previous one (1: fixed). */
    public double progressiveFactor() {
        return progressiveFactor;
    }

    /** The cap on a progressive lock's duration. */
    public long maxLockoutSeconds() {
        return maxLockoutSeconds;
    }

    /** How long the n-th consecutive lock (1-based) lasts, in milliseconds. */
    public long lockoutMillis(long n) {
        long base = policy(Layer.ACCOUNT_LOCKOUT).lockoutSeconds();
        double seconds = base * Math.pow(progressiveFactor, Math.max(0, n - 1));
        long capped = (long) Math.min(seconds, Math.max(base, maxLockoutSeconds));
        return capped * 1000L;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GateOptions)) {
            return false;
        }
        GateOptions other = (GateOptions) o;
        return policies.equals(other.policies) && captchaEnabled == other.captchaEnabled
                && Double.compare(captchaFactor, other.captchaFactor) == 0
                && ipv6PrefixLength == other.ipv6PrefixLength
                && allowlist.equals(other.allowlist)
                && deviceCookieEnabled == other.deviceCookieEnabled
                && deviceCookieDays == other.deviceCookieDays
                && deviceCookieThreshold == other.deviceCookieThreshold
                && ignoreRepeatedPasswords == other.ignoreRepeatedPasswords
                && Double.compare(progressiveFactor, other.progressiveFactor) == 0
                && maxLockoutSeconds == other.maxLockoutSeconds;
    }

    @Override
    public int hashCode() {
        return Objects.hash(policies, captchaEnabled, captchaFactor, ipv6PrefixLength, allowlist, deviceCookieEnabled,
                deviceCookieDays, deviceCookieThreshold, ignoreRepeatedPasswords, progressiveFactor, maxLockoutSeconds);
    }

    @Override
    public String toString() {
        return "GateOptions" + policies.values() + ", captchaEnabled=" + captchaEnabled
                + ", captchaFactor=" + captchaFactor + ", ipv6PrefixLength=" + ipv6PrefixLength
                + ", allowlist=[" + allowlist + "], deviceCookie=" + deviceCookieEnabled + "/" + deviceCookieThreshold
                + "/" + deviceCookieDays + "d, ignoreRepeatedPasswords=" + ignoreRepeatedPasswords
                + ", progressiveFactor=" + progressiveFactor + ", maxLockoutSeconds=" + maxLockoutSeconds;
    }

    /** Collects options; {@link #build()} rejects values the gate cannot work with, naming the key. */
    public static final class Builder {
        private final Map<Layer, LayerPolicy> policies = new EnumMap<>(Layer.class);
        private boolean captchaEnabled = GateSettings.CAPTCHA_ENABLED.defaultBoolean();
        private double captchaFactor = DEFAULT_CAPTCHA_FACTOR;
        private int ipv6PrefixLength = DEFAULT_IPV6_PREFIX;
        private Allowlist allowlist = Allowlist.EMPTY;
        private boolean deviceCookieEnabled = GateSettings.DEVICE_COOKIE_ENABLED.defaultBoolean();
        private int deviceCookieDays = DEFAULT_DEVICE_COOKIE_DAYS;
        private int deviceCookieThreshold = DEFAULT_DEVICE_COOKIE_THRESHOLD;
        private boolean ignoreRepeatedPasswords = GateSettings.IGNORE_REPEATED_PASSWORDS.defaultBoolean();
        private double progressiveFactor = DEFAULT_PROGRESSIVE_FACTOR;
        private long maxLockoutSeconds = DEFAULT_MAX_LOCKOUT_SECONDS;

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

        public Builder allowlist(Allowlist value) {
            this.allowlist = value == null ? Allowlist.EMPTY : value;
            return this;
        }

        public Builder deviceCookie(boolean enabled, int threshold, int days) {
            this.deviceCookieEnabled = enabled;
            this.deviceCookieThreshold = threshold;
            this.deviceCookieDays = days;
            return this;
        }

        public Builder ignoreRepeatedPasswords(boolean value) {
            this.ignoreRepeatedPasswords = value;
            return this;
        }

        public Builder progressiveLockout(double factor, long maxSeconds) {
            this.progressiveFactor = factor;
            this.maxLockoutSeconds = maxSeconds;
            return this;
        }

        public GateOptions build() {
            GateSettings.DEVICE_COOKIE_THRESHOLD.require(deviceCookieThreshold);
            GateSettings.DEVICE_COOKIE_DAYS.require(deviceCookieDays);
            GateSettings.PROGRESSIVE_FACTOR.require(progressiveFactor);
            GateSettings.MAX_LOCKOUT_SECONDS.require(maxLockoutSeconds);
            GateSettings.CAPTCHA_FACTOR.require(captchaFactor);
            GateSettings.IPV6_PREFIX.require(ipv6PrefixLength);
            return new GateOptions(this);
        }
    }
}
