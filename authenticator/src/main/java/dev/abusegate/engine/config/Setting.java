package dev.abusegate.engine.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One configuration key, described once: its name, kind, default, bounds, label and help text. The same
 * descriptor feeds the admin console's properties, the parser of saved configurations, the builders'
 * checks and the README's tables (a test compares them). Plain data: no server framework.
 *
 * @param key          the configuration key, e.g. {@code perIp.threshold}
 * @param kind         how the value is written
 * @param label        the admin console's label
 * @param help         the admin console's help text (without the default, which is appended)
 * @param defaultValue the default as written in a configuration, or null when the key has none
 * @param min          the smallest accepted number (INTEGER, DECIMAL)
 * @param max          the largest accepted number (INTEGER, DECIMAL)
 * @param minExclusive whether {@code min} itself is refused (DECIMAL)
 * @param options      the accepted values (CHOICE), in the order offered
 */
public record Setting(String key, Kind kind, String label, String help, String defaultValue,
                      double min, double max, boolean minExclusive, List<String> options) {

    /** How a value is written. */
    public enum Kind {
        /** {@code true} or {@code false}. */
        BOOLEAN,
        /** A whole number within [min, max]. */
        INTEGER,
        /** A decimal number within [min, max] (or (min, max] when minExclusive). */
        DECIMAL,
        /** One of {@code options} (case-insensitive). */
        CHOICE,
        /** Free text; the key's own parser checks it. */
        TEXT,
        /** A secret: written, never shown back, never logged. */
        SECRET
    }

    public Setting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        options = options == null ? List.of() : List.copyOf(options);
    }

    /** A descriptor whose default lies within its own bounds. */
    private static Setting checked(Setting s) {
        if (s.defaultValue() != null && s.invalidReason(s.defaultValue()) != null) {
            throw new IllegalArgumentException(s.key() + ": default " + s.defaultValue() + " is outside its own bounds");
        }
        return s;
    }

    public static Setting bool(String key, boolean def, String label, String help) {
        return checked(new Setting(key, Kind.BOOLEAN, label, help, String.valueOf(def), 0, 0, false, null));
    }

    public static Setting integer(String key, long def, long min, long max, String label, String help) {
        return checked(new Setting(key, Kind.INTEGER, label, help, String.valueOf(def), min, max, false, null));
    }

    public static Setting decimal(String key, double def, double min, boolean minExclusive, double max, String label, String help) {
        return checked(new Setting(key, Kind.DECIMAL, label, help, plain(def), min, max, minExclusive, null));
    }

    public static Setting choice(String key, String def, List<String> options, String label, String help) {
        return checked(new Setting(key, Kind.CHOICE, label, help, def, 0, 0, false, options));
    }

    public static Setting text(String key, String label, String help) {
        return new Setting(key, Kind.TEXT, label, help, null, 0, 0, false, null);
    }

    public static Setting secret(String key, String label, String help) {
        return new Setting(key, Kind.SECRET, label, help, null, 0, 0, false, null);
    }

    /** The help text with the valid values and the default, as the admin console shows it. */
    public String fullHelp() {
        StringBuilder b = new StringBuilder(help);
        if (kind == Kind.INTEGER || kind == Kind.DECIMAL) {
            b.append(" Valid: ").append(validValues()).append('.');
        }
        if (defaultValue != null) {
            b.append(" Default ").append(defaultValue).append('.');
        }
        return b.toString();
    }

    /** The accepted values in words, e.g. {@code 1 to 31536000}; for the README and messages. */
    public String validValues() {
        switch (kind) {
            case BOOLEAN:
                return "true or false";
            case INTEGER:
                return plain(min) + " to " + plain(max);
            case DECIMAL:
                return minExclusive ? "greater than " + plain(min) + ", at most " + plain(max) : plain(min) + " to " + plain(max);
            case CHOICE:
                return String.join(", ", options);
            default:
                return "text";
        }
    }

    /**
     * Why {@code raw} (trimmed, not empty) cannot be used, or null when it can. TEXT and SECRET values
     * are accepted here; their own parsers check them.
     */
    public String invalidReason(String raw) {
        String v = raw.trim();
        switch (kind) {
            case BOOLEAN:
                return "true".equalsIgnoreCase(v) || "false".equalsIgnoreCase(v) ? null : "expected true or false";
            case INTEGER:
                try {
                    long n = Long.parseLong(v);
                    return n >= min && n <= max ? null : "expected a whole number from " + validValues();
                } catch (NumberFormatException e) {
                    return "expected a whole number from " + validValues();
                }
            case DECIMAL:
                try {
                    double d = Double.parseDouble(v);
                    return inRange(d) ? null : "expected a number " + (minExclusive ? "" : "from ") + validValues();
                } catch (NumberFormatException e) {
                    return "expected a number " + (minExclusive ? "" : "from ") + validValues();
                }
            case CHOICE:
                return choice(v) != null ? null : "expected " + String.join(" or ", options);
            default:
                return null;
        }
    }

    /** The option {@code raw} names (case-insensitive), or null. */
    public String choice(String raw) {
        for (String o : options) {
            if (o.equalsIgnoreCase(raw.trim())) {
                return o;
            }
        }
        return null;
    }

    public boolean defaultBoolean() {
        return Boolean.parseBoolean(defaultValue);
    }

    public long defaultLong() {
        return Long.parseLong(defaultValue);
    }

    public int defaultInt() {
        return Math.toIntExact(defaultLong());
    }

    public double defaultDouble() {
        return Double.parseDouble(defaultValue);
    }

    /** Whether {@code d} lies within the bounds. */
    public boolean inRange(double d) {
        return (minExclusive ? d > min : d >= min) && d <= max;
    }

    /** For builders: rejects a value outside the bounds, naming the key. */
    public void require(long value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + bounds() + ", was " + value);
        }
    }

    /** For builders: rejects a value outside the bounds (or NaN), naming the key. */
    public void require(double value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + bounds() + ", was " + value);
        }
    }

    private String bounds() {
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
