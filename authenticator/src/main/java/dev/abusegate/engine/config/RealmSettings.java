package dev.abusegate.engine.config;

import dev.abusegate.engine.config.Setting;
import java.util.List;

/**
 * The keys of the fifth, realm-wide layer, "realm under attack" (see {@link RealmWatch}). Realm-wide by nature: set
 * them on the realm tab; a step that overrides them makes the realm's state follow whichever step decided last.
 */
public final class RealmSettings {

    public static final Setting<Boolean> ENABLED = Setting.bool("realm.enabled", true, "Realm under attack",
            "When on, the realm's failed password checks (unknown usernames included) are counted over a sliding window, with "
                    + "the networks they come from. Past the entry level, with failures from enough networks, every attempt in the realm must carry a solved captcha, except one with a "
                    + "valid device cookie for the account of the typed name or from an allowlisted address. It never blocks, and "
                    + "goes back to normal by itself once the rate falls below half the entry level. Turn it off for a realm whose "
                    + "direct-grant clients are machines that cannot solve a captcha.");
    public static final Setting<Integer> THRESHOLD = Setting.integer("realm.threshold", 50, 1, 100_000_000,
            Setting.about("Realm under attack: failures per window",
            "Failed password checks in the realm per window at which it enters the state (the floor of the entry level)."));
    public static final Setting<Long> WINDOW_SECONDS = Setting.longInteger("realm.windowSeconds", 60, 10, 3_600,
            Setting.about("Realm under attack: window (seconds)",
            "The sliding window of the realm's count, counted in buckets of 10 seconds."));
    public static final Setting<Integer> MIN_NETWORKS = Setting.integer("realm.minNetworks", 10, 2, 1_000,
            Setting.about("Realm under attack: distinct networks",
            "The realm enters the state, and stays in it, only while the window's failed password checks come from at least "
                    + "this many networks (an IPv4 /24, an IPv6 /48), so that one address or one network can neither switch it "
                    + "on nor hold it. A realm whose users all come from fewer networks never enters."));
    public static final Setting<Double> BASELINE_MULTIPLE = Setting.decimal("realm.baselineMultiple", 3, new Range(0, 1_000, false),
            Setting.about("Realm under attack: baseline multiple",
            "When above 0, the entry level is this multiple of the realm's own baseline (the window's count, averaged "
                    + "over about an hour while not under attack) when that is above the failures per window. 0: the "
                    + "failures per window alone."));
    /**
     * The hardest ALTCHA challenge the layer asks for: a solve takes a mid-range phone about 2 s on average (the
     * slowest phone of ALTCHA's own benchmark, a Samsung Galaxy A14, tries about 40,000 numbers a second; the number
     * is uniform in [0, maxnumber], so the average work is half of it). See docs/realm-under-attack.md.
     */
    public static final long MAX_RAISED_ALTCHA_NUMBER = 160_000;
    public static final Setting<Double> ALTCHA_FACTOR = Setting.decimal("realm.altchaFactor", 1.5, new Range(1, 160, false),
            Setting.about("Realm under attack: ALTCHA difficulty factor",
            "While the realm is under attack, ALTCHA challenges are this many times harder (captcha.altcha.maxNumber times "
                    + "this, at most " + MAX_RAISED_ALTCHA_NUMBER + ": about 2 s of work on average on a mid-range phone; a "
                    + "difficulty already above that is not raised), so that a bot pays more per attempt."));

    private static final List<Setting<?>> ALL = List.of(ENABLED, THRESHOLD, WINDOW_SECONDS, MIN_NETWORKS, BASELINE_MULTIPLE,
            ALTCHA_FACTOR);

    private RealmSettings() {
    }

    /** The layer's keys, in the admin console's order. */
    public static List<Setting<?>> all() {
        return ALL;
    }
}
