package dev.abusegate.engine.store;

/**
 * One layer's limits as an admission change applies them.
 *
 * @param threshold    the count at which the layer blocks; 0: the layer is off
 * @param bandStart    the count from which a captcha is asked for ({@code Long.MAX_VALUE}: never)
 * @param windowMillis how long a count lives after its last change
 */
public record Limit(long threshold, long bandStart, long windowMillis) {

    /** A layer that is off. */
    public static final Limit OFF = new Limit(0, 0, 0);

    /** Whether the layer counts. */
    public boolean on() {
        return threshold != 0;
    }
}
