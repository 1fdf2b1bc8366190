package dev.abusegate.engine;

import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.keys.DeviceTokens;
import static dev.abusegate.engine.GateFixture.REALM;
import static dev.abusegate.engine.GateFixture.only;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A device cookie keeps the owner in while strangers have the account locked, and gives a thief no more than its own small budget. */
class DeviceCookieLockoutTest {

    private static final byte[] DEVICE_KEY = "device-key-for-tests-0123456789ab".getBytes(StandardCharsets.UTF_8);

    private final GateFixture f = new GateFixture();
    private final GateOptions options = only(Layer.ACCOUNT_LOCKOUT, 3, 900).lockoutSeconds(600)
            .deviceCookie(true, 2, 30).build();

    /** The device id of a token presented for {@code identifier}, when it is genuine and binds that name. */
    private String deviceOf(String token, String identifier) {
        DeviceTokens.Verified v = DeviceTokens.verify(DEVICE_KEY, REALM, token, f.gate.identifierTag(REALM, identifier),
                f.clock.millis() / 1000);
        return v == null ? null : v.deviceId();
    }

    /** A token for the account whose only login name is {@code identifier}. */
    private String issue(String identifier) {
        return DeviceTokens.issue(DEVICE_KEY, REALM, new DeviceTokens.Binding(DeviceTokens.accountTag(DEVICE_KEY, identifier + "-id"),
                List.of(f.gate.identifierTag(REALM, identifier))), f.clock.millis() / 1000 + 30 * 86_400, new SecureRandom());
    }

    private Decision withDevice(String address, String identifier, String device) {
        return GateFixture.evaluate(f.gate, options, new Attempt(REALM, address, identifier, device), null);
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
        f.gate.passwordSucceeded(owner, java.util.List.of());
        assertThat(f.evaluate(options, "198.51.100.9", "alice").outcome())
                .as("the owner's login does not lift the lock strangers earned").isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void a_stolen_cookie_gives_no_more_than_its_own_budget_and_never_touches_the_account_budget() {
        String device = deviceOf(issue("alice"), "alice");
        for (int i = 0; i < 2; i++) {
            Decision d = withDevice("203.0.113.5", "alice", device);
            assertThat(d.outcome()).isEqualTo(Outcome.ALLOW);
            f.gate.passwordFailed(d, 0L, java.util.List.of());
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
        assertThat(DeviceTokens.verify("another-realm-key-xxxxxxxxxxxxxx".getBytes(StandardCharsets.UTF_8), REALM, token,
                f.gate.identifierTag(REALM, "alice"), f.clock.millis() / 1000)).isNull();
        f.clock.advanceSeconds(31 * 86_400L);
        assertThat(deviceOf(token, "alice")).as("expired").isNull();
        for (String garbage : new String[] {"", "v1", "v1.a.b.c.d", "x".repeat(10_000), "v2.a.b.1.s", "v2.a.b.c.1.s"}) {
            assertThat(deviceOf(garbage, "alice")).isNull();
        }
    }

    @Test
    void without_the_option_a_device_id_changes_nothing() {
        GateOptions off = only(Layer.ACCOUNT_LOCKOUT, 3, 900).build();
        for (int i = 1; i <= 3; i++) {
            f.wrongPassword(off, "198.51.100." + i, "alice");
        }
        assertThat(GateFixture.evaluate(f.gate, off, new Attempt(REALM, "192.0.2.7", "alice", "some-device"), null).outcome())
                .isEqualTo(Outcome.BLOCKED);
    }
}
