package dev.abusegate.keycloak.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.config.Layer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.keycloak.authentication.FlowStatus;

/**
 * The HTTP Basic steps read the header as Keycloak's own step does (so the gate counts the name Keycloak checks),
 * classify Keycloak's outcome for layer 3 from its status and event error, and give one Retry-After for every layer.
 */
class GatedHttpBasicStepTest {

    private static String basic(String raw) {
        return "Basic " + Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void the_username_is_what_comes_before_the_first_colon_and_the_password_may_hold_colons() {
        GatedHttpBasicStep.Credentials c = GatedHttpBasicStep.Credentials.of(List.of(basic("alice:pa:ss")));
        assertThat(c.username).isEqualTo("alice");
        assertThat(c.password).isEqualTo("pa:ss");
        assertThat(GatedHttpBasicStep.Credentials.of(List.of(basic("alice:"))).password).isEmpty();
    }

    @Test
    void no_basic_credentials_are_left_to_keycloak() {
        assertThat(GatedHttpBasicStep.Credentials.of(null)).isNull();
        assertThat(GatedHttpBasicStep.Credentials.of(List.of())).isNull();
        assertThat(GatedHttpBasicStep.Credentials.of(List.of("Bearer abc"))).isNull();
        assertThat(GatedHttpBasicStep.Credentials.of(List.of("Basic a b"))).as("not two words, as Keycloak reads it").isNull();
    }

    @Test
    void the_last_basic_header_counts_as_for_keycloak() {
        GatedHttpBasicStep.Credentials c = GatedHttpBasicStep.Credentials.of(List.of(basic("decoy:x"), "Bearer t", basic("alice:pw")));
        assertThat(c.username).isEqualTo("alice");
    }

    @Test
    void a_header_without_a_password_or_not_base64_has_no_password() {
        assertThat(GatedHttpBasicStep.Credentials.of(List.of(basic("alice"))).password).isNull();
        GatedHttpBasicStep.Credentials bad = GatedHttpBasicStep.Credentials.of(List.of("Basic QQ=Q"));
        assertThat(bad).isNotNull();
        assertThat(bad.password).isNull();
    }

    @Test
    void keycloaks_outcome_feeds_layer_3() {
        assertThat(GatedHttpBasicStep.outcome(FlowStatus.SUCCESS, null)).isEqualTo(Verification.VERIFIED);
        assertThat(GatedHttpBasicStep.outcome(FlowStatus.FAILED, "invalid_user_credentials")).isEqualTo(Verification.FAILED);
        assertThat(GatedHttpBasicStep.outcome(FlowStatus.ATTEMPTED, null)).as("an unknown name (ECP checks nothing for it)")
                .isEqualTo(Verification.FAILED);
        assertThat(GatedHttpBasicStep.outcome(FlowStatus.FAILED, "user_disabled")).as("the right password, a disabled account")
                .isEqualTo(Verification.NOT_VERIFIED);
        assertThat(GatedHttpBasicStep.outcome(FlowStatus.FAILED, "user_temporarily_disabled"))
                .isEqualTo(Verification.NOT_VERIFIED);
    }

    @Test
    void retry_after_is_the_longest_enabled_window_whichever_layer_answered() {
        GateOptions options = TestOptions.builder()
                .layer(Layer.PER_IP, 10, 60)
                .layer(Layer.PER_IP_ACCOUNT, 5, 120)
                .layer(Layer.ACCOUNT_LOCKOUT, 3, 300).lockoutSeconds(900)
                .disable(Layer.CREDENTIAL_STUFFING)
                .build();
        assertThat(GatedHttpBasicStep.retryAfterSeconds(options)).isEqualTo(900);
        GateOptions onlyPerIp = TestOptions.from(options).disable(Layer.PER_IP_ACCOUNT).disable(Layer.ACCOUNT_LOCKOUT).build();
        assertThat(GatedHttpBasicStep.retryAfterSeconds(onlyPerIp)).isEqualTo(60);
    }
}
