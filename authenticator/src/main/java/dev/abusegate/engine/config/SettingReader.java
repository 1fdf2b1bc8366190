package dev.abusegate.engine.config;

import java.util.Map;

/**
 * Reads typed values out of a saved configuration (key to written value), one descriptor ({@link Setting}) at
 * a time. A key that is not set has its default. A value that cannot be used falls back to the default and is
 * reported to {@link Problems}, naming the key (never the value); in a list ({@link Setting#perEntry()}) only
 * the bad entries are left out and reported.
 */
public final class SettingReader {

    /** Where unusable values are reported. */
    @FunctionalInterface
    public interface Problems {
        /** {@code why} names what was expected, {@code consequence} what the gate does instead. */
        void report(String key, String why, String consequence);
    }

    /** What the gate does with an unusable value. */
    public static final String USING_DEFAULT = "using the default for that key";
    /** What the gate does with an unusable entry of a list. */
    public static final String ENTRY_IGNORED = "that entry is ignored, the valid ones apply";

    /** Nothing set: every key has its default. */
    public static final SettingReader DEFAULTS = new SettingReader(Map.of(), (key, why, consequence) -> {
    });

    private final Map<String, String> config;
    private final Problems problems;

    /** {@code config}: only the keys that are set (not empty), as written. */
    public SettingReader(Map<String, String> config, Problems problems) {
        this.config = config;
        this.problems = problems;
    }

    /** The value of {@code s}: as written when usable, else its default. */
    public <T> T get(Setting<T> s) {
        String v = config.get(s.key());
        if (v == null) {
            return s.defaultTyped();
        }
        if (s.perEntry()) {
            StringBuilder good = new StringBuilder();
            for (String entry : SettingValues.entries(v)) {
                String why = s.check().apply(entry);
                if (why == null) {
                    good.append(entry).append(',');
                } else {
                    problems.report(s.key(), why, ENTRY_IGNORED);
                }
            }
            return s.parse(good.toString());
        }
        String why = s.invalidReason(v);
        if (why != null) {
            problems.report(s.key(), why, USING_DEFAULT);
            return s.defaultTyped();
        }
        return s.parse(v);
    }

    /** Reports a problem the descriptors cannot see alone (a combination of keys). */
    public void report(String key, String why, String consequence) {
        problems.report(key, why, consequence);
    }
}
