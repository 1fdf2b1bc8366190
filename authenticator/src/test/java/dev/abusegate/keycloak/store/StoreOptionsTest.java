package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.Config;

/** The store's server-wide options: a bad value stops the server with a message naming the option. */
class StoreOptionsTest {

    /** A Config.Scope holding {@code values} (as Keycloak parses them: numbers as Long, flags as Boolean). */
    private static Config.Scope scope(Map<String, Object> values) {
        return (Config.Scope) Proxy.newProxyInstance(Config.Scope.class.getClassLoader(), new Class<?>[] {Config.Scope.class},
                (proxy, method, args) -> {
                    Object v = values.get((String) args[0]);
                    return v != null ? v : args.length > 1 ? args[1] : null;
                });
    }

    private static void init(Map<String, Object> values) {
        new InfinispanGateStoreProviderFactory().init(scope(values));
    }

    @Test
    void the_defaults_and_values_in_range_are_taken() {
        assertThatCode(() -> init(Map.of())).doesNotThrowAnyException();
        assertThatCode(() -> init(Map.of("blocked-hold-millis", 0L))).doesNotThrowAnyException();
        assertThatCode(() -> init(Map.of("blocked-hold-millis", 60_000L))).doesNotThrowAnyException();
    }

    @Test
    void a_hold_out_of_range_is_refused_with_the_options_name() {
        for (long bad : new long[] {-1, 60_001}) {
            assertThatThrownBy(() -> init(Map.of("blocked-hold-millis", bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--spi-abuse-gate-store--infinispan--blocked-hold-millis")
                    .hasMessageContaining("0 to 60000")
                    .hasMessageContaining(Long.toString(bad));
        }
    }

    @Test
    void bounds_below_one_are_refused_with_the_options_name() {
        assertThatThrownBy(() -> init(Map.of("max-entries", 0L))).hasMessageContaining("--spi-abuse-gate-store--infinispan--max-entries");
        assertThatThrownBy(() -> init(Map.of("max-protected-entries", -5L)))
                .hasMessageContaining("--spi-abuse-gate-store--infinispan--max-protected-entries");
    }

    @Test
    void keycloak_is_shown_each_option_with_the_default_it_is_read_with() {
        assertThat(new InfinispanGateStoreProviderFactory().getConfigMetadata())
                .extracting(p -> p.getName() + "=" + p.getDefaultValue())
                .containsExactly("max-entries=100000", "max-protected-entries=100000", "blocked-hold-millis=1000",
                        "test-support-fault-injection=false");
    }

    @Test
    void the_camel_case_spelling_is_read_and_checked_too() {
        assertThatThrownBy(() -> init(Map.of("blockedHoldMillis", 60_001L)))
                .hasMessageContaining("--spi-abuse-gate-store--infinispan--blocked-hold-millis");
    }
}
