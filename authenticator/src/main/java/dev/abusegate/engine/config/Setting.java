package dev.abusegate.engine.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration key, described once: its name, kind, default, bounds, label, help text and parser. The
 * same descriptor feeds the admin console's properties, the reader of saved configurations
 * ({@link SettingReader}), the options' checks ({@link GateOptions}, {@link LayerPolicy}) and the README's
 * tables (a test compares them). Plain data: no server framework.
 *
 * @param key    the configuration key, e.g. {@code perIp.threshold}
 * @param kind   how the value is written
 * @param about  the admin console's label and help text
 * @param values the default, the bounds, the options and the check of a written value
 * @param parser the typed value of a valid written value (trimmed; for CHOICE the option as declared), or of null
 *               when the key is not set and has no default
 * @param <T>    the type of the value in the options
 */
public record Setting<T>(String key, Kind kind, About about, SettingValues values, Function<String, T> parser) {

    /**
     * What the admin console shows.
     *
     * @param label the admin console's label
     * @param help  the admin console's help text (without the default, which is appended)
     */
    public record About(String label, String help) {
    }

    /** The admin console's label and help text of a setting. */
    public static About about(String label, String help) {
        return new About(label, help);
    }

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
        Objects.requireNonNull(about, "about");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(parser, "parser");
    }

    public String label() {
        return about.label();
    }

    public String help() {
        return about.help();
    }

    public String defaultValue() {
        return values.defaultValue();
    }

    public double min() {
        return values.range().min();
    }

    public double max() {
        return values.range().max();
    }

    public boolean minExclusive() {
        return values.range().minExclusive();
    }

    public List<String> options() {
        return values.options();
    }

    public Function<String, String> check() {
        return values.check();
    }

    public boolean perEntry() {
        return values.perEntry();
    }

    /** A descriptor whose default lies within its own bounds. */
    private static <T> Setting<T> checked(Setting<T> s) {
        if (s.defaultValue() != null && s.invalidReason(s.defaultValue()) != null) {
            throw new IllegalArgumentException(s.key() + ": default " + s.defaultValue() + " is outside its own bounds");
        }
        return s;
    }

    public static Setting<Boolean> bool(String key, boolean def, String label, String help) {
        return checked(new Setting<>(key, Kind.BOOLEAN, about(label, help), SettingValues.of(String.valueOf(def), null),
                Boolean::parseBoolean));
    }

    /** A whole number that fits an {@code int}. */
    public static Setting<Integer> integer(String key, int def, int min, int max, About about) {
        return checked(new Setting<>(key, Kind.INTEGER, about, SettingValues.of(String.valueOf(def), new Range(min, max, false)),
                Integer::parseInt));
    }

    /** A whole number that may need a {@code long} (durations, counts). */
    public static Setting<Long> longInteger(String key, long def, long min, long max, About about) {
        return checked(new Setting<>(key, Kind.INTEGER, about, SettingValues.of(String.valueOf(def), new Range(min, max, false)),
                Long::parseLong));
    }

    public static Setting<Double> decimal(String key, double def, Range range, About about) {
        return checked(new Setting<>(key, Kind.DECIMAL, about, SettingValues.of(Range.plain(def), range), Double::parseDouble));
    }

    /** One of {@code options}; {@code parser} gets the option as declared. */
    public static <T> Setting<T> choice(String key, String def, List<String> options, Function<String, T> parser, About about) {
        return checked(new Setting<>(key, Kind.CHOICE, about, new SettingValues(def, null, options, null, false), parser));
    }

    /** Free text, no default (null when not set). */
    public static Setting<String> text(String key, String label, String help) {
        return text(key, null, label, help);
    }

    /** Free text that {@code check} accepts (see the record's {@code check}), no default (null when not set). */
    public static Setting<String> text(String key, Function<String, String> check, String label, String help) {
        return new Setting<>(key, Kind.TEXT, about(label, help), new SettingValues(null, null, null, check, false), Function.identity());
    }

    /**
     * A list of entries separated by commas or whitespace, each checked on its own by {@code check}; no default
     * ({@code parser} gets null when not set).
     */
    public static <T> Setting<T> entries(String key, Function<String, String> check, Function<String, T> parser, String label,
                                         String help) {
        return new Setting<>(key, Kind.TEXT, about(label, help), new SettingValues(null, null, null, check, true), parser);
    }

    public static Setting<String> secret(String key, String label, String help) {
        return new Setting<>(key, Kind.SECRET, about(label, help), SettingValues.of(null, null), Function.identity());
    }

    /** The help text with the valid values and the default, as the admin console shows it. */
    public String fullHelp() {
        StringBuilder b = new StringBuilder(help());
        if (kind == Kind.INTEGER || kind == Kind.DECIMAL) {
            b.append(" Valid: ").append(validValues()).append('.');
        }
        if (defaultValue() != null) {
            b.append(" Default ").append(defaultValue()).append('.');
        }
        return b.toString();
    }

    /** The accepted values in words, e.g. {@code 1 to 31536000}; for the README and messages. */
    public String validValues() {
        switch (kind) {
            case BOOLEAN:
                return "true or false";
            case INTEGER:
            case DECIMAL:
                return values.range().words();
            case CHOICE:
                return String.join(", ", options());
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
                    return values.range().contains(n) ? null : "expected a whole number from " + validValues();
                } catch (NumberFormatException e) {
                    return "expected a whole number from " + validValues();
                }
            case DECIMAL:
                try {
                    double d = Double.parseDouble(v);
                    return inRange(d) ? null : "expected a number " + (minExclusive() ? "" : "from ") + validValues();
                } catch (NumberFormatException e) {
                    return "expected a number " + (minExclusive() ? "" : "from ") + validValues();
                }
            case CHOICE:
                return choice(v) != null ? null : "expected " + String.join(" or ", options());
            default:
                Function<String, String> check = check();
                if (check == null) {
                    return null;
                }
                if (!perEntry()) {
                    return check.apply(v);
                }
                for (String entry : SettingValues.entries(v)) {
                    String why = check.apply(entry);
                    if (why != null) {
                        return why;
                    }
                }
                return null;
        }
    }

    /** The option {@code raw} names (case-insensitive), or null. */
    public String choice(String raw) {
        for (String o : options()) {
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

    /** This setting's value in {@code values}, a map {@link SettingValues#checked} built with it. */
    @SuppressWarnings("unchecked")
    public T in(Map<String, Object> values) {
        if (!values.containsKey(key)) {
            throw new IllegalArgumentException("not one of these settings: " + key);
        }
        return (T) values.get(key);
    }

    /** The typed default: the value of a key that is not set. */
    public T defaultTyped() {
        return parse(defaultValue());
    }

    /** Whether {@code d} lies within the bounds. */
    public boolean inRange(double d) {
        return values.range().contains(d);
    }

    /** For the options' checks: rejects a value outside the bounds, naming the key. */
    public void require(long value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + values.range().bounds() + ", was " + value);
        }
    }

    /** For the options' checks: rejects a value outside the bounds (or NaN), naming the key. */
    public void require(double value) {
        if (!inRange(value)) {
            throw new InvalidOptionException(key, "must be " + values.range().bounds() + ", was " + value);
        }
    }

    /** For the options' checks: rejects a typed value this key cannot take (out of bounds, or missing), naming the key. */
    public void requireValue(Object value) {
        if (value == null) {
            if (kind == Kind.TEXT || kind == Kind.SECRET) {
                return;
            }
            throw new InvalidOptionException(key, kind == Kind.CHOICE ? "must be " + String.join(" or ", options()) : "must be set");
        }
        if (value instanceof Double || value instanceof Float) {
            require(((Number) value).doubleValue());
        } else if (value instanceof Number) {
            require(((Number) value).longValue());
        }
    }
}
