package dev.abusegate.engine.config;

import dev.abusegate.engine.Layer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate's configuration keys, each described once ({@link Setting}): the production defaults and the
 * bounds live here, and {@link GateOptions} and {@link LayerPolicy} check against the same bounds.
 */
public final class GateSettings {

    /** Windows, lock durations and the longest progressive lock: at most one year. */
    public static final long MAX_SECONDS = 31_536_000;

    public static final String ENABLED = "enabled";
    public static final String THRESHOLD = "threshold";
    public static final String WINDOW_SECONDS = "windowSeconds";
    public static final String LOCKOUT_SECONDS = "lockoutSeconds";
    public static final String FAILURE_MODE = "failureMode";

    private static final Map<Layer, Map<String, Setting>> LAYERS = new EnumMap<>(Layer.class);

    public static final Setting CAPTCHA_ENABLED = Setting.bool(GateOptions.CAPTCHA_ENABLED, true, "Captcha band",
            "When on, an attempt whose counters have reached the captcha factor of a threshold must solve a captcha. "
                    + "Past the threshold the answer is 'blocked', captcha or not.");
    public static final Setting CAPTCHA_FACTOR = Setting.decimal(GateOptions.CAPTCHA_FACTOR, 0.5, 0, true, 1, "Captcha factor",
            "Fraction of a threshold from which a captcha is required.");
    public static final Setting IPV6_PREFIX = Setting.integer(GateOptions.IPV6_PREFIX, 64, 1, 128, "IPv6 prefix length",
            "IPv6 clients are counted per network of this prefix length, so one host cannot rotate through its own subnet. "
                    + "IPv4 clients are counted per address.");
    public static final Setting IGNORE_REPEATED_PASSWORDS = Setting.bool(GateOptions.IGNORE_REPEATED_PASSWORDS, false,
            "Account lockout: ignore repeated wrong passwords",
            "When on, a wrong password identical to one of the username's recent wrong passwords does not count again, so a "
                    + "person retyping the same typo is not locked out. Only short-lived keyed hashes are kept, never the password.");
    public static final Setting PROGRESSIVE_FACTOR = Setting.decimal(GateOptions.PROGRESSIVE_FACTOR, 1, 1, false, 100,
            "Account lockout: progressive factor",
            "Each consecutive lock of the same username lasts this many times the previous one. 1 keeps every lock at the "
                    + "lock duration. A successful login resets the progression.");
    public static final Setting MAX_LOCKOUT_SECONDS = Setting.integer(GateOptions.MAX_LOCKOUT_SECONDS, 86_400, 1, MAX_SECONDS,
            "Account lockout: longest lock (seconds)", "The cap on a progressive lock's duration.");
    public static final Setting DEVICE_COOKIE_ENABLED = Setting.bool(GateOptions.DEVICE_COOKIE_ENABLED, false, "Device cookies",
            "After a successful login the browser gets a signed, HttpOnly device cookie for that username. Its later attempts "
                    + "for the same username count against the device's own small lockout budget, so the owner's known browser "
                    + "still logs in while strangers have the account locked.");
    public static final Setting DEVICE_COOKIE_DAYS = Setting.integer(GateOptions.DEVICE_COOKIE_DAYS, 90, 1, 3650,
            "Device cookies: lifetime (days)", "How long a device cookie stays valid; each successful login renews it.");
    public static final Setting DEVICE_COOKIE_THRESHOLD = Setting.integer(GateOptions.DEVICE_COOKIE_THRESHOLD, 5, 1, 1000,
            "Device cookies: failures per device",
            "Wrong passwords one known device may make per lockout window before that device alone is locked.");
    public static final Setting ALLOWLIST = Setting.text(Allowlist.KEY, "Allowlist (CIDRs)",
            "IPv4 and IPv6 addresses or CIDRs, separated by commas, exempt from the per-address, per-address-and-account and "
                    + "credential-stuffing layers (office NAT, monitoring). Account lockout still applies. Example: "
                    + "203.0.113.0/24, 2001:db8:1::/48");

    private static final List<Setting> ALL = all();

    private GateSettings() {
    }

    /** Every gate key, in the order the admin console shows them. */
    public static List<Setting> all() {
        if (ALL != null) {
            return ALL;
        }
        List<Setting> list = new ArrayList<>();
        for (Layer layer : Layer.values()) {
            list.addAll(layer(layer).values());
        }
        list.addAll(List.of(CAPTCHA_ENABLED, CAPTCHA_FACTOR, IPV6_PREFIX, IGNORE_REPEATED_PASSWORDS, PROGRESSIVE_FACTOR,
                MAX_LOCKOUT_SECONDS, DEVICE_COOKIE_ENABLED, DEVICE_COOKIE_DAYS, DEVICE_COOKIE_THRESHOLD, ALLOWLIST));
        return Collections.unmodifiableList(list);
    }

    /** One field of a layer ({@link #ENABLED}, {@link #THRESHOLD}, ...); null for a field the layer lacks. */
    public static Setting of(Layer layer, String field) {
        return layer(layer).get(field);
    }

    /** The key of a layer's field, e.g. {@code perIp.threshold}. */
    public static String key(Layer layer, String field) {
        return layer.configPrefix() + "." + field;
    }

    private static synchronized Map<String, Setting> layer(Layer layer) {
        return LAYERS.computeIfAbsent(layer, GateSettings::describe);
    }

    private static Map<String, Setting> describe(Layer layer) {
        String title;
        String counts;
        int threshold;
        long window;
        switch (layer) {
            case PER_IP:
                title = "Per address";
                counts = "every attempt from one client address, success or failure, any account";
                threshold = 100;
                window = 300;
                break;
            case PER_IP_ACCOUNT:
                title = "Per address and account";
                counts = "every attempt for one client address and one submitted username";
                threshold = 10;
                window = 900;
                break;
            case ACCOUNT_LOCKOUT:
                title = "Account lockout";
                counts = "failed password checks for one username, from any address";
                threshold = 10;
                window = 900;
                break;
            case CREDENTIAL_STUFFING:
                title = "Credential stuffing";
                counts = "distinct usernames tried from one client address (retrying a username does not count)";
                threshold = 20;
                window = 600;
                break;
            default:
                throw new IllegalArgumentException(String.valueOf(layer));
        }
        Map<String, Setting> m = new LinkedHashMap<>();
        m.put(ENABLED, Setting.bool(key(layer, ENABLED), true, title + ": enabled", "Counts " + counts + "."));
        m.put(THRESHOLD, Setting.integer(key(layer, THRESHOLD), threshold, 1, Integer.MAX_VALUE, title + ": threshold",
                "How many are let through per window; the next one is blocked."));
        m.put(WINDOW_SECONDS, Setting.integer(key(layer, WINDOW_SECONDS), window, 1, MAX_SECONDS, title + ": window (seconds)",
                "Sliding window: every counted attempt extends it, so this many quiet seconds reset the counter."));
        if (layer == Layer.ACCOUNT_LOCKOUT) {
            m.put(LOCKOUT_SECONDS, Setting.integer(key(layer, LOCKOUT_SECONDS), 900, 1, MAX_SECONDS,
                    title + ": lock duration (seconds)",
                    "Once failures reach the threshold, the username is locked this long, then recovers by itself."));
        }
        m.put(FAILURE_MODE, Setting.choice(key(layer, FAILURE_MODE), FailureMode.FAIL_OPEN.name(),
                List.of(FailureMode.FAIL_OPEN.name(), FailureMode.FAIL_CLOSED.name()), title + ": when the counter store is down",
                "FAIL_OPEN lets the layer pass and records 'counter_store_unavailable'; FAIL_CLOSED blocks the attempt."));
        return Collections.unmodifiableMap(m);
    }
}
