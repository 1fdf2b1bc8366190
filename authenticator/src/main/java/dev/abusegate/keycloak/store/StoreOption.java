package dev.abusegate.keycloak.store;

import org.keycloak.Config;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.provider.ProviderConfigurationBuilder;

/**
 * One whole-number option of the Infinispan store ({@code --spi-abuse-gate-store--infinispan--<name>}): its name,
 * default, bounds and help, from which it is both read at start-up and described to Keycloak.
 */
record StoreOption(String name, long defaultValue, long min, long max, String help) {

    /** The option as given on the command line. */
    String flag() {
        return "--spi-abuse-gate-store--" + InfinispanGateStoreProviderFactory.ID + "--" + name;
    }

    /**
     * The value set (by its name, or its camel-case spelling, as Keycloak accepts both), else the default.
     *
     * @throws IllegalArgumentException naming the option, when the value is out of bounds: the server does not start
     */
    long read(Config.Scope config) {
        Long value = config.getLong(name, config.getLong(camelCase(name), defaultValue));
        if (value == null || value < min || value > max) {
            throw new IllegalArgumentException(flag() + " must be a whole number " + (max == Long.MAX_VALUE ? "of at least " + min
                    : "from " + min + " to " + max) + ", was " + value);
        }
        return value;
    }

    /** Adds the option, with its help and default, to what Keycloak shows of the provider. */
    ProviderConfigurationBuilder describe(ProviderConfigurationBuilder b) {
        return b.property().name(name).type(ProviderConfigProperty.INTEGER_TYPE).helpText(help).defaultValue(defaultValue).add();
    }

    private static String camelCase(String kebab) {
        StringBuilder out = new StringBuilder(kebab.length());
        boolean upper = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }
}
