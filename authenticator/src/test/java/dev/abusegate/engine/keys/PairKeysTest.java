package dev.abusegate.engine.keys;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.SubjectState;
import dev.abusegate.engine.config.GateOptions;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Layer 2's key (address and identifier): one key per address counter and identifier, over every prefix
 * length a realm may be configured with (0 to 128, and values outside that range, which parsing clamps), and
 * every spelling of an address; equivalent spellings share it; its text form stays what the cache stores.
 */
class PairKeysTest {

    private static final GateKeys KEYS = new GateKeys(r -> ("pair-secret-" + r).getBytes(StandardCharsets.UTF_8));

    private static final List<String> ADDRESSES = Arrays.asList(
            "1.2.3.4", "::102:304", "102:304::", "0:0:102:304::", "::ffff:1.2.3.4", "[::ffff:1.2.3.4]", "::ffff:102:304",
            "::ffff:1.2.3.5", "0.0.0.0", "::", "::1", "255.255.255.255", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "2001:db8::1", "[2001:DB8::1]", "2001:db8::1%eth0", "2001:db8:0:1::1", "2001:db8::", "2001:db8:8000::",
            "8000::", "fe80::1%25en0", "ffff:ffff:ffff:ffff::", "::ffff:ffff", "garbage", "1.2.3.4:80", "", null);
    private static final List<String> IDENTIFIERS = List.of("alice", "Alice", "ａｌｉｃｅ", "bob", "", "x");

    @Test
    void one_pair_key_per_address_counter_and_identifier_across_every_prefix_length() {
        Map<CounterKey, String> owner = new HashMap<>();
        Map<String, CounterKey> byOwner = new HashMap<>();
        int shortPath = 0;
        for (int prefix = -1; prefix <= 130; prefix++) {
            for (String address : ADDRESSES) {
                for (String identifier : IDENTIFIERS) {
                    AttemptKeys k = KEYS.forAttempt("realm", address, identifier, prefix);
                    String who = k.address() + " " + GateKeys.normalizeIdentifier(identifier);
                    String before = owner.putIfAbsent(k.pair(), who);
                    assertThat(before == null || before.equals(who))
                            .as("/%d %s %s: pair key %s also belongs to %s", prefix, address, identifier, k.pair(), before).isTrue();
                    CounterKey had = byOwner.putIfAbsent(who, k.pair());
                    assertThat(had == null || had.equals(k.pair())).as("%s has two pair keys", who).isTrue();
                    if (k.address().shape() == CounterKey.IPV4 || k.address().shape() >= CounterKey.IPV6 && k.address().shape() <= CounterKey.IPV6 + 64) {
                        shortPath++;
                    }
                    // never equal to a key of another kind
                    for (CounterKey other : List.of(k.address(), k.lockout(), k.forDevice("d").lockout())) {
                        assertThat(other).isNotEqualTo(k.pair());
                        assertThat(other.toString()).isNotEqualTo(k.pair().toString());
                    }
                }
            }
        }
        assertThat(shortPath).as("attempts keyed without the hash").isGreaterThan(1000);
        assertThat(owner.size()).isEqualTo(byOwner.size());
        // and the text forms, which a clustered store uses as the cache key, are as distinct as the keys
        assertThat(owner.keySet().stream().map(CounterKey::toString).distinct().count()).isEqualTo(owner.size());
    }

    @Test
    void spellings_of_one_address_share_one_pair_key() {
        List<List<String>> same = List.of(
                List.of("192.0.2.1", " 192.0.2.1 ", "::ffff:192.0.2.1", "[::ffff:192.0.2.1]", "::FFFF:c000:201", "0:0:0:0:0:ffff:192.0.2.1"),
                List.of("2001:db8::1", "[2001:DB8::1]", "2001:db8:0:0:0:0:0:1%eth0", "2001:db8::ffff", "2001:0db8:0000:0000:ffff::"));
        for (List<String> spellings : same) {
            for (String identifier : List.of("alice", " ALICE ")) {
                CounterKey first = KEYS.forAttempt("realm", spellings.get(0), "alice", 64).pair();
                for (String address : spellings) {
                    assertThat(KEYS.forAttempt("realm", address, identifier, 64).pair()).as("%s / %s", address, identifier).isEqualTo(first);
                }
            }
        }
    }

    @Test
    void the_short_key_is_the_address_word_and_the_tag_with_the_shape_byte_and_reads_as_an_opaque_tag() {
        for (String address : List.of("203.0.113.7", "2001:db8:1:2::9")) {
            for (int prefix : new int[] {1, 48, 64}) {
                AttemptKeys k = KEYS.forAttempt("realm", address, "alice", prefix);
                CounterKey ip = k.address();
                long word = ip.shape() == CounterKey.IPV4 ? ip.lo() : ip.hi();
                CounterKey pair = k.pair();
                assertThat(pair.shape()).isEqualTo(CounterKey.OPAQUE);
                assertThat(pair.hi()).isEqualTo(word);
                assertThat(pair.lo()).isEqualTo(k.member() & ~0xFFL | ip.shape());
                assertThat(pair.toString()).isEqualTo("realm/pair/" + CounterKey.base64Url(word, k.member() & ~0xFFL | ip.shape()))
                        .hasSize("realm/pair/".length() + 22).doesNotContain("alice");
            }
        }
        // a longer prefix, or an address that is not one, keeps the keyed hash: the address is not in it
        for (String address : List.of("2001:db8:1:2::9", "garbage")) {
            AttemptKeys k = KEYS.forAttempt("realm", address, "alice", 96);
            assertThat(k.pair().hi()).isNotEqualTo(k.address().hi());
            assertThat(k.pair().lo() >>> 8).isNotEqualTo(k.member() >>> 8);
        }
    }

    @Test
    void pair_keys_of_one_address_differ_for_identifiers_and_realms_and_secrets() {
        List<CounterKey> seen = new ArrayList<>();
        for (String realm : List.of("a", "b")) {
            for (String id : List.of("alice", "bob", "carol")) {
                seen.add(KEYS.forAttempt(realm, "198.51.100.1", id, 64).pair());
            }
        }
        seen.add(new GateKeys(r -> "another".getBytes(StandardCharsets.UTF_8)).forAttempt("a", "198.51.100.1", "alice", 64).pair());
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen.stream().map(CounterKey::toString).distinct().count()).isEqualTo(seen.size());
    }
    /**
     * What the admin resource does (GateAdminResource: {@link AbuseGate#state} and {@link AbuseGate#clear} with the
     * address and identifier the operator typed): it finds the counter that layer 2 counted, whichever
     * spelling the operator types, and clearing it lets the pair through again.
     */
    @Test
    void the_admin_lookup_finds_and_clears_the_pair_counter_layer_2_counted() {
        String[][] cases = {
                {"203.0.113.9", "[::ffff:203.0.113.9]", "64"},
                {"2001:db8:5::7", "[2001:DB8:5::1]", "64"},
                {"2001:db8:5::7", "2001:db8:5:0:ffff::%eth0", "48"},
                {"2001:db8:5::7", "2001:db8:5::7", "128"},
                {"not-an-address", "not-an-address", "64"}};
        for (String[] c : cases) {
            GateFixture f = new GateFixture();
            GateOptions o = GateFixture.only(Layer.PER_IP_ACCOUNT, 3, 300).ipv6PrefixLength(Integer.parseInt(c[2])).ipv6Network(32, 1000).build();
            for (int i = 0; i < 3; i++) {
                assertThat(f.evaluate(o, c[0], "Alice").outcome()).isEqualTo(Outcome.ALLOW);
            }
            assertThat(f.evaluate(o, c[0], "alice").outcome()).isEqualTo(Outcome.BLOCKED);
            int prefix = Integer.parseInt(c[2]);
            SubjectState.Pair seen = GateFixture.state(f.gate, GateFixture.REALM, c[1], " alice ", prefix).pair();
            assertThat(seen.attempts()).as(Arrays.toString(c)).isGreaterThanOrEqualTo(3);
            assertThat(seen.remainingMillis()).isPositive();
            assertThat(f.gate.clear(GateFixture.REALM, c[1], " alice ", prefix)).contains(SubjectState.Part.PAIR);
            assertThat(GateFixture.state(f.gate, GateFixture.REALM, c[0], "Alice", prefix).pair().attempts()).isZero();
            assertThat(f.evaluate(o, c[0], "alice").outcome()).as(Arrays.toString(c)).isEqualTo(Outcome.ALLOW);
        }
    }
}
