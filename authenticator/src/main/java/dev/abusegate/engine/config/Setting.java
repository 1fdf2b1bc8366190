package dev.abusegate.engine.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration key, described once: its name, kind, default, bounds, label, help text and parser. The
 * same descriptor feeds the admin console's properties, the reader of saved configurations
 * ({@link SettingReader}), the options' checks ({@link GateOptions}, {@link LayerPolicy}) and the README's
 * tables (a test compares them). Plain data: no server framework.
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
 * @param check        for TEXT: why a value (or, with {@code perEntry}, one entry) cannot be used, or null when it can;
 *                     null: any text
 * @param perEntry     for TEXT: the value is a list separated by commas or whitespace, and a bad entry is left out
 *                     on its own ({@link SettingReader}) rather than the whole value
 * @param parser       the typed value of a valid written value (trimmed; for CHOICE the option as declared),
 *                     or of null when the key is not set and has no default
 * @param <T>          the type of the value in the options
 */
public record Setting<T>(String key, Kind kind, String label, String help, String defaultValue,
                         double min, double max, boolean minExclusive, List<String> options,
                         Function<String, String> check, boolean perEntry, Function<String, T> parser) {

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
        /** Free text, checked by {@code check}. */
        TEXT,
        /** A secret: written, never shown back, never logged. */
        SECRET
    }

    public Setting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(parser, "parser");
        options = options == null ? List.of() : List.copyOf(options);
    }

    /** A descriptor whose default lies within its own bounds. */
    private static <T> Setting<T> checked(Setting<T> s) {
        if (s.defaultValue() != null && s.invalidReason(s.defaultValue()) != null) {
            throw new IllegalArgumentException(s.key() + ": default " + s.defaultValue() + " is outside its own bounds");
        }
        return s;
    }

    public static Setting<Boolean> bool(String key, boolean def, String label, String help) {
        return checked(new Setting<>(key, Kind.BOOLEAN, label, help, String.valueOf(def), 0, 0, false, null, null, false,
                Boolean::parseBoolean));
    }

    /** A whole number that fits an {@code int}. */
    public static Setting<Integer> integer(String key, int def, int min, int max, String label, String help) {
        return checked(new Setting<>(key, Kind.INTEGER, label, help, String.valueOf(def), min, max, false, null, null, false,
                Integer::parseInt));
    }

    /** A whole number that may need a {@code long} (durations, counts). */
    public static Setting<Long> longInteger(String key, long def, long min, long max, String label, String help) {
        return checked(new Setting<>(key, Kind.INTEGER, label, help, String.valueOf(def), min, max, false, null, null, false,
                Long::parseLong));
    }

    public static Setting<Double> decimal(String key, double def, double min, boolean minExclusive, double max, String label,
                                          String help) {
        return checked(new Setting<>(key, Kind.DECIMAL, label, help, plain(def), min, max, minExclusive, null, null, false,
                Double::parseDouble));
    }

    /** One of {@code options}; {@code parser} gets the option as declared. */
    public static <T> Setting<T> choice(String key, String def, List<String> options, Function<String, T> parser, String label,
                                        String help) {
        return checked(new Setting<>(key, Kind.CHOICE, label, help, def, 0, 0, false, options, null, false, parser));
    }

    /** Free text, no default (null when not set). */
    public static Setting<String> text(String key, String label, String help) {
        return text(key, null, label, help);
    }

    /** Free text that {@code check} accepts (see the record's {@code check}), no default (null when not set). */
    public static Setting<String> text(String key, Function<String, String> check, String label, String help) {
        return new Setting<>(key, Kind.TEXT, label, help, null, 0, 0, false, null, check, false, Function.identity());
    }

    /**
     * A list of entries separated by commas or whitespace, each checked on its own by {@code check}; no default
     * ({@code parser} gets null when not set).
     */
    public static <T> Setting<T> entries(String key, Function<String, String> check, Function<String, T> parser, String label,
                                         String help) {
        return new Setting<>(key, Kind.TEXT, label, help, null, 0, 0, false, null, check, true, parser);
    }

    public static Setting<String> secret(String key, String label, String help) {
        return new Setting<>(key, Kind.SECRET, label, help, null, 0, 0, false, null, null, false, Function.identity());
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
     * Why {@code raw} (trimmed, not empty) cannot be used, or null when it can. A list ({@code perEntry}) names
     * its first bad entry.
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
                if (check == null) {
                    return null;
                }
                if (!perEntry) {
                    return check.apply(v);
                }
                for (String entry : entries(v)) {
                    String why = check.apply(entry);
                    if (why != null) {
                        return why;
                    }
                }
                return null;
        }
    }

    /** The entries of a list value ({@code perEntry}), without empty ones. */
    public static List<String> entries(String raw) {
        List<String> out = new ArrayList<>();
        for (String entry : raw.split("[,\\s]+")) {
            if (!entry.isEmpty()) {
                out.add(entry);
            }
        }
        return out;
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

    /** The typed value of a written value that {@link #invalidReason} accepts (null: the key is not set). */
    public T parse(String raw) {
        if (raw == null) {
            return parser.apply(null);
        }
        return parser.apply(kind == Kind.CHOICE ? choice(raw) : raw.trim());
    }

    /**
     * The value of each of {@code settings} in {@code values} (its default where left out), each checked against its
     * descriptor ({@link #requireValue}), in the settings' order and unmodifiable; a key of {@code values} that is not
     * one of {@code settings} is rejected. What a set of settings holds (read back with {@link #in}).
     */
    public static Map<String, Object> checkedValues(List<Setting<?>> settings, Map<String, Object> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            Object value = values.containsKey(s.key()) ? values.get(s.key()) : s.defaultTyped();
            s.requireValue(value);
            out.put(s.key(), value);
        }
        for (String key : values.keySet()) {
            if (!out.containsKey(key)) {
                throw new IllegalArgumentException("not one of these settings: " + key);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** This setting's value in {@code values}, a map {@link #checkedValues} built with it. */
    @SuppressWarnings("unchecked")
    public T in(Map<String, Object> values) {
        if (!values.containsKey(key)) {
            throw new IllegalArgumentException("not one of these settings: " + key);
        }
        return (T) values.get(key);
    }

    /** The typed default: the value of a key that is not set. */
    public T defaultTyped() {
        return parse(defaultValue);
    }

    /** Whether {@code d} lies within the bounds. */
    public boolean inRange(double d) {
        return (minExclusive ? d > min : d >= min) && d <= max;
    }

    /** For the options' checks: rejects a value outside the bounds, naming the key. */
    public void require(long value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + bounds() + ", was " + value);
        }
    }

    /** For the options' checks: rejects a value outside the bounds (or NaN), naming the key. */
    public void require(double value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + bounds() + ", was " + value);
        }
    }

    /** For the options' checks: rejects a typed value this key cannot take (out of bounds, or missing), naming the key. */
    public void requireValue(Object value) {
        if (value == null) {
            if (kind == Kind.TEXT || kind == Kind.SECRET) {
                return;
            }
            throw new InvalidOptionException(key, kind == Kind.CHOICE ? "must be " + String.join(" or ", options) : "must be set");
        }
        if (value instanceof Double || value instanceof Float) {
            require(((Number) value).doubleValue());
        } else if (value instanceof Number) {
            require(((Number) value).longValue());
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
