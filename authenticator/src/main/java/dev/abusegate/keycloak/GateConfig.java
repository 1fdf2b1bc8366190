package dev.abusegate.keycloak;

import dev.abusegate.engine.Allowlist;
import dev.abusegate.engine.FailureMode;
import dev.abusegate.engine.GateOptions;
import dev.abusegate.engine.InvalidOptionException;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.LayerPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.keycloak.models.AuthenticatorConfigModel;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.provider.ProviderConfigurationBuilder;

/**
 * The per-realm configuration of the gate, as saved in an authenticator config: keys, admin-console
 * properties and parsing into {@link GateOptions}. An absent config means the production defaults. A
 * value that cannot be used falls back to that key's default, with one WARN naming the realm and the key.
 */
public final class GateConfig {

    private static final Logger LOG = Logger.getLogger(GateConfig.class);

    public static final String ENABLED = "enabled";
    public static final String THRESHOLD = "threshold";
    public static final String WINDOW_SECONDS = "windowSeconds";
    public static final String LOCKOUT_SECONDS = "lockoutSeconds";
    public static final String FAILURE_MODE = "failureMode";

    private static final List<ProviderConfigProperty> PROPERTIES = buildProperties();
    private record Parsed(String realm, Map<String, String> config) {
    }

    private static final Map<Parsed, GateOptions> PARSED = new ConcurrentHashMap<>();
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final int MAX_CACHED = 1024;

    private GateConfig() {
    }

    public static String key(Layer layer, String field) {
        return layer.configPrefix() + "." + field;
    }

    /** The properties shown in the admin console, in a stable order. */
    public static List<ProviderConfigProperty> properties() {
        return PROPERTIES;
    }

    /** Options for an execution's config (null: nothing saved yet, the defaults apply). */
    public static GateOptions options(AuthenticatorConfigModel model, String realmName) {
        Map<String, String> config = model == null || model.getConfig() == null ? Collections.emptyMap() : model.getConfig();
        if (config.isEmpty()) {
            return GateOptions.defaults();
        }
        GateOptions cached = PARSED.get(new Parsed(realmName, config));
        if (cached != null) {
            return cached;
        }
        GateOptions parsed = parse(config, realmName);
        if (PARSED.size() >= MAX_CACHED) {
            PARSED.clear();
        }
        PARSED.put(new Parsed(realmName, Map.copyOf(config)), parsed);
        return parsed;
    }

    /** Parses a saved config; each unusable value falls back to its default and is reported once. */
    static GateOptions parse(Map<String, String> config, String realmName) {
        GateOptions.Builder b = GateOptions.builder();
        for (Layer layer : Layer.values()) {
            LayerPolicy d = GateOptions.defaultPolicy(layer);
            boolean enabled = bool(config, key(layer, ENABLED), d.enabled(), realmName);
            int threshold = (int) number(config, key(layer, THRESHOLD), d.threshold(), 1, Integer.MAX_VALUE, realmName);
            long window = number(config, key(layer, WINDOW_SECONDS), d.windowSeconds(), 1, 31_536_000, realmName);
            long lockout = layer == Layer.ACCOUNT_LOCKOUT
                    ? number(config, key(layer, LOCKOUT_SECONDS), d.lockoutSeconds(), 1, 31_536_000, realmName)
                    : d.lockoutSeconds();
            FailureMode mode = failureMode(config, key(layer, FAILURE_MODE), d.failureMode(), realmName);
            b.policy(new LayerPolicy(layer, enabled, threshold, window, lockout, mode));
        }
        b.captchaEnabled(bool(config, GateOptions.CAPTCHA_ENABLED, true, realmName));
        b.captchaFactor(factor(config, realmName));
        b.ipv6PrefixLength((int) number(config, GateOptions.IPV6_PREFIX, GateOptions.DEFAULT_IPV6_PREFIX, 1, 128, realmName));
        b.allowlist(allowlist(config, realmName));
        b.deviceCookie(bool(config, GateOptions.DEVICE_COOKIE_ENABLED, false, realmName),
                (int) number(config, GateOptions.DEVICE_COOKIE_THRESHOLD, GateOptions.DEFAULT_DEVICE_COOKIE_THRESHOLD, 1, 1000, realmName),
                (int) number(config, GateOptions.DEVICE_COOKIE_DAYS, GateOptions.DEFAULT_DEVICE_COOKIE_DAYS, 1, 3650, realmName));
        b.ignoreRepeatedPasswords(bool(config, GateOptions.IGNORE_REPEATED_PASSWORDS, false, realmName));
        b.progressiveLockout(decimal(config, GateOptions.PROGRESSIVE_FACTOR, GateOptions.DEFAULT_PROGRESSIVE_FACTOR, 1, 100, realmName),
                number(config, GateOptions.MAX_LOCKOUT_SECONDS, GateOptions.DEFAULT_MAX_LOCKOUT_SECONDS, 1, 31_536_000, realmName));
        try {
            return b.build();
        } catch (InvalidOptionException e) {
            warn(realmName, e.key(), e.getMessage());
            return GateOptions.defaults();
        }
    }

    private static String raw(Map<String, String> config, String key) {
        String v = config.get(key);
        return v == null ? null : v.trim();
    }

    private static boolean bool(Map<String, String> config, String key, boolean def, String realm) {
        String v = raw(config, key);
        if (v == null || v.isEmpty()) {
            return def;
        }
        if ("true".equalsIgnoreCase(v) || "false".equalsIgnoreCase(v)) {
            return Boolean.parseBoolean(v);
        }
        warn(realm, key, "expected true or false");
        return def;
    }

    static long number(Map<String, String> config, String key, long def, long min, long max, String realm) {
        String v = raw(config, key);
        if (v == null || v.isEmpty()) {
            return def;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        warn(realm, key, "expected a whole number from " + min + " to " + max);
        return def;
    }

    private static double factor(Map<String, String> config, String realm) {
        String v = raw(config, GateOptions.CAPTCHA_FACTOR);
        if (v == null || v.isEmpty()) {
            return GateOptions.DEFAULT_CAPTCHA_FACTOR;
        }
        try {
            double f = Double.parseDouble(v);
            if (f > 0 && f <= 1) {
                return f;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        warn(realm, GateOptions.CAPTCHA_FACTOR, "expected a number greater than 0 and at most 1");
        return GateOptions.DEFAULT_CAPTCHA_FACTOR;
    }

    static double decimal(Map<String, String> config, String key, double def, double min, double max, String realm) {
        String v = raw(config, key);
        if (v == null || v.isEmpty()) {
            return def;
        }
        try {
            double d = Double.parseDouble(v);
            if (d >= min && d <= max) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        warn(realm, key, "expected a number from " + min + " to " + max);
        return def;
    }

    /** Each entry on its own: a bad one is reported (naming it) and left out, the good ones apply. */
    private static Allowlist allowlist(Map<String, String> config, String realm) {
        String v = raw(config, Allowlist.KEY);
        if (v == null || v.isEmpty()) {
            return Allowlist.EMPTY;
        }
        StringBuilder good = new StringBuilder();
        for (String entry : v.split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            try {
                Allowlist.parse(entry);
                good.append(entry).append(',');
            } catch (InvalidOptionException e) {
                warn(realm, Allowlist.KEY, e.getMessage().substring(Allowlist.KEY.length() + 2),
                        "that entry is ignored, the valid ones apply");
            }
        }
        return Allowlist.parse(good.toString());
    }

    private static FailureMode failureMode(Map<String, String> config, String key, FailureMode def, String realm) {
        String v = raw(config, key);
        if (v == null || v.isEmpty()) {
            return def;
        }
        try {
            return FailureMode.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            warn(realm, key, "expected FAIL_OPEN or FAIL_CLOSED");
            return def;
        }
    }

    static void warn(String realm, String key, String why) {
        warn(realm, key, why, "using the default for that key");
    }

    static void warn(String realm, String key, String why, String consequence) {
        if (WARNED.size() < 10_000 && WARNED.add(realm + '\u0000' + key)) {
            LOG.warnf("Abuse gate: realm '%s' has an invalid value for '%s' (%s); %s", realm, key, why, consequence);
        }
    }

    private static List<ProviderConfigProperty> buildProperties() {
        ProviderConfigurationBuilder b = ProviderConfigurationBuilder.create();
        layer(b, Layer.PER_IP, "Per address",
                "every attempt from one client address, success or failure, any account");
        layer(b, Layer.PER_IP_ACCOUNT, "Per address and account",
                "every attempt for one client address and one submitted username");
        layer(b, Layer.ACCOUNT_LOCKOUT, "Account lockout",
                "failed password checks for one username, from any address");
        layer(b, Layer.CREDENTIAL_STUFFING, "Credential stuffing",
                "distinct usernames tried from one client address (retrying a username does not count)");
        b.property().name(GateOptions.CAPTCHA_ENABLED).label("Captcha band")
                .helpText("When on, an attempt whose counters have reached the captcha factor of a threshold must solve a captcha. "
                        + "Past the threshold the answer is 'blocked', captcha or not.")
                .type(ProviderConfigProperty.BOOLEAN_TYPE).defaultValue("true").add();
        b.property().name(GateOptions.CAPTCHA_FACTOR).label("Captcha factor")
                .helpText("Fraction of a threshold (greater than 0, at most 1) from which a captcha is required. Default 0.5.")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(GateOptions.DEFAULT_CAPTCHA_FACTOR)).add();
        b.property().name(GateOptions.IPV6_PREFIX).label("IPv6 prefix length")
                .helpText("IPv6 clients are counted per network of this prefix length (1 to 128), so one host cannot rotate through "
                        + "its own subnet. Default 64.")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(GateOptions.DEFAULT_IPV6_PREFIX)).add();
        b.property().name(GateOptions.IGNORE_REPEATED_PASSWORDS).label("Account lockout: ignore repeated wrong passwords")
                .helpText("When on, a wrong password identical to one of the username's recent wrong passwords does not count "
                        + "again, so a person retyping the same typo is not locked out. Only short-lived keyed hashes are kept, "
                        + "never the password.")
                .type(ProviderConfigProperty.BOOLEAN_TYPE).defaultValue("false").add();
        b.property().name(GateOptions.PROGRESSIVE_FACTOR).label("Account lockout: progressive factor")
                .helpText("Each consecutive lock of the same username lasts this many times the previous one (1 to 100). "
                        + "1 keeps every lock at the lock duration. A successful login resets the progression. Default 1.")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue("1").add();
        b.property().name(GateOptions.MAX_LOCKOUT_SECONDS).label("Account lockout: longest lock (seconds)")
                .helpText("The cap on a progressive lock's duration. Default " + GateOptions.DEFAULT_MAX_LOCKOUT_SECONDS + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(GateOptions.DEFAULT_MAX_LOCKOUT_SECONDS)).add();
        b.property().name(GateOptions.DEVICE_COOKIE_ENABLED).label("Device cookies")
                .helpText("After a successful login the browser gets a signed, HttpOnly device cookie for that username. Its later "
                        + "attempts for the same username count against the device's own small lockout budget, so the owner's known "
                        + "browser still logs in while strangers have the account locked.")
                .type(ProviderConfigProperty.BOOLEAN_TYPE).defaultValue("false").add();
        b.property().name(GateOptions.DEVICE_COOKIE_DAYS).label("Device cookies: lifetime (days)")
                .helpText("How long a device cookie stays valid (1 to 3650); each successful login renews it. Default "
                        + GateOptions.DEFAULT_DEVICE_COOKIE_DAYS + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(GateOptions.DEFAULT_DEVICE_COOKIE_DAYS)).add();
        b.property().name(GateOptions.DEVICE_COOKIE_THRESHOLD).label("Device cookies: failures per device")
                .helpText("Wrong passwords one known device may make per lockout window before that device alone is locked. Default "
                        + GateOptions.DEFAULT_DEVICE_COOKIE_THRESHOLD + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(GateOptions.DEFAULT_DEVICE_COOKIE_THRESHOLD)).add();
        b.property().name(Allowlist.KEY).label("Allowlist (CIDRs)")
                .helpText("IPv4 and IPv6 addresses or CIDRs, separated by commas, exempt from the per-address, per-address-and-account "
                        + "and credential-stuffing layers (office NAT, monitoring). Account lockout still applies. Example: "
                        + "203.0.113.0/24, 2001:db8:1::/48")
                .type(ProviderConfigProperty.STRING_TYPE).add();
        List<ProviderConfigProperty> list = new ArrayList<>(b.build());
        list.addAll(CaptchaConfig.properties());
        return Collections.unmodifiableList(list);
    }

    private static void layer(ProviderConfigurationBuilder b, Layer layer, String title, String counts) {
        LayerPolicy d = GateOptions.defaultPolicy(layer);
        b.property().name(key(layer, ENABLED)).label(title + ": enabled")
                .helpText("Counts " + counts + ".")
                .type(ProviderConfigProperty.BOOLEAN_TYPE).defaultValue(String.valueOf(d.enabled())).add();
        b.property().name(key(layer, THRESHOLD)).label(title + ": threshold")
                .helpText("How many are let through per window; the next one is blocked. Whole number, at least 1. Default "
                        + d.threshold() + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(d.threshold())).add();
        b.property().name(key(layer, WINDOW_SECONDS)).label(title + ": window (seconds)")
                .helpText("Sliding window: every counted attempt extends it, so this many quiet seconds reset the counter. Default "
                        + d.windowSeconds() + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(d.windowSeconds())).add();
        if (layer == Layer.ACCOUNT_LOCKOUT) {
            b.property().name(key(layer, LOCKOUT_SECONDS)).label(title + ": lock duration (seconds)")
                    .helpText("Once failures reach the threshold, the username is locked this long, then recovers by itself. Default "
                            + d.lockoutSeconds() + ".")
                    .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(d.lockoutSeconds())).add();
        }
        b.property().name(key(layer, FAILURE_MODE)).label(title + ": when the counter store is down")
                .helpText("FAIL_OPEN lets the layer pass and records 'counter_store_unavailable'; FAIL_CLOSED blocks the attempt.")
                .type(ProviderConfigProperty.LIST_TYPE).options(FailureMode.FAIL_OPEN.name(), FailureMode.FAIL_CLOSED.name())
                .defaultValue(d.failureMode().name()).add();
    }
}
