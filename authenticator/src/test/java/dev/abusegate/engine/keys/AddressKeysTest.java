package dev.abusegate.engine.keys;

import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressKeysTest {

    private final GateFixture f = new GateFixture();
    private final GateOptions oneEach = GateFixture.only(Layer.PER_IP, 1, 300).build();

    /** Whether two client addresses count on the same layer-1 counter (threshold 1: the second is blocked). */
    private boolean shareACounter(GateOptions o, String first, String second) {
        GateFixture g = new GateFixture();
        assertThat(g.evaluate(o, first, "u").outcome()).isEqualTo(Outcome.ALLOW);
        return g.evaluate(o, second, "u").outcome() == Outcome.BLOCKED;
    }

    @Test
    void ipv4_is_kept_whole() {
        assertThat(AddressKeys.canonical("203.0.113.7", 64)).isEqualTo("203.0.113.7");
        assertThat(AddressKeys.canonical(" 203.0.113.7 ", 64)).isEqualTo("203.0.113.7");
        assertThat(shareACounter(oneEach, "203.0.113.7", "203.0.113.7")).isTrue();
        assertThat(shareACounter(oneEach, "203.0.113.7", "203.0.113.8")).isFalse();
    }

    @Test
    void ipv6_is_aggregated_to_a_64_by_default() {
        assertThat(AddressKeys.canonical("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64)).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(shareACounter(oneEach, "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"))
                .as("same /64").isTrue();
        assertThat(shareACounter(oneEach, "2001:db8:1:2::1", "2001:db8:1:3::1")).as("different /64").isFalse();
        assertThat(shareACounter(oneEach, "2001:DB8:1:2::1", "2001:db8:1:2::9")).as("hex case").isTrue();
        assertThat(shareACounter(oneEach, "2001:0db8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::7"))
                .as("leading zeros and :: are one address").isTrue();
    }

    @Test
    void the_ipv6_prefix_is_configurable() {
        GateOptions p48 = TestOptions.from(oneEach).ipv6PrefixLength(48).ipv6Network(32, 1000).build();
        GateOptions p128 = TestOptions.from(oneEach).ipv6PrefixLength(128).build();
        GateOptions p56 = TestOptions.from(oneEach).ipv6PrefixLength(56).build();
        assertThat(shareACounter(p48, "2001:db8:1:2::1", "2001:db8:1:3::1")).isTrue();
        assertThat(shareACounter(p48, "2001:db8:1::1", "2001:db8:2::1")).isFalse();
        assertThat(shareACounter(p128, "2001:db8:1:2::1", "2001:db8:1:2::2")).isFalse();
        assertThat(shareACounter(p128, "2001:db8:1:2::1", "2001:db8:1:2:0:0:0:1")).isTrue();
        assertThat(shareACounter(p56, "2001:db8:1:200::1", "2001:db8:1:2ff::1")).as("same /56").isTrue();
        assertThat(shareACounter(p56, "2001:db8:1:200::1", "2001:db8:1:300::1")).as("different /56").isFalse();
        assertThat(AddressKeys.canonical("2001:db8:1:2ff::1", 56)).isEqualTo("2001:db8:1:200:0:0:0:0/56");
    }

    @Test
    void an_ipv6_address_lies_in_a_network_of_a_shorter_prefix_and_ipv4_in_none() {
        AddressKeys.Parsed a = AddressKeys.parse("2001:db8:1:2ff::1", 64);
        AddressKeys.Parsed n = AddressKeys.network(a, 48);
        assertThat(CounterKey.subjectText(n.shape(), n.hi(), n.lo())).isEqualTo("2001:db8:1:0:0:0:0:0/48");
        AddressKeys.Parsed n40 = AddressKeys.network(a, 40);
        assertThat(CounterKey.subjectText(n40.shape(), n40.hi(), n40.lo())).isEqualTo("2001:db8:0:0:0:0:0:0/40");
        assertThat(n.shape()).as("a network and an address never share a key").isNotEqualTo(a.shape());
        assertThat(AddressKeys.network(AddressKeys.parse("2001:db8:1:2::1", 48), 48)).as("not shorter").isNull();
        assertThat(AddressKeys.network(AddressKeys.parse("203.0.113.7", 64), 48)).isNull();
        assertThat(AddressKeys.network(AddressKeys.parse("::ffff:1.2.3.4", 64), 48)).as("IPv4-mapped").isNull();
        assertThat(AddressKeys.network(null, 48)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"::ffff:1.2.3.4", "::FFFF:1.2.3.4", "::ffff:0102:0304", "0:0:0:0:0:ffff:1.2.3.4", "[::ffff:1.2.3.4]"})
    void ipv4_mapped_ipv6_counts_as_the_ipv4_address(String mapped) {
        assertThat(AddressKeys.canonical(mapped, 64)).isEqualTo("1.2.3.4");
        assertThat(shareACounter(oneEach, mapped, "1.2.3.4")).isTrue();
        assertThat(shareACounter(oneEach, mapped, "1.2.3.5")).isFalse();
    }

    @Test
    void zone_ids_and_brackets_are_stripped() {
        assertThat(AddressKeys.canonical("fe80::1%eth0", 128)).isEqualTo(AddressKeys.canonical("fe80::1", 128));
        assertThat(AddressKeys.canonical("[fe80::1%25en0]", 128)).isEqualTo(AddressKeys.canonical("fe80::1", 128));
        assertThat(AddressKeys.canonical("[2001:db8::1]", 64)).isEqualTo("2001:db8:0:0:0:0:0:0/64");
        assertThat(shareACounter(oneEach, "[2001:db8::1]", "2001:db8::1")).isTrue();
        assertThat(shareACounter(oneEach, "fe80::1%eth0", "fe80::2%eth1")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"not-an-ip", "1.2.3.256", "1.2.3", "1.2.3.4.5", "01234.1.1.1", "1::2::3",
            "1:2:3:4:5:6:7:8:9", ":::", "12345::1", "g::1", "1.2.3.4%eth0", "", "unknown", "localhost",
            "example.com", "[1.2.3.4]x"})
    void garbage_is_not_an_ip_literal(String raw) {
        assertThat(AddressKeys.canonical(raw, 64)).isNull();
    }

    @Test
    void garbage_addresses_are_keyed_as_themselves() {
        assertThat(shareACounter(oneEach, "not-an-ip", "not-an-ip")).isTrue();
        assertThat(shareACounter(oneEach, "not-an-ip", "also-not-an-ip")).as("two garbage strings").isFalse();
        assertThat(shareACounter(oneEach, "garbage", "198.51.100.1")).as("garbage vs a real address").isFalse();
        assertThat(shareACounter(oneEach, "198.51.100.1", "garbage")).isFalse();
        assertThat(shareACounter(oneEach, "1.2.3.256", "1.2.3.255")).isFalse();
        assertThat(shareACounter(oneEach, "1.2.3.256", "1.2.3.25")).isFalse();
        assertThat(shareACounter(oneEach, "", "0.0.0.0")).isFalse();
        AttemptKeys k = f.keys(oneEach, "attacker-controlled-text", "u");
        assertThat(k.address().toString()).doesNotContain("attacker");
    }

    @ParameterizedTest
    @CsvSource({"localhost,127.0.0.1", "ip6-localhost,::1", "example.com,93.184.215.14", "one.one.one.one,1.1.1.1"})
    void names_are_never_resolved(String name, String address) {
        assertThat(shareACounter(oneEach, name, address)).isFalse();
        long start = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            AddressKeys.canonical(name + i % 7, 64);
            f.keys(oneEach, "host-" + i + ".invalid", "u");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no lookups: 20k keys quickly")
                .isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void very_long_addresses_are_garbage_and_cheap() {
        String huge = "1".repeat(100 * 1024);
        assertThat(AddressKeys.canonical(huge, 64)).isNull();
        assertThat(f.keys(oneEach, huge, "u").address().toString().length()).isLessThan(80);
        assertThat(shareACounter(oneEach, huge, "198.51.100.1")).isFalse();
    }

    @Test
    void ipv4_with_leading_zeros_counts_as_the_plain_address() {
        assertThat(AddressKeys.canonical("198.051.100.001", 64)).isEqualTo("198.51.100.1");
        assertThat(AddressKeys.canonical("0.0.0.0", 64)).isEqualTo("0.0.0.0");
        assertThat(AddressKeys.canonical("10.0.100.0", 64)).isEqualTo("10.0.100.0");
        assertThat(AddressKeys.canonical("00.0.0.0", 64)).isEqualTo("0.0.0.0");
        assertThat(shareACounter(oneEach, "198.051.100.001", "198.51.100.1")).isTrue();
    }

    @Test
    void ipv6_keys_match_an_independent_formatting_for_every_prefix() throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(64);
        for (int n = 0; n < 300; n++) {
            int[] g = new int[8];
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                g[i] = r.nextInt(4) == 0 ? 0 : r.nextInt(0x10000);
                text.append(i > 0 ? ":" : "").append(Integer.toHexString(g[i]));
            }
            if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && (g[5] == 0xffff)) {
                continue; // IPv4-mapped: keyed as IPv4, tested elsewhere
            }
            // a literal: InetAddress parses it without any lookup
            byte[] bytes = java.net.InetAddress.getByName(text.toString()).getAddress();
            java.math.BigInteger value = new java.math.BigInteger(1, bytes);
            for (int prefix = 1; prefix <= 128; prefix++) {
                java.math.BigInteger mask = java.math.BigInteger.ONE.shiftLeft(128).subtract(java.math.BigInteger.ONE)
                        .shiftRight(128 - prefix).shiftLeft(128 - prefix);
                java.math.BigInteger masked = value.and(mask);
                StringBuilder expected = new StringBuilder();
                for (int i = 0; i < 8; i++) {
                    int group = masked.shiftRight(16 * (7 - i)).intValue() & 0xffff;
                    expected.append(i > 0 ? ":" : "").append(Integer.toHexString(group));
                }
                expected.append('/').append(prefix);
                assertThat(AddressKeys.canonical(text.toString(), prefix)).as("%s/%d", text, prefix).isEqualTo(expected.toString());
            }
        }
    }
}
