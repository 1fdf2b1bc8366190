package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaSettings;
import dev.abusegate.engine.config.GateSettings;
import dev.abusegate.engine.config.Setting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.keycloak.provider.ProviderConfigProperty;

/**
 * The admin console's properties, made from the keys' descriptors ({@link GateSettings},
 * {@link CaptchaSettings}) in two shapes: the realm's "Abuse gate" tab (typed, with the defaults filled
 * in) and a flow step's configuration, where every key starts empty and an empty key (or
 * {@value #INHERIT}) takes the realm's value, so a step overrides the realm key by key.
 */
public final class SettingProperties {

    /** The value of a step's choice that takes the realm's value. */
    static final String INHERIT = "inherit";
    /** What the admin console puts in place of a dot in a form field's name. */
    public static final String BEER = "\uD83C\uDF7A";

    private static final List<Setting<?>> ALL = all();
    private static final List<ProviderConfigProperty> REALM = build(false);
    private static final List<ProviderConfigProperty> STEP = build(true);
    private static final List<ProviderConfigProperty> REALM_KEYS = ALL.stream().map(SettingProperties::realmProperty).toList();

    private SettingProperties() {
    }

    /** Every key, gate keys first, then the captcha provider's. */
    public static List<Setting<?>> settings() {
        return ALL;
    }

    /** The realm tab's form; its property names are the console's form names of the keys. */
    public static List<ProviderConfigProperty> realm() {
        return REALM;
    }

    /**
     * The realm tab's keys under their documented names, typed as on the tab (secrets are secret): declared as the
     * tab's common properties, which the console does not render, so that Keycloak keeps them on an update and
     * shows them back (see the realm tab's {@code getCommonProviderConfigProperties()}).
     */
    public static List<ProviderConfigProperty> realmKeys() {
        return REALM_KEYS;
    }

    /** A flow step's form: each key empty unless the step overrides the realm. */
    static List<ProviderConfigProperty> step() {
        return STEP;
    }

    private static List<Setting<?>> all() {
        List<Setting<?>> list = new ArrayList<>(GateSettings.all());
        list.addAll(CaptchaSettings.all());
        return Collections.unmodifiableList(list);
    }

    private static List<ProviderConfigProperty> build(boolean step) {
        List<ProviderConfigProperty> out = new ArrayList<>();
        for (Setting<?> s : ALL) {
            if (step) {
                out.add(stepProperty(s));
            } else {
                // The tab's form edits the key under the console's form name (see the realm tab's normalize).
                ProviderConfigProperty p = realmProperty(s);
                p.setName(formName(s.key()));
                out.add(p);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The admin console's form name of a key. */
    public static String formName(String key) {
        return key.replace(".", BEER);
    }

    static ProviderConfigProperty realmProperty(Setting<?> s) {
        ProviderConfigProperty p = new ProviderConfigProperty();
        p.setName(s.key());
        p.setLabel(s.label());
        p.setHelpText(s.fullHelp());
        switch (s.kind()) {
            case BOOLEAN:
                p.setType(ProviderConfigProperty.BOOLEAN_TYPE);
                break;
            case INTEGER:
                p.setType(ProviderConfigProperty.INTEGER_TYPE);
                break;
            case CHOICE:
                p.setType(ProviderConfigProperty.LIST_TYPE);
                p.setOptions(s.options());
                break;
            case SECRET:
                p.setType(ProviderConfigProperty.PASSWORD);
                p.setSecret(true);
                break;
            default:
                // decimals too: the console's number field accepts whole numbers only
                p.setType(ProviderConfigProperty.STRING_TYPE);
        }
        if (s.defaultValue() != null) {
            p.setDefaultValue(s.defaultValue());
        }
        return p;
    }

    static ProviderConfigProperty stepProperty(Setting<?> s) {
        ProviderConfigProperty p = realmProperty(s);
        p.setDefaultValue(null);
        String inherit = s.kind() == Setting.Kind.BOOLEAN || s.kind() == Setting.Kind.CHOICE
                ? " '" + INHERIT + "' (or empty)" : " Empty";
        p.setHelpText(s.fullHelp() + inherit + ": the realm's value from Realm settings > Abuse gate, else the default. "
                + "A value saved here overrides the realm's for this step only.");
        if (s.kind() == Setting.Kind.BOOLEAN || s.kind() == Setting.Kind.CHOICE) {
            // A switch cannot say "not set": a list whose first choice is 'inherit' can.
            List<String> options = new ArrayList<>();
            options.add(INHERIT);
            options.addAll(s.kind() == Setting.Kind.BOOLEAN ? List.of("true", "false") : s.options());
            p.setType(ProviderConfigProperty.LIST_TYPE);
            p.setOptions(options);
            p.setDefaultValue(INHERIT);
        }
        return p;
    }
}
