package dev.abusegate.engine.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate's configuration keys, each described once ({@link Setting}): key, default, bounds, help text and
 * parser live here and nowhere else. {@link GateOptions} holds one value per key of {@link #options()} and
 * {@link LayerPolicy} one per field of {@link #layer(Layer)}; both check against these bounds.
 * <p>
 * A new option is its descriptor below (declared with {@code option(..)}, which places it in the admin
 * console's order) and its row in docs/reference.md; {@link GateOptions#get(Setting)} reads it.
 */
public final class GateSettings {

    /** Windows, lock durations and the longest progressive lock: at most one year. */
    public static final long MAX_SECONDS = 31_536_000;

    public static final String ENABLED = "enabled";
    public static final String THRESHOLD = "threshold";
    public static final String WINDOW_SECONDS = "windowSeconds";
    public static final String LOCKOUT_SECONDS = "lockoutSeconds";
    public static final String FAILURE_MODE = "failureMode";

    /** One layer's keys; {@code lockoutSeconds} is null for a layer without a lock. */
    public record LayerKeys(Setting<Boolean> enabled, Setting<Integer> threshold, Setting<Long> windowSeconds,
                            Setting<Long> lockoutSeconds, Setting<FailureMode> failureMode) {

        /** By field name ({@link #ENABLED}, ...), in the admin console's order, without the absent ones. */
        Map<String, Setting<?>> byField() {
            Map<String, Setting<?>> m = new LinkedHashMap<>();
            m.put(ENABLED, enabled);
            m.put(THRESHOLD, threshold);
            m.put(WINDOW_SECONDS, windowSeconds);
            if (lockoutSeconds != null) {
                m.put(LOCKOUT_SECONDS, lockoutSeconds);
            }
            m.put(FAILURE_MODE, failureMode);
            return Collections.unmodifiableMap(m);
        }
    }

    private static final Map<Layer, LayerKeys> LAYERS = new EnumMap<>(Layer.class);
    private static final Map<Layer, Map<String, Setting<?>>> LAYER_FIELDS = new EnumMap<>(Layer.class);
    private static final List<Setting<?>> OPTIONS = new ArrayList<>();

    static {
        for (Layer layer : Layer.values()) {
            LayerKeys keys = describe(layer);
            LAYERS.put(layer, keys);
            LAYER_FIELDS.put(layer, keys.byField());
        }
    }

    public static final Setting<Boolean> CAPTCHA_ENABLED = option(Setting.bool("captcha.enabled", true, "Captcha band",
            "When on, an attempt whose counters have reached the captcha factor of a threshold must solve a captcha. "
                    + "Past the threshold the answer is 'blocked', captcha or not. When off, a captcha is asked for only "
                    + "where the counter store is at its bound and a subject counted on a shared counter passes a threshold "
                    + "(blocked there only by a shared account-lockout count past its threshold)."));
    public static final Setting<Double> CAPTCHA_FACTOR = option(Setting.decimal("captcha.factor", 0.5, new Range(0, 1, true),
            Setting.about("Captcha factor", "Fraction of a threshold from which a captcha is required.")));
    public static final Setting<Integer> IPV6_PREFIX = option(Setting.integer("ipv6.prefixLength", 64, 1, 128,
            Setting.about("IPv6 prefix length",
            "IPv6 clients are counted per network of this prefix length, so one host cannot rotate through its own subnet. "
                    + "IPv4 clients are counted per address.")));
    public static final Setting<Integer> IPV6_NETWORK_PREFIX = option(Setting.integer("ipv6.networkPrefixLength", 48, 16, 127,
            Setting.about("IPv6 network prefix length",
            "IPv6 clients are also counted per network of this prefix length, against the per-address layer's IPv6 network "
                    + "threshold, so one host with a /48 cannot spread its attempts over 65,536 networks of the IPv6 prefix "
                    + "length. Must be shorter than the IPv6 prefix length.")));
    public static final Setting<Integer> IPV6_NETWORK_THRESHOLD = option(Setting.integer("perIp.ipv6NetworkThreshold", 1000, 0,
            Integer.MAX_VALUE, Setting.about("Per address: threshold per IPv6 network",
            "Attempts let through per window from one IPv6 network of the IPv6 network prefix length, whichever of its "
                    + "addresses they come from; the next one is blocked, and the captcha band starts at the captcha factor of "
                    + "it. It follows the per-address layer: its window, failure mode, on/off switch and allowlist. 0: IPv6 "
                    + "networks are not counted.")));
    public static final Setting<Boolean> IGNORE_REPEATED_PASSWORDS = option(Setting.bool("accountLockout.ignoreRepeatedPasswords",
            false, "Account lockout: ignore repeated wrong passwords",
            "When on, a wrong password identical to one of the username's recent wrong passwords does not count again, so a "
                    + "person retyping the same typo is not locked out. Only short-lived keyed hashes are kept, never the password."));
    public static final Setting<Double> PROGRESSIVE_FACTOR = option(Setting.decimal("accountLockout.progressiveFactor", 1, new Range(1, 100, false), Setting.about("Account lockout: progressive factor",
            "Each consecutive lock of the same username lasts this many times the previous one. 1 keeps every lock at the "
                    + "lock duration. A successful login resets the progression.")));
    public static final Setting<Long> MAX_LOCKOUT_SECONDS = option(Setting.longInteger("accountLockout.maxLockoutSeconds", 86_400, 1,
            MAX_SECONDS, Setting.about("Account lockout: longest lock (seconds)", "The cap on a progressive lock's duration.")));
    public static final Setting<Boolean> DEVICE_COOKIE_ENABLED = option(Setting.bool("deviceCookie.enabled", false, "Device cookies",
            "After a successful login the browser gets a signed, HttpOnly device cookie for that username. Its later attempts "
                    + "for the same username count against the device's own small lockout budget, so the owner's known browser "
                    + "still logs in while strangers have the account locked."));
    public static final Setting<Integer> DEVICE_COOKIE_DAYS = option(Setting.integer("deviceCookie.days", 90, 1, 3650,
            Setting.about("Device cookies: lifetime (days)", "How long a device cookie stays valid; each successful login renews it.")));
    public static final Setting<Integer> DEVICE_COOKIE_THRESHOLD = option(Setting.integer("deviceCookie.threshold", 5, 1, 1000,
            Setting.about("Device cookies: failures per device",
            "Wrong passwords one known device may make per lockout window before that device alone is locked.")));
    public static final Setting<Allowlist> ALLOWLIST = option(Setting.entries(Allowlist.KEY, Allowlist::invalidReason,
            Allowlist::parse, "Allowlist (CIDRs)",
            "IPv4 and IPv6 addresses or CIDRs, separated by commas, exempt from the per-address, per-address-and-account and "
                    + "credential-stuffing layers (office NAT, monitoring). Account lockout still applies. Example: "
                    + "203.0.113.0/24, 2001:db8:1::/48"));
    public static final Setting<Integer> REFUSAL_EVENTS_PER_MINUTE = option(Setting.integer("events.refusalsPerMinute", 60, 0,
            1_000_000, Setting.about("Refusal events per minute",
            "Most 'abuse_gate_blocked' and 'abuse_gate_captcha_required' login events the realm records per minute on each "
                    + "node, so that a flood of refused attempts does not write one event per request. Refusals past it are "
                    + "not recorded as events; the next one recorded carries 'abuse_gate_refusals_not_recorded', how many "
                    + "were left out since the last. The metrics count every refusal. 0: every refusal is recorded.")));
    public static final Setting<Integer> STORE_FAILURE_EVENTS_PER_MINUTE = option(Setting.integer("events.storeFailuresPerMinute",
            60, 0, 1_000_000, Setting.about("Store failure events per minute",
            "Most 'counter_store_unavailable' login events the realm records per minute on each node, so that while the "
                    + "counter store is down not every login adds one (a login whose check and whose settlement after the "
                    + "password both fail records two). Past it no such event is recorded; the next one carries "
                    + "'abuse_gate_store_failures_not_recorded', how many such events were left out since the last. The metric "
                    + "abuse_gate_store_failures_total still counts every failed call, per layer. 0: every one is recorded.")));

    public static final Setting<Boolean> EDGE_ENABLED = option(Setting.bool("edge.enabled", true, "Edge refusal",
            "When on, a password grant from an address the per-address or credential stuffing layer has blocked, or one the captcha band keeps "
                    + "answering while it sends no solution, is answered before Keycloak creates an authentication session and "
                    + "runs the flow: the same 429 answer, counted the same way, at a fraction of the cost. Only addresses this "
                    + "node saw blocked or in the band are checked early; every other request, and every captcha solution, goes "
                    + "through the flow as before. Needs the per-address layer on. Off: every request goes through the flow."));

    static {
        // the fifth, realm-wide layer's keys (described in dev.abusegate.engine.config.RealmSettings)
        dev.abusegate.engine.config.RealmSettings.all().forEach(GateSettings::option);
    }

    private static final List<Setting<?>> ALL = all(OPTIONS);
    private static final List<Setting<?>> OPTIONS_VIEW = Collections.unmodifiableList(OPTIONS);

    private GateSettings() {
    }

    private static <T> Setting<T> option(Setting<T> s) {
        OPTIONS.add(s);
        return s;
    }

    private static List<Setting<?>> all(List<Setting<?>> options) {
        List<Setting<?>> list = new ArrayList<>();
        for (Layer layer : Layer.values()) {
            list.addAll(LAYER_FIELDS.get(layer).values());
        }
        list.addAll(options);
        return Collections.unmodifiableList(list);
    }

    /** Every gate key, in the order the admin console shows them: the layers', then {@link #options()}. */
    public static List<Setting<?>> all() {
        return ALL;
    }

    /** The keys that are not a layer's, one value each in {@link GateOptions}, in declaration order. */
    public static List<Setting<?>> options() {
        return OPTIONS_VIEW;
    }

    /** One layer's keys. */
    public static LayerKeys layer(Layer layer) {
        return LAYERS.get(layer);
    }

    /** One field of a layer ({@link #ENABLED}, {@link #THRESHOLD}, ...); null for a field the layer lacks. */
    public static Setting<?> of(Layer layer, String field) {
        return LAYER_FIELDS.get(layer).get(field);
    }

    /** The key of a layer's field, e.g. {@code perIp.threshold}. */
    public static String key(Layer layer, String field) {
        return layer.configPrefix() + "." + field;
    }

    private static LayerKeys describe(Layer layer) {
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
            case PASSWORD_SPRAY:
                return sprayKeys();
            default:
                throw new IllegalArgumentException(String.valueOf(layer));
        }
        return new LayerKeys(
                Setting.bool(key(layer, ENABLED), true, title + ": enabled", "Counts " + counts + "."),
                Setting.integer(key(layer, THRESHOLD), threshold, 1, Integer.MAX_VALUE, Setting.about(title + ": threshold",
                        "How many are let through per window; the next one is blocked.")),
                Setting.longInteger(key(layer, WINDOW_SECONDS), window, 1, MAX_SECONDS, Setting.about(title + ": window (seconds)",
                        "Sliding window: every counted attempt extends it, so this many quiet seconds reset the counter.")),
                layer != Layer.ACCOUNT_LOCKOUT ? null : Setting.longInteger(key(layer, LOCKOUT_SECONDS), 900, 1, MAX_SECONDS,
                        Setting.about(title + ": lock duration (seconds)",
                        "Once failures reach the threshold, the username is locked this long, then recovers by itself.")),
                failureMode(layer, title, "blocks the attempt"));
    }

    /** The password-spray layer's keys: it asks for a captcha past its threshold and never blocks. */
    private static LayerKeys sprayKeys() {
        Layer layer = Layer.PASSWORD_SPRAY;
        String title = "Password spraying";
        return new LayerKeys(
                Setting.bool(key(layer, ENABLED), true, title + ": enabled",
                        "Counts, per realm, the distinct usernames (known or not) each password failed for, as a 20-bit keyed "
                                + "bucket of the password: never the password or a full hash of it."),
                Setting.integer(key(layer, THRESHOLD), 10, 1, Integer.MAX_VALUE, Setting.about(title + ": threshold",
                        "Distinct usernames a password's bucket may fail for per window; from then on every attempt whose "
                                + "password falls in that bucket must solve a captcha first. Never blocks.")),
                Setting.longInteger(key(layer, WINDOW_SECONDS), 3600, 1, MAX_SECONDS, Setting.about(title + ": window (seconds)",
                        "Sliding window: every failure counted in a bucket extends it, so this many quiet seconds reset the bucket.")),
                null,
                failureMode(layer, title, "asks for a captcha (this layer never blocks)"));
    }

    private static Setting<FailureMode> failureMode(Layer layer, String title, String closed) {
        return Setting.choice(key(layer, FAILURE_MODE), FailureMode.FAIL_OPEN.name(),
                List.of(FailureMode.FAIL_OPEN.name(), FailureMode.FAIL_CLOSED.name()), FailureMode::valueOf,
                Setting.about(title + ": when the counter store is down",
                "FAIL_OPEN lets the layer pass and records 'counter_store_unavailable'; FAIL_CLOSED " + closed + "."));
    }
}
