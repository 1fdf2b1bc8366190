package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaSettings;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.FailureMode;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.GateSettings;
import dev.abusegate.engine.config.InvalidOptionException;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.config.Setting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.keycloak.common.util.MultivaluedHashMap;
import org.keycloak.component.ComponentModel;
import org.keycloak.models.AuthenticatorConfigModel;
import org.keycloak.models.RealmModel;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.services.ui.extend.UiTabProvider;

/**
 * Where a gated step's settings come from, and how they are parsed into {@link GateOptions}.
 * <p>
 * Two layers: the realm's configuration (Realm settings &gt; Abuse gate, a realm component, see
 * {@link AbuseGateRealmTabFactory}) and the step's own authenticator configuration. A key the step saved
 * (not empty, not {@value SettingProperties#INHERIT}) wins; every other key comes from the realm; a key
 * neither sets has its default. A value that cannot be used falls back to that key's default, with one
 * WARN naming the realm and the key (never the value).
 * <p>
 * Per attempt this costs one look at the realm's components (Keycloak's realm cache) and two map
 * lookups: the realm's parsed layer is cached by component id and config, the effective options by the
 * realm's layer version and the step's config.
 */
public final class GateConfig {

    private static final Logger LOG = Logger.getLogger(GateConfig.class);

    /** The component type the realm tab's configuration is stored under. */
    static final String REALM_COMPONENT_TYPE = UiTabProvider.class.getName();

    /** The effective settings of one step in one realm. */
    record Effective(GateOptions options, CaptchaConfig captcha) {
    }

    /** The realm tab's values, flattened, with a version unique to this component id and config. */
    private record RealmLayer(String componentId, MultivaluedHashMap<String, String> source, Map<String, String> values,
                              long version) {
    }

    private record Key(String realmName, long realmVersion, Map<String, String> step) {
    }

    private static final RealmLayer NO_REALM_LAYER = new RealmLayer(null, null, Map.of(), 0);
    private static final AtomicLong VERSIONS = new AtomicLong();
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final int MAX_CACHED = 1024;
    static final String MASK = "**********";

    private GateConfig() {
    }

    /** Appended to each gated step's help text. */
    static final String STEP_HELP = "Settings come from Realm settings > Abuse gate; a key saved in this step's configuration "
            + "overrides the realm's value for this step only, key by key.";

    /** The properties of a flow step's configuration: every key empty, so the realm's value applies. */
    public static List<ProviderConfigProperty> properties() {
        return SettingProperties.step();
    }

    /** The realm's layer overlaid with the keys the step set. */
    static Map<String, String> merge(Map<String, String> realm, Map<String, String> step) {
        Map<String, String> merged = new HashMap<>(realm);
        step.forEach((k, v) -> {
            if (isSet(v)) {
                merged.put(k, v);
            }
        });
        return merged;
    }

    private static boolean isSet(String v) {
        // Keycloak's mask of a stored secret is never a value of its own.
        return v != null && !v.isBlank() && !SettingProperties.INHERIT.equalsIgnoreCase(v.trim()) && !MASK.equals(v.trim());
    }

    /** The realm tab's component, if an admin saved one (the first by id, should there be several). */
    static ComponentModel realmComponent(RealmModel realm) {
        return realm.getComponentsStream(realm.getId(), REALM_COMPONENT_TYPE)
                .filter(c -> AbuseGateRealmTabFactory.ID.equals(c.getProviderId()))
                .min(Comparator.comparing(ComponentModel::getId))
                .orElse(null);
    }

    /**
     * The parsed settings of a server's realms and steps, owned by its {@link GateRuntime}: each realm's tab is
     * parsed once per change of its component, each step's effective settings once per change of either.
     */
    static final class Cache {
        private final Map<String, RealmLayer> realmLayers = new ConcurrentHashMap<>();
        private final Map<Key, Effective> effective = new ConcurrentHashMap<>();

        /** The settings for one attempt at a step ({@code step} null: nothing saved for the step). */
        Effective effective(RealmModel realm, AuthenticatorConfigModel step) {
            RealmLayer realmLayer = realmLayer(realm);
            Map<String, String> stepConfig = step == null || step.getConfig() == null ? Map.of() : step.getConfig();
            Key key = new Key(realm.getName(), realmLayer.version(), stepConfig);
            Effective cached = effective.get(key);
            if (cached != null) {
                return cached;
            }
            Map<String, String> merged = merge(realmLayer.values(), stepConfig);
            Effective parsed = new Effective(parse(merged, realm.getName()), CaptchaConfig.of(merged, realm.getName()));
            if (effective.size() >= MAX_CACHED) {
                effective.clear();
            }
            effective.put(new Key(realm.getName(), realmLayer.version(), Map.copyOf(stepConfig)), parsed);
            return parsed;
        }

        private RealmLayer realmLayer(RealmModel realm) {
            ComponentModel c = realmComponent(realm);
            if (c == null) {
                return NO_REALM_LAYER;
            }
            RealmLayer cached = realmLayers.get(realm.getId());
            MultivaluedHashMap<String, String> config = c.getConfig() == null ? new MultivaluedHashMap<>() : c.getConfig();
            if (cached != null && cached.componentId().equals(c.getId()) && cached.source().equals(config)) {
                return cached;
            }
            Map<String, String> values = new HashMap<>();
            config.forEach((k, v) -> {
                if (v != null && !v.isEmpty() && v.get(0) != null && !k.contains(AbuseGateRealmTabFactory.BEER)) {
                    values.put(k, v.get(0));
                }
            });
            // a key only under the console's form name (stored without the tab's normalisation)
            config.forEach((k, v) -> {
                if (v != null && !v.isEmpty() && v.get(0) != null && k.contains(AbuseGateRealmTabFactory.BEER)) {
                    values.putIfAbsent(k.replace(AbuseGateRealmTabFactory.BEER, "."), v.get(0));
                }
            });
            RealmLayer fresh = new RealmLayer(c.getId(), new MultivaluedHashMap<>(config), Map.copyOf(values), VERSIONS.incrementAndGet());
            if (realmLayers.size() >= MAX_CACHED) {
                realmLayers.clear();
            }
            realmLayers.put(realm.getId(), fresh);
            return fresh;
        }
    }

    /**
     * What is wrong with a configuration, one line per bad key (empty when every key is usable): the
     * realm tab refuses to save such a configuration. Unknown keys are ignored.
     */
    static List<String> problems(Map<String, String> config) {
        List<String> out = new ArrayList<>();
        for (Setting s : SettingProperties.settings()) {
            String v = raw(config, s);
            if (v == null) {
                continue;
            }
            String why = s.invalidReason(v);
            if (why == null && s == GateSettings.ALLOWLIST) {
                try {
                    Allowlist.parse(v);
                } catch (InvalidOptionException e) {
                    why = e.getMessage().substring(Allowlist.KEY.length() + 2);
                }
            }
            if (why == null && s == CaptchaSettings.VERIFY_URL && !CaptchaConfig.isHttpUrl(v)) {
                why = "expected an http(s) URL";
            }
            if (why != null) {
                out.add(s.key() + ": " + why);
            }
        }
        return out;
    }

    /** Parses a configuration; each unusable value falls back to its default and is reported once. */
    static GateOptions parse(Map<String, String> config, String realmName) {
        GateOptions.Builder b = GateOptions.builder();
        for (Layer layer : Layer.values()) {
            LayerPolicy d = GateOptions.defaultPolicy(layer);
            Setting lockout = GateSettings.of(layer, GateSettings.LOCKOUT_SECONDS);
            b.policy(new LayerPolicy(layer,
                    bool(config, GateSettings.of(layer, GateSettings.ENABLED), realmName),
                    (int) integer(config, GateSettings.of(layer, GateSettings.THRESHOLD), realmName),
                    integer(config, GateSettings.of(layer, GateSettings.WINDOW_SECONDS), realmName),
                    lockout == null ? d.lockoutSeconds() : integer(config, lockout, realmName),
                    FailureMode.valueOf(choice(config, GateSettings.of(layer, GateSettings.FAILURE_MODE), realmName))));
        }
        b.captchaEnabled(bool(config, GateSettings.CAPTCHA_ENABLED, realmName));
        b.captchaFactor(decimal(config, GateSettings.CAPTCHA_FACTOR, realmName));
        b.ipv6PrefixLength((int) integer(config, GateSettings.IPV6_PREFIX, realmName));
        b.allowlist(allowlist(config, realmName));
        b.deviceCookie(bool(config, GateSettings.DEVICE_COOKIE_ENABLED, realmName),
                (int) integer(config, GateSettings.DEVICE_COOKIE_THRESHOLD, realmName),
                (int) integer(config, GateSettings.DEVICE_COOKIE_DAYS, realmName));
        b.ignoreRepeatedPasswords(bool(config, GateSettings.IGNORE_REPEATED_PASSWORDS, realmName));
        b.progressiveLockout(decimal(config, GateSettings.PROGRESSIVE_FACTOR, realmName),
                integer(config, GateSettings.MAX_LOCKOUT_SECONDS, realmName));
        try {
            return b.build();
        } catch (InvalidOptionException e) {
            // Unreachable while the parser and the builder share the descriptors' bounds; kept as a net.
            warn(realmName, e.key(), e.getMessage());
            return GateOptions.defaults();
        }
    }

    /** The trimmed value of a key when set (not empty, not 'inherit'), else null. */
    static String raw(Map<String, String> config, Setting s) {
        String v = config.get(s.key());
        return isSet(v) ? v.trim() : null;
    }

    /** A usable value of the key, or null (missing, or invalid and reported). */
    private static String valid(Map<String, String> config, Setting s, String realm) {
        String v = raw(config, s);
        if (v == null) {
            return null;
        }
        String why = s.invalidReason(v);
        if (why != null) {
            warn(realm, s.key(), why);
            return null;
        }
        return v;
    }

    static boolean bool(Map<String, String> config, Setting s, String realm) {
        String v = valid(config, s, realm);
        return v == null ? s.defaultBoolean() : Boolean.parseBoolean(v);
    }

    static long integer(Map<String, String> config, Setting s, String realm) {
        String v = valid(config, s, realm);
        return v == null ? s.defaultLong() : Long.parseLong(v);
    }

    static double decimal(Map<String, String> config, Setting s, String realm) {
        String v = valid(config, s, realm);
        return v == null ? s.defaultDouble() : Double.parseDouble(v);
    }

    static String choice(Map<String, String> config, Setting s, String realm) {
        String v = valid(config, s, realm);
        return v == null ? s.defaultValue() : s.choice(v);
    }

    /** Each entry on its own: a bad one is reported (naming it) and left out, the good ones apply. */
    private static Allowlist allowlist(Map<String, String> config, String realm) {
        String v = raw(config, GateSettings.ALLOWLIST);
        if (v == null) {
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

    static void warn(String realm, String key, String why) {
        warn(realm, key, why, "using the default for that key");
    }

    static void warn(String realm, String key, String why, String consequence) {
        if (WARNED.size() < 10_000 && WARNED.add(realm + '\u0000' + key)) {
            LOG.warnf("Abuse gate: realm '%s' has an invalid value for '%s' (%s); %s", realm, key, why, consequence);
        }
    }

    /** For tests: forget which warnings were given. */
    static void forgetWarnings() {
        WARNED.clear();
    }
}
