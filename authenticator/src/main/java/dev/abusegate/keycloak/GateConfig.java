package dev.abusegate.keycloak;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.config.InvalidOptionException;
import dev.abusegate.engine.config.Setting;
import dev.abusegate.engine.config.SettingReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
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
 * {@code dev.abusegate.keycloak.admin.AbuseGateRealmTabFactory}) and the step's own authenticator configuration. A key the step saved
 * (not empty, not {@value SettingProperties#INHERIT}) wins; every other key comes from the realm; a key
 * neither sets has its default. A value that cannot be used falls back to that key's default, with a
 * WARN naming the realm and the key (never the value), through the runtime's rate limit of warnings.
 * <p>
 * Per attempt this costs one look at the realm's components (Keycloak's realm cache) and two map
 * lookups: the realm's parsed layer is cached by component id and config, the effective options by the
 * realm's layer version and the step's config.
 */
public final class GateConfig {

    /** The component type the realm tab's configuration is stored under. */
    public static final String REALM_COMPONENT_TYPE = UiTabProvider.class.getName();
    /** The realm tab's provider id, which its stored configuration carries; also the tab's title key in the admin console. */
    public static final String REALM_COMPONENT_ID = "abuse-gate";

    /** The effective settings of one step in one realm. */
    public record Effective(GateOptions options, CaptchaConfig captcha) {

        /** The captcha the step offers: harder ({@code realm.altchaFactor}) while the realm is under attack. */
        public CaptchaConfig captcha(boolean realmUnderAttack) {
            return realmUnderAttack ? captcha.harder(options.get(RealmSettings.ALTCHA_FACTOR)) : captcha;
        }
    }

    /** The realm tab's values, flattened, with a version unique to this component id and config. */
    private record RealmLayer(String componentId, MultivaluedHashMap<String, String> source, Map<String, String> values,
                              long version) {
    }

    private record Key(String realmName, long realmVersion, Map<String, String> step) {
    }

    private static final RealmLayer NO_REALM_LAYER = new RealmLayer(null, null, Map.of(), 0);
    private static final int MAX_CACHED = 1024;
    /** Keycloak shows a stored secret back as this mask; it is never a value of its own. */
    public static final String MASK = "**********";

    private GateConfig() {
    }

    /** Appended to each gated step's help text. */
    public static final String STEP_HELP = "Settings come from Realm settings > Abuse gate; a key saved in this step's configuration "
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
                .filter(c -> REALM_COMPONENT_ID.equals(c.getProviderId()))
                .min(Comparator.comparing(ComponentModel::getId))
                .orElse(null);
    }

    /**
     * The parsed settings of a server's realms and steps, owned by the server's runtime: each realm's tab is
     * parsed once per change of its component, each step's effective settings once per change of either.
     * Unusable values are reported to the warner as {@code (topic, message)}, one topic per realm and key.
     */
    public static final class Cache {
        private final Map<String, RealmLayer> realmLayers = new ConcurrentHashMap<>();
        private final Map<Key, Effective> effective = new ConcurrentHashMap<>();
        private final AtomicLong versions = new AtomicLong();
        private final BiConsumer<String, String> warner;

        /** {@code warner}: {@code (topic, message)}, e.g. the runtime's {@code warnEvery}, which limits the rate per topic. */
        public Cache(BiConsumer<String, String> warner) {
            this.warner = warner;
        }

        /** The settings of an effective configuration (the realm's overlaid with the step's, see {@link #merge}). */
        Effective parse(Map<String, String> merged, String realmName) {
            SettingReader reader = new SettingReader(setKeys(merged), (key, why, consequence) -> warner.accept(
                    "config:" + realmName + '\u0000' + key,
                    String.format("Abuse gate: realm '%s' has an invalid value for '%s' (%s); %s", realmName, key, why, consequence)));
            GateOptions options;
            try {
                options = GateOptions.read(reader);
            } catch (InvalidOptionException e) {
                // Unreachable while the reader and the options share the descriptors' bounds; kept as a net.
                reader.report(e.key(), e.reason(), SettingReader.USING_DEFAULT);
                options = GateOptions.defaults();
            }
            return new Effective(options, CaptchaConfig.of(reader));
        }

        /** The settings for one attempt at a step ({@code step} null: nothing saved for the step). */
        public Effective effective(RealmModel realm, AuthenticatorConfigModel step) {
            RealmLayer realmLayer = realmLayer(realm);
            Map<String, String> stepConfig = step == null || step.getConfig() == null ? Map.of() : step.getConfig();
            Key key = new Key(realm.getName(), realmLayer.version(), stepConfig);
            Effective cached = effective.get(key);
            if (cached != null) {
                return cached;
            }
            Effective parsed = parse(merge(realmLayer.values(), stepConfig), realm.getName());
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
                if (v != null && !v.isEmpty() && v.get(0) != null && !k.contains(SettingProperties.BEER)) {
                    values.put(k, v.get(0));
                }
            });
            // a key only under the console's form name (stored without the tab's normalisation)
            config.forEach((k, v) -> {
                if (v != null && !v.isEmpty() && v.get(0) != null && k.contains(SettingProperties.BEER)) {
                    values.putIfAbsent(k.replace(SettingProperties.BEER, "."), v.get(0));
                }
            });
            RealmLayer fresh = new RealmLayer(c.getId(), new MultivaluedHashMap<>(config), Map.copyOf(values), versions.incrementAndGet());
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
    public static List<String> problems(Map<String, String> config) {
        List<String> out = new ArrayList<>();
        for (Setting<?> s : SettingProperties.settings()) {
            String v = config.get(s.key());
            String why = isSet(v) ? s.invalidReason(v) : null;
            if (why != null) {
                out.add(s.key() + ": " + why);
            }
        }
        if (out.isEmpty()) {
            // each key is usable: what a combination of keys gets wrong (ipv6.networkPrefixLength against ipv6.prefixLength)
            GateOptions.read(new SettingReader(setKeys(config), (key, why, consequence) -> out.add(key + ": " + why)));
        }
        return out;
    }

    /** The keys a configuration sets (not empty, not 'inherit', not the mask), trimmed. */
    private static Map<String, String> setKeys(Map<String, String> config) {
        Map<String, String> out = new HashMap<>();
        config.forEach((k, v) -> {
            if (isSet(v)) {
                out.put(k, v.trim());
            }
        });
        return out;
    }
}
