package dev.abusegate.engine.keys;

import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.GateOptions;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class IdentifierKeysTest {

    private static final int P64 = 64;

    @Test
    void the_ascii_shortcut_gives_the_bytes_of_the_general_normalization_and_steps_aside_for_anything_else() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        String alphabet = " \t\n\u0000AZaz09@._-+~\u007f\u00e9\u3000\uff21";
        int ascii = 0;
        for (int i = 0; i < 20_000; i++) {
            int length = random.nextInt(4) == 0 ? 200 + random.nextInt(1_200) : random.nextInt(24);
            StringBuilder b = new StringBuilder(length);
            boolean plain = random.nextBoolean();
            for (int j = 0; j < length; j++) {
                b.append(alphabet.charAt(random.nextInt(plain ? alphabet.length() - 3 : alphabet.length())));
            }
            String raw = b.toString();
            byte[] shortcut = GateKeys.normalizedAscii(raw);
            String general = GateKeys.normalizeIdentifier(raw);
            if (shortcut != null) {
                ascii++;
                assertThat(shortcut).as("%s", raw).isEqualTo(general.getBytes(StandardCharsets.UTF_8));
            } else {
                // what the general path looks at: the first MAX_RAW_LENGTH chars after leading blanks, trimmed
                String window = raw.trim();
                window = window.substring(0, Math.min(window.length(), GateKeys.MAX_RAW_LENGTH)).trim();
                assertThat(window.chars().anyMatch(c -> c >= 0x80)).as("only non-ASCII input takes the general path: %s", raw).isTrue();
            }
        }
        assertThat(ascii).isGreaterThan(10_000);
        assertThat(GateKeys.normalizedAscii(null)).isNull();
        assertThat(GateKeys.normalizedAscii("  Alice@Example.COM \t")).isEqualTo("alice@example.com".getBytes(StandardCharsets.UTF_8));
        assertThat(GateKeys.normalizedAscii("\uff21lice")).isNull();
    }

    @Test
    void identifiers_are_trimmed_nfkc_normalized_and_lower_cased() {
        assertThat(GateKeys.normalizeIdentifier("  Alice@Example.COM \t")).isEqualTo("alice@example.com");
        assertThat(GateKeys.normalizeIdentifier("ａｌｉｃｅ")).as("fullwidth letters (NFKC)").isEqualTo("alice");
        assertThat(GateKeys.normalizeIdentifier("ＡＬＩＣＥ")).isEqualTo("alice");
        assertThat(GateKeys.normalizeIdentifier("ﬁona")).as("ligature fi (NFKC)").isEqualTo("fiona");
        assertThat(GateKeys.normalizeIdentifier("\u3000alice\u3000")).as("ideographic spaces become spaces, then trimmed")
                .isEqualTo("alice");
        assertThat(GateKeys.normalizeIdentifier("e\u0301")).as("composed").isEqualTo("\u00e9");
        assertThat(GateKeys.normalizeIdentifier(null)).isEmpty();
        assertThat(GateKeys.normalizeIdentifier("   ")).isEmpty();
    }

    @Test
    void lower_casing_uses_the_root_locale_whatever_the_default_locale_is() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertThat("ADMIN".toLowerCase()).as("precondition: Turkish lower-cases I to dotless i").isEqualTo("admın");
            assertThat(GateKeys.normalizeIdentifier("ADMIN")).isEqualTo("admin");
            assertThat(GateKeys.normalizeIdentifier("TITLE")).isEqualTo("title");
            GateKeys keys = new GateKeys(GateFixture.SECRETS);
            AttemptKeys turkish = keys.forAttempt(GateFixture.REALM, "192.0.2.1", "ADMIN", P64);
            Locale.setDefault(Locale.ROOT);
            AttemptKeys root = keys.forAttempt(GateFixture.REALM, "192.0.2.1", "admin", P64);
            assertThat(turkish).isEqualTo(root);
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void dotless_i_is_not_folded_into_i() {
        assertThat(GateKeys.normalizeIdentifier("admın")).isEqualTo("admın");
        GateKeys keys = new GateKeys(GateFixture.SECRETS);
        assertThat(keys.forAttempt("r", "192.0.2.1", "admın", P64).lockout())
                .isNotEqualTo(keys.forAttempt("r", "192.0.2.1", "admin", P64).lockout());
    }

    @Test
    void identifiers_are_capped() {
        String longName = "a".repeat(300);
        assertThat(GateKeys.normalizeIdentifier(longName)).hasSize(GateKeys.MAX_IDENTIFIER_LENGTH);
        // a surrogate pair straddling the cut is not split in half
        String emoji = "a".repeat(GateKeys.MAX_IDENTIFIER_LENGTH - 1) + "\uD83D\uDE00" + "tail";
        String cut = GateKeys.normalizeIdentifier(emoji);
        assertThat(cut.length()).isLessThanOrEqualTo(GateKeys.MAX_IDENTIFIER_LENGTH);
        assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))).isFalse();
    }

    @Test
    void a_100_kB_identifier_is_handled_fast_and_capped() {
        String huge = "Ｘ".repeat(100 * 1024); // fullwidth: every char needs NFKC work
        long start = System.nanoTime();
        String n = GateKeys.normalizeIdentifier(huge);
        AttemptKeys k = new GateKeys(GateFixture.SECRETS).forAttempt("r", "192.0.2.1", huge, P64);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(n).hasSize(GateKeys.MAX_IDENTIFIER_LENGTH).matches("x+");
        assertThat(k.lockout().toString().length()).isLessThan(100);
        assertThat(took).isLessThan(Duration.ofMillis(500));
    }

    @Test
    void whitespace_padding_cannot_move_an_identifier_off_its_counters() {
        // Keycloak trims the submitted username before looking the user up, so padded and plain name the
        // same account and must share the same counters, however much padding is sent.
        GateKeys keys = new GateKeys(GateFixture.SECRETS);
        AttemptKeys plain = keys.forAttempt("r", "192.0.2.1", "alice", P64);
        for (int pad : new int[] {1, 1000, GateKeys.MAX_RAW_LENGTH - 3, GateKeys.MAX_RAW_LENGTH, 100 * 1024}) {
            assertThat(keys.forAttempt("r", "192.0.2.1", " ".repeat(pad) + "alice", P64))
                    .as("%d leading spaces", pad).isEqualTo(plain);
            assertThat(keys.forAttempt("r", "192.0.2.1", "alice" + "\t".repeat(pad), P64))
                    .as("%d trailing tabs", pad).isEqualTo(plain);
        }
    }

    @Test
    void keys_never_contain_the_raw_identifier() {
        GateKeys keys = new GateKeys(GateFixture.SECRETS);
        for (String id : List.of("alice", "Alice.Smith@Example.com", "root", "x")) {
            AttemptKeys k = keys.forAttempt("realm", "203.0.113.5", id, P64);
            for (CounterKey ck : List.of(k.address(), k.pair(), k.lockout(), k.forDevice("device-1").lockout())) {
                String key = ck.toString();
                assertThat(key.toLowerCase(Locale.ROOT)).as(key)
                        .doesNotContain(id.toLowerCase(Locale.ROOT).length() > 1 ? id.toLowerCase(Locale.ROOT) : "/x/");
            }
        }
        AttemptKeys k = keys.forAttempt("realm", "203.0.113.5", "alice.smith@example.com", P64);
        assertThat(k.pair() + "|" + k.lockout() + "|" + k.forDevice("device-1").lockout() + "|" + k.identifierTag())
                .doesNotContain("alice").doesNotContain("smith").doesNotContain("example");
    }

    @Test
    void different_realm_secrets_give_different_keys() {
        GateKeys a = new GateKeys(r -> "secret-one".getBytes(StandardCharsets.UTF_8));
        GateKeys b = new GateKeys(r -> "secret-two".getBytes(StandardCharsets.UTF_8));
        AttemptKeys ka = a.forAttempt("realm", "203.0.113.5", "alice", P64);
        AttemptKeys kb = b.forAttempt("realm", "203.0.113.5", "alice", P64);
        assertThat(ka.lockout()).isNotEqualTo(kb.lockout());
        assertThat(ka.forDevice("d").lockout()).isNotEqualTo(kb.forDevice("d").lockout());
        assertThat(ka.identifierTag()).isNotEqualTo(kb.identifierTag());
        assertThat(ka.pair()).isNotEqualTo(kb.pair());
        assertThat(ka.member()).isNotEqualTo(kb.member());
        assertThat(ka.address()).as("the address key needs no secret").isEqualTo(kb.address());
        // and the same secret is stable
        assertThat(new GateKeys(r -> "secret-one".getBytes(StandardCharsets.UTF_8))
                .forAttempt("realm", "203.0.113.5", "alice", P64)).isEqualTo(ka);
    }

    @Test
    void a_rotated_secret_is_picked_up() {
        byte[][] secret = {"first".getBytes(StandardCharsets.UTF_8)};
        GateKeys keys = new GateKeys(r -> secret[0]);
        AttemptKeys before = keys.forAttempt("realm", "203.0.113.5", "alice", P64);
        secret[0] = "second".getBytes(StandardCharsets.UTF_8);
        assertThat(keys.forAttempt("realm", "203.0.113.5", "alice", P64).lockout()).isNotEqualTo(before.lockout());
    }

    @Test
    void realms_never_share_counters() {
        GateFixture f = new GateFixture();
        GateOptions o = GateFixture.only(Layer.PER_IP, 1, 300).build();
        Attempt inA = new Attempt("realm-a", "198.51.100.1", "alice", null);
        Attempt inB = new Attempt("realm-b", "198.51.100.1", "alice", null);
        assertThat(GateFixture.evaluate(f.gate, o, inA, null).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(GateFixture.evaluate(f.gate, o, inA, null).outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(GateFixture.evaluate(f.gate, o, inB, null).outcome()).isEqualTo(Outcome.ALLOW);

        GateOptions lock = GateFixture.only(Layer.ACCOUNT_LOCKOUT, 1, 300).build();
        Decision fail = GateFixture.evaluate(f.gate, lock, new Attempt("realm-a", "198.51.100.2", "bob", null), null);
        f.gate.passwordFailed(fail, 0L, java.util.List.of());
        assertThat(GateFixture.evaluate(f.gate, lock, new Attempt("realm-a", "198.51.100.2", "bob", null), null).outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(GateFixture.evaluate(f.gate, lock, new Attempt("realm-b", "198.51.100.2", "bob", null), null).outcome()).isEqualTo(Outcome.ALLOW);
    }

    @Test
    void no_key_of_one_realm_equals_a_key_of_another() {
        GateKeys keys = new GateKeys(r -> "same-secret".getBytes(StandardCharsets.UTF_8));
        List<String> realms = List.of("a", "b", "a/ip", "a/fail", "A", "realm-1");
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String realm : realms) {
            for (String addr : List.of("198.51.100.1", "2001:db8::1", "garbage")) {
                AttemptKeys k = keys.forAttempt(realm, addr, "alice", P64);
                for (CounterKey key : new java.util.LinkedHashSet<>(List.of(k.address(), k.pair(), k.lockout(), k.forDevice("d").lockout(),
                        GateKeys.used(realm, new byte[16])))) {
                    seen.add(realm + "\u0000" + key);
                }
            }
        }
        java.util.Map<String, String> owner = new java.util.HashMap<>();
        for (String s : seen) {
            String realm = s.substring(0, s.indexOf('\u0000'));
            String key = s.substring(s.indexOf('\u0000') + 1);
            String prev = owner.putIfAbsent(key, realm);
            assertThat(prev == null || prev.equals(realm)).as("key %s shared by %s and %s", key, prev, realm).isTrue();
        }
    }

    @Test
    void identifier_keys_are_hmac_sha256_of_the_normalized_identifier_under_a_key_derived_from_the_realm_secret() throws Exception {
        javax.crypto.Mac derive = javax.crypto.Mac.getInstance("HmacSHA256");
        derive.init(new javax.crypto.spec.SecretKeySpec("k".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] realmKey = derive.doFinal("abuse-gate/identifier-key/v2".getBytes(StandardCharsets.UTF_8));
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(realmKey, "HmacSHA256"));
        GateKeys keys = new GateKeys(r -> "k".getBytes(StandardCharsets.UTF_8));
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 500; i++) {
            String id = (i % 2 == 0 ? "Üser-" : "User-") + Long.toHexString(r.nextLong()) + "@Example.com";
            byte[] digest = java.util.Arrays.copyOf(mac.doFinal(GateKeys.normalizeIdentifier(id).getBytes(StandardCharsets.UTF_8)), 16);
            String tag = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
            AttemptKeys k = keys.forAttempt("realm", "192.0.2.1", id, P64);
            assertThat(k.lockout()).hasToString("realm/acct/" + tag);
            assertThat(keys.account("realm", id)).isEqualTo(k.lockout());
            assertThat(k.identifierTag()).isEqualTo(tag);
            assertThat(k.pair().toString()).startsWith("realm/pair/").hasSize("realm/pair/".length() + 22)
                    .doesNotContainIgnoringCase("user-");
            assertThat(k.address()).hasToString("realm/ip/192.0.2.1");
            assertThat(k.member()).isEqualTo(java.nio.ByteBuffer.wrap(digest).getLong());
        }
    }

    /**
     * One subject (the same 128 bits) under each kind, and in two realms, names as many entries: an address's
     * entry never doubles as an account's, a pair's, a device's or a used captcha's, even when their bits agree.
     * And a key rebuilt from its realm, kind and bits is the key the gate built (equal, same hash, same text),
     * which is what a clustered store relies on.
     */
    @Test
    void the_same_subject_under_another_kind_or_realm_is_another_entry() {
        GateKeys keys = new GateKeys(r -> "secret".getBytes(StandardCharsets.UTF_8));
        for (String addr : List.of("198.51.100.1", "2001:db8::1", "garbage")) {
            AttemptKeys k = keys.forAttempt("realm-a", addr, "alice", P64);
            List<CounterKey> built = List.of(k.address(), k.pair(), k.lockout(), k.forDevice("d").lockout(),
                    GateKeys.used("realm-a", new byte[16]));
            assertThat(built.stream().map(CounterKey::kind)).containsExactly(CounterKey.Kind.ADDRESS, CounterKey.Kind.PAIR,
                    CounterKey.Kind.ACCOUNT, CounterKey.Kind.DEVICE, CounterKey.Kind.USED);
            assertThat(built).doesNotHaveDuplicates();
            assertThat(built.stream().map(CounterKey::toString).distinct().count()).isEqualTo(built.size());
            assertThat(built.stream().map(CounterKey::storeKey).distinct().count()).isEqualTo(built.size());
            for (CounterKey subject : built) {
                java.util.Set<String> texts = new java.util.HashSet<>();
                java.util.Set<String> storeKeys = new java.util.HashSet<>();
                java.util.Set<CounterKey> all = new java.util.HashSet<>();
                for (String realm : List.of("realm-a", "realm-b")) {
                    for (CounterKey.Kind kind : CounterKey.Kind.values()) {
                        CounterKey same = new CounterKey(realm, kind, subject.shape(), subject.hi(), subject.lo());
                        all.add(same);
                        texts.add(same.toString());
                        storeKeys.add(same.storeKey());
                        if (realm.equals(subject.realm()) && kind == subject.kind()) {
                            assertThat(same).isEqualTo(subject).hasSameHashCodeAs(subject).hasToString(subject.toString());
                        }
                    }
                }
                assertThat(all).as("%s under every kind and realm", subject).hasSize(2 * CounterKey.Kind.values().length);
                assertThat(texts).as("%s under every kind and realm", subject).hasSize(2 * CounterKey.Kind.values().length);
                assertThat(storeKeys).as("store keys of %s under every kind and realm", subject)
                        .hasSize(2 * CounterKey.Kind.values().length)
                        .allSatisfy(key -> assertThat(key).doesNotContain("realm-").doesNotContain("alice"));
            }
        }
    }

    @Test
    void pair_keys_are_one_per_address_and_identifier() {
        GateKeys keys = new GateKeys(r -> "secret".getBytes(StandardCharsets.UTF_8));
        // numerically alike across shapes and words: 1.2.3.4 is 0x01020304, as are these IPv6 words
        List<String> addresses = List.of("1.2.3.4", "::102:304", "102:304::", "0:0:102:304::", "::ffff:1.2.3.5",
                "2001:db8::1", "2001:db8::2", "2001:db8:0:1::1", "garbage", "not-an-ip");
        for (int prefix : new int[] {48, 64, 96, 128}) {
            java.util.Map<CounterKey, String> owner = new java.util.HashMap<>();
            java.util.Map<CounterKey, String> ipOwner = new java.util.HashMap<>();
            for (String address : addresses) {
                for (String identifier : List.of("alice", "bob", "Alice")) {
                    AttemptKeys k = keys.forAttempt("realm-a", address, identifier, prefix);
                    String who = k.address() + " " + GateKeys.normalizeIdentifier(identifier);
                    String before = owner.putIfAbsent(k.pair(), who);
                    assertThat(before == null || before.equals(who)).as("/%d: %s and %s share a pair key", prefix, before, who).isTrue();
                    ipOwner.putIfAbsent(k.address(), address);
                }
            }
            // exactly one pair key per (address counter, identifier): as many as address counters times two
            assertThat(owner).as("/%d", prefix).hasSize(ipOwner.size() * 2);
        }
        assertThat(keys.forAttempt("realm-a", "2001:db8::1", "bob", 64).pair())
                .as("hosts of one /64 share the pair").isEqualTo(keys.forAttempt("realm-a", "2001:db8::2", "bob", 64).pair());
    }
}
