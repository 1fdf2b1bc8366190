package dev.abusegate.engine;

import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.InvalidOptionException;
import dev.abusegate.engine.keys.DeviceTokens;
import static dev.abusegate.engine.GateFixture.REALM;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The options that refine the lockout and the address layers: a device cookie keeps the owner in while strangers
 * have the account locked; a repeated identical wrong password never locks; consecutive locks grow up to a cap;
 * an allowlisted address skips layers 1, 2 and 4 but never layer 3.
 */
class LockoutRefinementsAndAllowlistTest {

    private static final byte[] DEVICE_KEY = "device-key-for-tests-0123456789ab".getBytes(StandardCharsets.UTF_8);

    @Nested
    class DeviceCookies {

        private final GateFixture f = new GateFixture();
        private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 3, 900).lockoutSeconds(600)
                .deviceCookie(true, 2, 30).build();

        private String deviceOf(String token, String identifier) {
            return DeviceTokens.verify(DEVICE_KEY, token, f.gate.identifierTag(REALM, identifier), f.clock.millis() / 1000);
        }

        private String issue(String identifier) {
            return DeviceTokens.issue(DEVICE_KEY, f.gate.identifierTag(REALM, identifier),
                    f.clock.millis() / 1000 + 30 * 86_400, new SecureRandom());
        }

        private Decision withDevice(String address, String identifier, String device) {
            return f.gate.evaluate(options, new Attempt(REALM, address, identifier, false, device));
        }

        @Test
        void the_owner_with_a_device_cookie_logs_in_while_an_attacker_has_the_account_locked() {
            String token = issue("alice");
            for (int i = 1; i <= 3; i++) {
                f.wrongPassword(options, "198.51.100." + i, "alice");
            }
            assertThat(f.evaluate(options, "198.51.100.9", "alice").outcome()).isEqualTo(Outcome.BLOCKED);

            Decision owner = withDevice("192.0.2.7", "alice", deviceOf(token, "alice"));

            assertThat(owner.outcome()).isEqualTo(Outcome.ALLOW);
            f.gate.passwordSucceeded(owner);
            assertThat(f.evaluate(options, "198.51.100.9", "alice").outcome())
                    .as("the owner's login does not lift the lock strangers earned").isEqualTo(Outcome.BLOCKED);
        }

        @Test
        void a_stolen_cookie_gives_no_more_than_its_own_budget_and_never_touches_the_account_budget() {
            String device = deviceOf(issue("alice"), "alice");
            for (int i = 0; i < 2; i++) {
                Decision d = withDevice("203.0.113.5", "alice", device);
                assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
                f.gate.passwordFailed(d);
            }
            assertThat(withDevice("203.0.113.5", "alice", device).outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(f.failures(options, "alice")).as("the account's shared budget").isZero();
            assertThat(f.evaluate(options, "192.0.2.8", "alice").outcome()).isEqualTo(Outcome.ALLOW);
        }

        @Test
        void forged_expired_and_other_account_cookies_give_nothing() {
            String token = issue("alice");
            String forged = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "BB" : "AA");
            assertThat(deviceOf(forged, "alice")).isNull();
            assertThat(deviceOf(token, "bob")).as("bound to alice, presented for bob").isNull();
            assertThat(DeviceTokens.verify("another-realm-key-xxxxxxxxxxxxxx".getBytes(StandardCharsets.UTF_8), token,
                    f.gate.identifierTag(REALM, "alice"), f.clock.millis() / 1000)).isNull();
            f.clock.advanceSeconds(31 * 86_400L);
            assertThat(deviceOf(token, "alice")).as("expired").isNull();
            for (String garbage : new String[] {"", "v1", "v1.a.b.c.d", "x".repeat(10_000), "v2.a.b.1.s"}) {
                assertThat(deviceOf(garbage, "alice")).isNull();
            }
        }

        @Test
        void without_the_option_a_device_id_changes_nothing() {
            GateOptions off = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
            for (int i = 1; i <= 3; i++) {
                f.wrongPassword(off, "198.51.100." + i, "alice");
            }
            assertThat(f.gate.evaluate(off, new Attempt(REALM, "192.0.2.7", "alice", false, "some-device")).outcome())
                    .isEqualTo(Outcome.BLOCKED);
        }
    }

    @Nested
    class RepeatedIdenticalWrongPasswords {

        private final GateFixture f = new GateFixture();
        private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 3, 900).ignoreRepeatedPasswords(true).build();

        private Decision fail(String address, long tag) {
            Decision d = f.evaluate(options, address, "alice");
            if (d.allowed()) {
                f.gate.passwordFailed(d, tag);
            }
            return d;
        }

        @Test
        void the_same_typo_repeated_never_locks() {
            for (int i = 0; i < 20; i++) {
                assertThat(fail("192.0.2." + (i % 5 + 1), 0x5eed_5eedL).outcome()).as("attempt " + (i + 1)).isEqualTo(Outcome.ALLOW);
            }
            assertThat(f.failures(options, "alice")).isEqualTo(1);
        }

        @Test
        void different_wrong_passwords_still_lock() {
            fail("192.0.2.1", 11);
            fail("192.0.2.1", 12);
            fail("192.0.2.1", 13);
            assertThat(f.evaluate(options, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }

        @Test
        void without_the_option_repeats_count() {
            GateOptions off = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
            for (int i = 0; i < 3; i++) {
                Decision d = f.evaluate(off, "192.0.2.1", "alice");
                f.gate.passwordFailed(d, 42);
            }
            assertThat(f.evaluate(off, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }
    }

    @Nested
    class ProgressiveLockout {

        private final GateFixture f = new GateFixture();
        private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60)
                .progressiveLockout(3.0, 600).build();

        private void lockAlice() {
            f.wrongPassword(options, "192.0.2.1", "alice");
            f.wrongPassword(options, "192.0.2.1", "alice");
            assertThat(f.evaluate(options, "192.0.2.1", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }

        private long lockSeconds() {
            long start = f.clock.millis();
            Decision probe;
            while ((probe = f.evaluate(options, "192.0.2.1", "alice")).outcome() == Outcome.BLOCKED) {
                f.clock.advanceSeconds(1);
            }
            f.gate.notVerified(probe); // a probe, not a login: give its reservation back
            return (f.clock.millis() - start) / 1000;
        }

        @Test
        void each_consecutive_lock_lasts_longer_up_to_the_cap() {
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(60);
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(180);
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(540);
            lockAlice();
            assertThat(lockSeconds()).as("capped").isEqualTo(600);
        }

        @Test
        void a_success_resets_the_progression() {
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(60);
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(180);
            Decision ok = f.evaluate(options, "192.0.2.1", "alice");
            f.gate.passwordSucceeded(ok);
            lockAlice();
            assertThat(lockSeconds()).isEqualTo(60);
        }

        @Test
        void the_default_is_a_fixed_lock() {
            GateOptions fixed = only(Layer.ACCOUNT_LOCKOUT, 2, 900).lockoutSeconds(60).build();
            for (int round = 0; round < 3; round++) {
                f.wrongPassword(fixed, "192.0.2.1", "bob");
                f.wrongPassword(fixed, "192.0.2.1", "bob");
                long start = f.clock.millis();
                Decision probe;
                while ((probe = f.evaluate(fixed, "192.0.2.1", "bob")).outcome() == Outcome.BLOCKED) {
                    f.clock.advanceSeconds(1);
                }
                f.gate.notVerified(probe);
                assertThat((f.clock.millis() - start) / 1000).isEqualTo(60);
            }
        }

        @Test
        void bad_progressive_values_are_rejected_naming_the_key() {
            assertThatThrownBy(() -> GateOptions.builder().progressiveLockout(0.5, 600).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("accountLockout.progressiveFactor");
            assertThatThrownBy(() -> GateOptions.builder().progressiveLockout(2, 0).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("accountLockout.maxLockoutSeconds");
            assertThatThrownBy(() -> GateOptions.builder().deviceCookie(true, 0, 30).build())
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("deviceCookie.threshold");
        }
    }

    @Nested
    class AllowlistedAddresses {

        private final GateFixture f = new GateFixture();

        @Test
        void an_allowlisted_address_is_never_blocked_by_layers_1_2_and_4() {
            GateOptions o = GateOptions.builder().captchaEnabled(false)
                    .layer(Layer.PER_IP, 2, 300).layer(Layer.PER_IP_ACCOUNT, 2, 300).layer(Layer.CREDENTIAL_STUFFING, 2, 300)
                    .disable(Layer.ACCOUNT_LOCKOUT)
                    .allowlist(Allowlist.parse("203.0.113.0/24, 2001:db8:1::/48")).build();
            for (int i = 0; i < 30; i++) {
                assertThat(f.evaluate(o, "203.0.113.77", "user" + (i % 7)).outcome()).isEqualTo(Outcome.ALLOW);
                assertThat(f.evaluate(o, "2001:db8:1:2::99", "user" + (i % 7)).outcome()).isEqualTo(Outcome.ALLOW);
                assertThat(f.evaluate(o, "::ffff:203.0.113.9", "same").outcome()).isEqualTo(Outcome.ALLOW);
            }
            assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).isEqualTo(Outcome.ALLOW);
            assertThat(f.evaluate(o, "203.0.114.1", "a").outcome()).as("outside the range").isEqualTo(Outcome.BLOCKED);
        }

        @Test
        void layer_3_still_applies_to_an_allowlisted_address() {
            GateOptions o = only(Layer.ACCOUNT_LOCKOUT, 2, 900).allowlist(Allowlist.parse("192.0.2.0/24")).build();
            f.wrongPassword(o, "192.0.2.5", "alice");
            f.wrongPassword(o, "192.0.2.5", "alice");
            assertThat(f.evaluate(o, "192.0.2.5", "alice").outcome()).isEqualTo(Outcome.BLOCKED);
        }

        @Test
        void invalid_cidrs_are_rejected_with_a_clear_message() {
            for (String bad : new String[] {"10.0.0.0/33", "300.1.1.1", "2001:db8::/129", "example.com", "10.0.0.0/x", "1.2.3.4/-1",
                    "[2001:db8::]/32", "fe80::%eth0/10", "[::1]", "[1.2.3.4]/24"}) {
                assertThatThrownBy(() -> Allowlist.parse(bad)).as(bad)
                        .isInstanceOf(InvalidOptionException.class)
                        .hasMessageContaining("allowlist.cidrs").hasMessageContaining(bad.split("/")[0]);
            }
            assertThat(Allowlist.parse(" 10.0.0.0/8,192.168.1.1\n2001:db8::/32 ").contains("10.200.3.4")).isTrue();
            assertThat(Allowlist.parse("0.0.0.0/0").contains("198.51.100.1")).isTrue();
            assertThat(Allowlist.parse("0.0.0.0/0").contains("2001:db8::1")).as("an IPv4 range never matches IPv6").isFalse();
            assertThat(Allowlist.parse("10.0.0.0/8").contains("not an address")).isFalse();
            for (String form : new String[] {"::1", "[::1]", "::1%lo", " ::1 "}) {
                assertThat(Allowlist.parse("::1/128").contains(form)).as(form).isTrue();
            }
            for (String garbled : new String[] {"[[[::1]]]", " [ ::1 ] ", "[::1]%x", "[[[10.1.2.3]]]"}) {
                assertThat(Allowlist.parse("::1/128, 10.0.0.0/8").contains(garbled)).as(garbled).isFalse();
            }
        }
    }
}
