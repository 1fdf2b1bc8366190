package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.Config;

/**
 * The store's server-wide options, as an operator meets them: the defaults when nothing is set, a value given in
 * either of Keycloak's spellings ({@code blocked-hold-millis}, {@code blockedHoldMillis}), and a bad value stopping the
 * server with a message that names the flag, its bounds and the value given.
 */
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

    private static final List<StoreOption> OPTIONS = List.of(InfinispanGateStoreProviderFactory.MAX_ENTRIES,
            InfinispanGateStoreProviderFactory.MAX_PROTECTED_ENTRIES, InfinispanGateStoreProviderFactory.BLOCKED_HOLD_MILLIS);

    @Test
    void nothing_set_reads_the_documented_defaults() {
        assertThat(OPTIONS).extracting(o -> o.name() + "=" + o.read(scope(Map.of())))
                .containsExactly("max-entries=100000", "max-protected-entries=100000", "blocked-hold-millis=1000");
    }

    @Test
    void a_value_in_range_is_read_as_given_up_to_both_bounds() {
        StoreOption hold = InfinispanGateStoreProviderFactory.BLOCKED_HOLD_MILLIS;
        assertThat(hold.read(scope(Map.of("blocked-hold-millis", 0L)))).isZero();
        assertThat(hold.read(scope(Map.of("blocked-hold-millis", 60_000L)))).isEqualTo(60_000L);
        assertThat(InfinispanGateStoreProviderFactory.MAX_ENTRIES.read(scope(Map.of("max-entries", 1L)))).isEqualTo(1L);
        assertThat(InfinispanGateStoreProviderFactory.MAX_PROTECTED_ENTRIES.read(scope(Map.of("max-protected-entries", 5_000_000L))))
                .isEqualTo(5_000_000L);
    }

    @Test
    void the_camel_case_spelling_is_read_and_the_kebab_one_wins_when_both_are_set() {
        StoreOption hold = InfinispanGateStoreProviderFactory.BLOCKED_HOLD_MILLIS;
        assertThat(hold.read(scope(Map.of("blockedHoldMillis", 250L)))).isEqualTo(250L);
        assertThat(hold.read(scope(Map.of("blocked-hold-millis", 40L, "blockedHoldMillis", 250L)))).isEqualTo(40L);
        assertThat(InfinispanGateStoreProviderFactory.MAX_PROTECTED_ENTRIES.read(scope(Map.of("maxProtectedEntries", 7L))))
                .isEqualTo(7L);
        assertThat(InfinispanGateStoreProviderFactory.MAX_ENTRIES.read(scope(Map.of("maxEntries", 8L)))).isEqualTo(8L);
    }

    @Test
    void the_refusal_reads_as_one_sentence_with_flag_bounds_and_value() {
        assertThatThrownBy(() -> init(Map.of("blocked-hold-millis", 60_001L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spi-abuse-gate-store--infinispan--blocked-hold-millis must be a whole number from 0 to 60000, was 60001");
        assertThatThrownBy(() -> init(Map.of("max-entries", 0L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spi-abuse-gate-store--infinispan--max-entries must be a whole number of at least 1, was 0");
        assertThatThrownBy(() -> init(Map.of("maxProtectedEntries", -5L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spi-abuse-gate-store--infinispan--max-protected-entries must be a whole number of at least 1, was -5");
    }

    @Test
    void each_option_is_described_to_keycloak_as_a_whole_number_with_help() {
        assertThat(new InfinispanGateStoreProviderFactory().getConfigMetadata()).allSatisfy(p -> assertThat(p.getHelpText()).isNotBlank())
                .filteredOn(p -> !p.getName().startsWith("test-support"))
                .extracting(p -> p.getType()).containsOnly(org.keycloak.provider.ProviderConfigProperty.INTEGER_TYPE);
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
