package dev.abusegate.engine.config;

import dev.abusegate.engine.Layer;
import java.util.Objects;

/**
 * One layer's settings. {@code threshold} is how many are let through per window: with 3, attempts 1 to
 * 3 pass and the 4th is blocked. For the account lockout layer, {@code lockoutSeconds} is how long the
 * identifier stays locked once its failures reach the threshold; the other layers ignore it.
 */
public record LayerPolicy(
        Layer layer,
        boolean enabled,
        int threshold,
        long windowSeconds,
        long lockoutSeconds,
        FailureMode failureMode) {

    public LayerPolicy {
        Objects.requireNonNull(layer, "layer");
        GateSettings.LayerKeys keys = GateSettings.layer(layer);
        keys.threshold().require(threshold);
        keys.windowSeconds().require(windowSeconds);
        if (keys.lockoutSeconds() != null) {
            keys.lockoutSeconds().require(lockoutSeconds);
        }
        keys.failureMode().requireValue(failureMode);
    }

    /** The layer's policy in a configuration (its defaults: {@link SettingReader#DEFAULTS}). */
    public static LayerPolicy read(Layer layer, SettingReader config) {
        GateSettings.LayerKeys keys = GateSettings.layer(layer);
        return new LayerPolicy(layer, config.get(keys.enabled()), config.get(keys.threshold()), config.get(keys.windowSeconds()),
                keys.lockoutSeconds() == null ? 0 : config.get(keys.lockoutSeconds()), config.get(keys.failureMode()));
    }

    public long windowMillis() {
        return windowSeconds * 1000L;
    }

    public long lockoutMillis() {
        return lockoutSeconds * 1000L;
    }

    public LayerPolicy withEnabled(boolean value) {
        return new LayerPolicy(layer, value, threshold, windowSeconds, lockoutSeconds, failureMode);
    }

    public LayerPolicy withThreshold(int value) {
        return new LayerPolicy(layer, enabled, value, windowSeconds, lockoutSeconds, failureMode);
    }
}
