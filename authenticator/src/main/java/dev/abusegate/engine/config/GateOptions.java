package dev.abusegate.engine.config;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything the gate can be tuned with, immutable and validated when built: one policy per layer and one
 * value per key of {@link GateSettings#options()}, whose descriptors hold the defaults and the bounds. Parsing,
 * checking, equality and printing all come from the descriptors: a new option is its descriptor and its docs/reference.md row,
 * and {@link #get(Setting)} reads it (a named accessor here is for readability only).
 *
 * @param policies each layer's policy
 * @param values   by key, the typed value of each of {@link GateSettings#options()}; a key left out has its default
 */
public record GateOptions(Map<Layer, LayerPolicy> policies, Map<String, Object> values) {

    /** What the gate does when {@code ipv6.networkPrefixLength} is not shorter than {@code ipv6.prefixLength}. */
    public static final String NETWORKS_NOT_COUNTED = "IPv6 networks are not counted (" + GateSettings.IPV6_NETWORK_THRESHOLD.key()
            + " taken as 0)";
    /** How many distinct recent wrong passwords per identifier are remembered (as keyed tags). */
    public static final int REMEMBERED_WRONG_PASSWORDS = 5;

    private static final GateOptions DEFAULTS = read(SettingReader.DEFAULTS);

    /** Checks every value against its descriptor; rejects a missing layer or an unknown key. */
    public GateOptions {
        Map<Layer, LayerPolicy> p = new EnumMap<>(Layer.class);
        for (Layer layer : Layer.values()) {
            LayerPolicy policy = policies.get(layer);
            if (policy == null || policy.layer() != layer) {
                throw new IllegalArgumentException("no policy for " + layer);
            }
            p.put(layer, policy);
        }
        values = SettingValues.checked(GateSettings.options(), values);
        String why = networkPrefixProblem(values);
        if (why != null) {
            throw new InvalidOptionException(GateSettings.IPV6_NETWORK_PREFIX.key(), why);
        }
        policies = Collections.unmodifiableMap(p);
    }

    /**
     * Why {@code ipv6.networkPrefixLength} cannot be used with {@code ipv6.prefixLength} (it must be shorter), or
     * null when it can or IPv6 networks are not counted.
     */
    private static String networkPrefixProblem(Map<String, Object> v) {
        int prefix = (Integer) v.get(GateSettings.IPV6_PREFIX.key());
        int network = (Integer) v.get(GateSettings.IPV6_NETWORK_PREFIX.key());
        if ((Integer) v.get(GateSettings.IPV6_NETWORK_THRESHOLD.key()) == 0 || network < prefix) {
            return null;
        }
        return "must be shorter than " + GateSettings.IPV6_PREFIX.key() + " (" + prefix + "), was " + network;
    }

    /** The production defaults. */
    public static GateOptions defaults() {
        return DEFAULTS;
    }

    /** The options a configuration sets (see {@link SettingReader}). */
    public static GateOptions read(SettingReader config) {
        Map<Layer, LayerPolicy> policies = new EnumMap<>(Layer.class);
        for (Layer layer : Layer.values()) {
            policies.put(layer, LayerPolicy.read(layer, config));
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Setting<?> s : GateSettings.options()) {
            values.put(s.key(), config.get(s));
        }
        String why = networkPrefixProblem(values);
        if (why != null) {
            config.report(GateSettings.IPV6_NETWORK_PREFIX.key(), why, NETWORKS_NOT_COUNTED);
            values.put(GateSettings.IPV6_NETWORK_THRESHOLD.key(), 0);
        }
        return new GateOptions(policies, values);
    }

    /** These options with the given layers switched off (a step that runs only some of the layers). */
    public GateOptions without(Layer... layers) {
        Map<Layer, LayerPolicy> p = new EnumMap<>(policies);
        for (Layer layer : layers) {
            p.put(layer, p.get(layer).withEnabled(false));
        }
        return new GateOptions(p, values);
    }

    /** The value of one of {@link GateSettings#options()}. */
    public <T> T get(Setting<T> s) {
        return s.in(values);
    }

    public LayerPolicy policy(Layer layer) {
        return policies.get(layer);
    }

    public boolean captchaEnabled() {
        return get(GateSettings.CAPTCHA_ENABLED);
    }

    public double captchaFactor() {
        return get(GateSettings.CAPTCHA_FACTOR);
    }

    public int ipv6PrefixLength() {
        return get(GateSettings.IPV6_PREFIX);
    }

    /** The prefix length of the IPv6 networks counted against {@link #ipv6NetworkThreshold()}. */
    public int ipv6NetworkPrefixLength() {
        return get(GateSettings.IPV6_NETWORK_PREFIX);
    }

    /** Layer 1's threshold per IPv6 network of {@link #ipv6NetworkPrefixLength()}; 0: networks are not counted. */
    public int ipv6NetworkThreshold() {
        return get(GateSettings.IPV6_NETWORK_THRESHOLD);
    }

    /** The prefix length IPv6 networks are counted at, or 0 when they are not counted. */
    public int ipv6NetworkPrefixCounted() {
        return ipv6NetworkThreshold() == 0 ? 0 : ipv6NetworkPrefixLength();
    }

    /** Address ranges exempt from layers 1, 2 and 4 (layer 3 still applies). */
    public Allowlist allowlist() {
        return get(GateSettings.ALLOWLIST);
    }

    /** Whether a verified device cookie moves layer 3 to that device's own budget. */
    public boolean deviceCookieEnabled() {
        return get(GateSettings.DEVICE_COOKIE_ENABLED);
    }

    public int deviceCookieDays() {
        return get(GateSettings.DEVICE_COOKIE_DAYS);
    }

    /** Failed passwords one device may make per lockout window before it is locked out itself. */
    public int deviceCookieThreshold() {
        return get(GateSettings.DEVICE_COOKIE_THRESHOLD);
    }

    /** Whether a wrong password identical to a recent wrong one for the identifier counts again. */
    public boolean ignoreRepeatedPasswords() {
        return get(GateSettings.IGNORE_REPEATED_PASSWORDS);
    }

    /** Each consecutive lock of an identifier lasts this many times the previous one (1: fixed). */
    public double progressiveFactor() {
        return get(GateSettings.PROGRESSIVE_FACTOR);
    }

    /** The cap on a progressive lock's duration. */
    public long maxLockoutSeconds() {
        return get(GateSettings.MAX_LOCKOUT_SECONDS);
    }

    /** Most refusal events the realm records per minute on a node; 0: every refusal is recorded. */
    public int refusalEventsPerMinute() {
        return get(GateSettings.REFUSAL_EVENTS_PER_MINUTE);
    }

    /** Most counter-store failure events the realm records per minute on a node; 0: every failure is recorded. */
    public int storeFailureEventsPerMinute() {
        return get(GateSettings.STORE_FAILURE_EVENTS_PER_MINUTE);
    }

    @Override
    public String toString() {
        return "GateOptions" + policies.values() + values;
    }
}
