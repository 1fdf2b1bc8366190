package dev.abusegate.engine.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a written value of a {@link Setting} may be.
 *
 * @param defaultValue the default as written in a configuration, or null when the key has none
 * @param range        the accepted numbers (INTEGER, DECIMAL)
 * @param options      the accepted values (CHOICE), in the order offered
 * @param check        for TEXT: why a value (or, with {@code perEntry}, one entry) cannot be used, or null when it
 *                     can; null: any text
 * @param perEntry     for TEXT: the value is a list separated by commas or whitespace, and a bad entry is left out
 *                     on its own ({@link SettingReader}) rather than the whole value
 */
public record SettingValues(String defaultValue, Range range, List<String> options, Function<String, String> check,
                            boolean perEntry) {
    public SettingValues {
        range = range == null ? Range.NONE : range;
        options = options == null ? List.of() : List.copyOf(options);
    }

    static SettingValues of(String defaultValue, Range range) {
        return new SettingValues(defaultValue, range, null, null, false);
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

    /**
     * The value of each of {@code settings} in {@code values} (its default where left out), each checked against its
     * descriptor ({@link Setting#requireValue}), in the settings' order and unmodifiable; a key of {@code values} that is not
     * one of {@code settings} is rejected. What a set of settings holds (read back with {@link Setting#in}).
     */
    public static Map<String, Object> checked(List<Setting<?>> settings, Map<String, Object> values) {
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
}
