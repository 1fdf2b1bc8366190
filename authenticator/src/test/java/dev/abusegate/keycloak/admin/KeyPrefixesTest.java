package dev.abusegate.keycloak.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.GateSettings;
import dev.abusegate.engine.config.TestOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyPrefixesTest {

    private static final String V6 = "2001:db8:77:1::5";

    private static GateOptions prefixes(int address, int network) {
        return TestOptions.builder().set(GateSettings.IPV6_PREFIX, address).set(GateSettings.IPV6_NETWORK_PREFIX, network).build();
    }

    @Test
    void without_parameters_the_realms_steps_prefixes_apply() {
        assertThat(KeyPrefixes.of(null, null, List.of(prefixes(56, 40), prefixes(56, 40)), V6))
                .containsExactly(new KeyPrefixes(56, 40));
    }

    @Test
    void without_gated_steps_the_defaults_apply() {
        assertThat(KeyPrefixes.of(null, null, List.of(), V6))
                .containsExactly(new KeyPrefixes(GateSettings.IPV6_PREFIX.defaultTyped(), GateSettings.IPV6_NETWORK_PREFIX.defaultTyped()));
    }

    @Test
    void steps_that_disagree_give_one_entry_each_in_their_order() {
        assertThat(KeyPrefixes.of(null, null, List.of(prefixes(56, 40), GateOptions.defaults(), prefixes(56, 40)), V6))
                .containsExactly(new KeyPrefixes(56, 40), new KeyPrefixes(64, 48));
    }

    @Test
    void prefixes_that_key_the_address_alike_give_one_entry() {
        List<GateOptions> disagreeing = List.of(prefixes(56, 40), GateOptions.defaults());
        assertThat(KeyPrefixes.of(null, null, disagreeing, "192.0.2.7")).as("IPv4").hasSize(1);
        assertThat(KeyPrefixes.of(null, null, disagreeing, "not-an-address")).as("a name").hasSize(1);
        assertThat(KeyPrefixes.of(null, null, disagreeing, null)).as("identifier only").hasSize(1);
    }

    @Test
    void parameters_win_over_the_steps_prefixes() {
        List<GateOptions> disagreeing = List.of(prefixes(56, 40), GateOptions.defaults());
        assertThat(KeyPrefixes.of(64, 32, disagreeing, V6)).containsExactly(new KeyPrefixes(64, 32));
        assertThat(KeyPrefixes.of(60, null, disagreeing, V6)).as("the network prefix still from the steps")
                .containsExactly(new KeyPrefixes(60, 40), new KeyPrefixes(60, 48));
    }

    @Test
    void a_realm_that_does_not_count_networks_has_no_network_prefix() {
        GateOptions off = TestOptions.builder().set(GateSettings.IPV6_NETWORK_THRESHOLD, 0).build();
        assertThat(KeyPrefixes.of(null, null, List.of(off), V6)).containsExactly(new KeyPrefixes(64, 0));
        assertThat(KeyPrefixes.of(null, 48, List.of(off), V6)).as("unless asked for").containsExactly(new KeyPrefixes(64, 48));
    }
}
