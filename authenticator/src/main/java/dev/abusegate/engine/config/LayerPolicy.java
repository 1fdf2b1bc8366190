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

    /**
     * The longest window or lockout accepted (one year, as {@link GateSettings#MAX_SECONDS}): the bound
     * of the configuration keys and of this check are the same.
     */
    public static final long MAX_SECONDS = GateSettings.MAX_SECONDS;

    public LayerPolicy {
        Objects.requireNonNull(layer, "layer");
        GateSettings.of(layer, GateSettings.THRESHOLD).require(threshold);
        GateSettings.of(layer, GateSettings.WINDOW_SECONDS).require(windowSeconds);
        if (layer == Layer.ACCOUNT_LOCKOUT) {
            GateSettings.of(layer, GateSettings.LOCKOUT_SECONDS).require(lockoutSeconds);
        }
        if (failureMode == null) {
            throw new InvalidOptionException(GateSettings.key(layer, GateSettings.FAILURE_MODE), "must be FAIL_OPEN or FAIL_CLOSED");
        }
    }

    public long windowMillis() {
        return windowSeconds * 1000L;
    }

    public long lockoutMillis() {
        return lockoutSeconds * 1000L;
    }

    /** Whether {@code count} has reached {@code factor} of the threshold (the captcha band). */
    boolean inBand(long count, double factor) {
        return count >= factor * threshold;
    }

    public LayerPolicy withEnabled(boolean value) {
        return new LayerPolicy(layer, value, threshold, windowSeconds, lockoutSeconds, failureMode);
    }

    public LayerPolicy withThreshold(int value) {
        return new LayerPolicy(layer, enabled, value, windowSeconds, lockoutSeconds, failureMode);
    }

    public LayerPolicy withWindowSeconds(long value) {
        return new LayerPolicy(layer, enabled, threshold, value, lockoutSeconds, failureMode);
    }

    public LayerPolicy withLockoutSeconds(long value) {
        return new LayerPolicy(layer, enabled, threshold, windowSeconds, value, failureMode);
    }

    public LayerPolicy withFailureMode(FailureMode value) {
        return new LayerPolicy(layer, enabled, threshold, windowSeconds, lockoutSeconds, value);
    }
}
