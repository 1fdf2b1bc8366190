package dev.abusegate.engine;

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
     * The longest window or lockout accepted (about 68 years). Longer ones would overflow the millisecond
     * arithmetic, expire at once and silently turn the layer off.
     */
    public static final long MAX_SECONDS = Integer.MAX_VALUE;

    public LayerPolicy {
        Objects.requireNonNull(layer, "layer");
        String p = layer.configPrefix();
        if (threshold < 1) {
            throw new InvalidOptionException(p + ".threshold", "must be at least 1, was " + threshold);
        }
        if (windowSeconds < 1 || windowSeconds > MAX_SECONDS) {
            throw new InvalidOptionException(p + ".windowSeconds",
                    "must be between 1 and " + MAX_SECONDS + " seconds, was " + windowSeconds);
        }
        if (layer == Layer.ACCOUNT_LOCKOUT && (lockoutSeconds < 1 || lockoutSeconds > MAX_SECONDS)) {
            throw new InvalidOptionException(p + ".lockoutSeconds",
                    "must be between 1 and " + MAX_SECONDS + " seconds, was " + lockoutSeconds);
        }
        if (failureMode == null) {
            throw new InvalidOptionException(p + ".failureMode", "must be FAIL_OPEN or FAIL_CLOSED");
        }
    }

    long windowMillis() {
        return windowSeconds * 1000L;
    }

    long lockoutMillis() {
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
