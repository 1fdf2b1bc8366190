package dev.abusegate.engine.config;

import java.util.Locale;

/**
 * The numbers a setting accepts: from {@code min} (itself refused when {@code minExclusive}) to {@code max}.
 *
 * @param min          the smallest accepted number
 * @param max          the largest accepted number
 * @param minExclusive whether {@code min} itself is refused
 */
public record Range(double min, double max, boolean minExclusive) {

    /** No numbers: the range of a setting that is not a number. */
    static final Range NONE = new Range(0, 0, false);

    /** Whether {@code d} lies within the range (never NaN). */
    public boolean contains(double d) {
        return (minExclusive ? d > min : d >= min) && d <= max;
    }

    /** The range in words, e.g. {@code 1 to 31536000}; for the README and messages. */
    String words() {
        return minExclusive ? "greater than " + plain(min) + ", at most " + plain(max) : plain(min) + " to " + plain(max);
    }

    /** The range as a rule, for a refusal: {@code between 1 and 10}. */
    String bounds() {
        return minExclusive ? "greater than " + plain(min) + " and at most " + plain(max) : "between " + plain(min) + " and " + plain(max);
    }

    /** A number without a needless fraction: 5, 0.5, 31536000. */
    static String plain(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return String.valueOf((long) d);
        }
        return String.valueOf(d).toLowerCase(Locale.ROOT);
    }
}
