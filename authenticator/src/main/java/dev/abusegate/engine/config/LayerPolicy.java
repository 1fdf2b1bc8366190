package dev.abusegate.engine.config;

import java.util.Objects;

/**
 * One layer's settings. {@code threshold} is how many are let through per window: with 3, attempts 1 to
 * 3 pass and the 4th is blocked. For the account lockout layer, {@code lockoutSeconds} is how long the
 * identifier stays locked once its failures reach the threshold; the other layers ignore it.
 */
public record LayerPolicy(Layer layer, boolean enabled, Counting counting, FailureMode failureMode) {

    /** What the layer counts to, and for how long. */
    public record Counting(int threshold, long windowSeconds, long lockoutSeconds) {
    }

    public LayerPolicy {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(counting, "counting");
        GateSettings.LayerKeys keys = GateSettings.layer(layer);
        keys.threshold().require(counting.threshold());
        keys.windowSeconds().require(counting.windowSeconds());
        if (keys.lockoutSeconds() != null) {
            keys.lockoutSeconds().require(counting.lockoutSeconds());
        }
        keys.failureMode().requireValue(failureMode);
    }

    /** The layer's policy in a configuration (its defaults: {@link SettingReader#DEFAULTS}). */
    public static LayerPolicy read(Layer layer, SettingReader config) {
        GateSettings.LayerKeys keys = GateSettings.layer(layer);
        Counting counting = new Counting(config.get(keys.threshold()), config.get(keys.windowSeconds()),
                keys.lockoutSeconds() == null ? 0 : config.get(keys.lockoutSeconds()));
        return new LayerPolicy(layer, config.get(keys.enabled()), counting, config.get(keys.failureMode()));
    }

    public int threshold() {
        return counting.threshold();
    }

    public long windowSeconds() {
        return counting.windowSeconds();
    }

    public long lockoutSeconds() {
        return counting.lockoutSeconds();
    }

    public long windowMillis() {
        return counting.windowSeconds() * 1000L;
    }

    public long lockoutMillis() {
        return counting.lockoutSeconds() * 1000L;
    }

    public LayerPolicy withEnabled(boolean value) {
        return new LayerPolicy(layer, value, counting, failureMode);
    }

    public LayerPolicy withThreshold(int value) {
        return new LayerPolicy(layer, enabled, new Counting(value, counting.windowSeconds(), counting.lockoutSeconds()),
                failureMode);
    }

    public LayerPolicy withWindowSeconds(long value) {
        return new LayerPolicy(layer, enabled, new Counting(counting.threshold(), value, counting.lockoutSeconds()),
                failureMode);
    }

    public LayerPolicy withLockoutSeconds(long value) {
        return new LayerPolicy(layer, enabled, new Counting(counting.threshold(), counting.windowSeconds(), value),
                failureMode);
    }

    public LayerPolicy withFailureMode(FailureMode value) {
        return new LayerPolicy(layer, enabled, counting, value);
    }
}
