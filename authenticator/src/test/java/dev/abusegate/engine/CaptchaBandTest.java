package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CaptchaBandTest {

    private final GateFixture f = new GateFixture();

    @Test
    void past_half_the_threshold_humans_solve_a_captcha_and_proceed_bots_stall() {
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 6, 300).build(); // captcha on, factor 0.5
        String ip = "198.51.100.80";

        for (int i = 1; i <= 3; i++) {
            assertThat(f.wrongPassword(o, ip, "alice").outcome()).as("free attempt %d", i).isEqualTo(Outcome.ALLOW);
        }

        Decision challenge = f.evaluate(o, ip, "alice");
        assertThat(challenge.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(challenge.layer()).isEqualTo(Layer.PER_IP);
        assertThat(challenge.outcome().code()).isEqualTo("captcha_required");

        SubjectState before = GateFixture.state(f.gate, GateFixture.REALM, ip, "alice", o.ipv6PrefixLength());
        for (int i = 0; i < 50; i++) {
            Decision wrong = GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "alice"), null); // wrong or missing solution
            assertThat(wrong.outcome()).as("challenged again, never escalated").isEqualTo(Outcome.CAPTCHA_REQUIRED);
            f.gate.passwordFailed(wrong, 0L, java.util.List.of()); // nothing to settle
        }
        assertThat(GateFixture.state(f.gate, GateFixture.REALM, ip, "alice", o.ipv6PrefixLength())).as("a captcha answer counts nothing")
                .isEqualTo(before);
        assertThat(f.perIpCount(o, ip)).isEqualTo(3);
        assertThat(f.failures(o, "alice")).isEqualTo(3);

        Decision solved = GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "alice"), GateFixture.SOLVED);
        assertThat(solved.outcome()).as("a solved captcha lets the attempt through").isEqualTo(Outcome.ALLOW);
        f.gate.passwordSucceeded(solved, java.util.List.of());
        assertThat(f.perIpCount(o, ip)).isEqualTo(4);
    }

    @Test
    void past_the_threshold_a_solved_captcha_is_still_blocked() {
        GateOptions o = TestOptions.builder().layer(Layer.PER_IP, 4, 300).build();
        String ip = "198.51.100.81";
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(f.evaluate(o, ip, "a").outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "a"), GateFixture.SOLVED).outcome()).isEqualTo(Outcome.ALLOW);
        assertThat(GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "a"), GateFixture.SOLVED).outcome()).isEqualTo(Outcome.ALLOW);
        Decision hard = GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "a"), GateFixture.SOLVED);
        assertThat(hard.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(hard.layer()).isEqualTo(Layer.PER_IP);
        assertThat(f.evaluate(o, ip, "a").outcome()).as("unsolved past the threshold: blocked, not challenged")
                .isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void the_band_applies_to_each_layer() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5)
                .layer(Layer.PER_IP, 1000, 300).layer(Layer.PER_IP_ACCOUNT, 1000, 900)
                .layer(Layer.ACCOUNT_LOCKOUT, 4, 900).layer(Layer.CREDENTIAL_STUFFING, 4, 600).build();
        // layer 3: two failures from anywhere put the account in the band
        f.wrongPassword(o, "198.51.100.1", "alice");
        f.wrongPassword(o, "198.51.100.2", "alice");
        Decision d3 = f.evaluate(o, "198.51.100.3", "alice");
        assertThat(d3.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(d3.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
        // layer 4: two distinct identifiers from one address
        f.evaluate(o, "198.51.100.9", "x1");
        f.evaluate(o, "198.51.100.9", "x2");
        Decision d4 = f.evaluate(o, "198.51.100.9", "x3");
        assertThat(d4.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(d4.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        // layer 2
        GateOptions o2 = TestOptions.builder().layer(Layer.PER_IP_ACCOUNT, 2, 900).build();
        f.evaluate(o2, "198.51.100.20", "zed");
        Decision d2 = f.evaluate(o2, "198.51.100.20", "zed");
        assertThat(d2.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(d2.layer()).isEqualTo(Layer.PER_IP_ACCOUNT);
    }

    @Test
    void factor_one_means_no_band_before_the_hard_limit() {
        GateOptions o = TestOptions.builder().captchaFactor(1.0).layer(Layer.PER_IP, 3, 300).build();
        for (int i = 0; i < 3; i++) {
            assertThat(f.evaluate(o, "198.51.100.90", "u" + i).outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.evaluate(o, "198.51.100.90", "u9").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    @Test
    void captcha_disabled_means_no_challenge_ever() {
        GateOptions o = TestOptions.builder().captchaEnabled(false).layer(Layer.PER_IP, 4, 300).build();
        for (int i = 0; i < 4; i++) {
            assertThat(f.evaluate(o, "198.51.100.91", "a").outcome()).isEqualTo(Outcome.ALLOW);
        }
        assertThat(f.evaluate(o, "198.51.100.91", "a").outcome()).isEqualTo(Outcome.BLOCKED);
    }

    /**
     * Layer 4 in the band while layer 1 is not: a wrong captcha counts nothing on the address, so it must not
     * take anything off layer 1's count either.
     */
    @Test
    void a_captcha_mistake_for_layer_4_never_lowers_layer_1s_count() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5).layer(Layer.PER_IP, 10, 300).layer(Layer.CREDENTIAL_STUFFING, 4, 600)
                .disable(Layer.PER_IP_ACCOUNT).disable(Layer.ACCOUNT_LOCKOUT).build();
        String ip = "198.51.100.30";
        f.evaluate(o, ip, "u1");
        f.evaluate(o, ip, "u2");
        assertThat(f.perIpCount(o, ip)).isEqualTo(2);
        Decision mistake = f.evaluate(o, ip, "u3");
        assertThat(mistake.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(mistake.layer()).isEqualTo(Layer.CREDENTIAL_STUFFING);
        assertThat(f.perIpCount(o, ip)).as("layer 1's count after a wrong captcha").isEqualTo(2);
    }

    /** So interleaving wrong captchas with solved attempts cannot get more than layer 1's threshold through. */
    @Test
    void wrong_captchas_in_between_never_let_more_than_layer_1s_threshold_through() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5).layer(Layer.PER_IP, 6, 300).layer(Layer.CREDENTIAL_STUFFING, 2, 600)
                .disable(Layer.PER_IP_ACCOUNT).disable(Layer.ACCOUNT_LOCKOUT).build();
        String ip = "198.51.100.31";
        int allowed = 0;
        for (int i = 0; i < 20; i++) {
            if (GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "u1"), GateFixture.SOLVED).allowed()) {
                allowed++;
            }
            f.evaluate(o, ip, "u2"); // a second identifier without a captcha: asked for one (layer 4's band)
        }
        assertThat(allowed).as("solved attempts let through within one window, threshold 6").isEqualTo(6);
    }

    /**
     * A wrong captcha changes nothing, not even how long a counter lasts: a count made at 0 s is gone after the
     * window (60 s) even when a wrong captcha was answered at 59 s.
     */
    @Test
    void a_captcha_mistake_never_keeps_a_counter_alive_past_its_window() {
        GateOptions o = TestOptions.builder().captchaFactor(0.5).layer(Layer.PER_IP, 100, 60).layer(Layer.PER_IP_ACCOUNT, 10, 60)
                .layer(Layer.ACCOUNT_LOCKOUT, 2, 60).lockoutSeconds(60).disable(Layer.CREDENTIAL_STUFFING).build();
        String ip = "198.51.100.32";
        for (int i = 0; i < 4; i++) {
            f.gate.passwordSucceeded(GateFixture.evaluate(f.gate, o, GateFixture.attempt(ip, "alice"), GateFixture.SOLVED), java.util.List.of());
        }
        f.clock.advanceSeconds(59);
        f.wrongPassword(o, "203.0.113.32", "alice"); // one failure from elsewhere: alice is in layer 3's band
        SubjectState before = GateFixture.state(f.gate, GateFixture.REALM, ip, "alice", o.ipv6PrefixLength());
        Decision mistake = f.evaluate(o, ip, "alice");
        assertThat(mistake.outcome()).isEqualTo(Outcome.CAPTCHA_REQUIRED);
        assertThat(mistake.layer()).isEqualTo(Layer.ACCOUNT_LOCKOUT);
        assertThat(GateFixture.state(f.gate, GateFixture.REALM, ip, "alice", o.ipv6PrefixLength())).isEqualTo(before);
        f.clock.advanceSeconds(2);
        assertThat(f.perIpCount(o, ip)).as("layer 1's count, 61 s after it was made").isZero();
        assertThat(f.pairCount(o, ip, "alice")).as("layer 2's count, 61 s after it was made").isZero();
    }
}
