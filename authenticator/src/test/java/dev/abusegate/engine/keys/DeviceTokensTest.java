package dev.abusegate.engine.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A device token is recognised under each of the account's login names, and under nothing it was not signed for. */
class DeviceTokensTest {

    private static final byte[] KEY = "device-key-for-tests-0123456789ab".getBytes(StandardCharsets.UTF_8);
    private static final String REALM = "realm-1";
    private static final long NOW = 1_800_000_000L;
    private static final String DEVICE = "AAECAwQFBgcICQoLDA0ODw";
    private static final String USERNAME_TAG = tag(1);
    private static final String EMAIL_TAG = tag(2);
    private static final String ACCOUNT = DeviceTokens.accountTag(KEY, "user-id-1");

    /** A distinct, well-formed 128-bit name tag. */
    private static String tag(int n) {
        byte[] raw = new byte[16];
        raw[15] = (byte) n;
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    private static String token() {
        return DeviceTokens.issue(KEY, REALM, new DeviceTokens.Binding(ACCOUNT, List.of(USERNAME_TAG, EMAIL_TAG)), DEVICE, NOW + 3600);
    }

    @Test
    void a_token_is_recognised_under_the_username_and_the_email_and_names_its_device_and_account() {
        for (String name : List.of(USERNAME_TAG, EMAIL_TAG)) {
            DeviceTokens.Verified v = DeviceTokens.verify(KEY, REALM, token(), name, NOW);
            assertThat(v).isNotNull();
            assertThat(v.deviceId()).isEqualTo(DEVICE);
            assertThat(v.accountTag()).isEqualTo(ACCOUNT);
            assertThat(v.boundTo(KEY, "user-id-1")).isTrue();
            assertThat(v.boundTo(KEY, "user-id-2")).as("another account").isFalse();
        }
        assertThat(DeviceTokens.verify(KEY, REALM, token(), tag(3), NOW)).as("a name the token does not hold").isNull();
    }

    @Test
    void the_account_tag_is_keyed_and_never_the_id() {
        assertThat(ACCOUNT).doesNotContain("user-id-1").hasSize(22);
        assertThat(DeviceTokens.accountTag(KEY, "user-id-2")).isNotEqualTo(ACCOUNT);
        assertThat(DeviceTokens.accountTag("another-key-0123456789abcdefghij".getBytes(StandardCharsets.UTF_8), "user-id-1"))
                .isNotEqualTo(ACCOUNT);
        assertThat(token()).doesNotContain("user-id-1");
    }

    @Test
    void rearranged_parts_fail_the_signature() {
        String[] p = token().split("\\.");
        // the two name tags swapped, the account tag and a name tag swapped, the device id and the account swapped
        String names = p[2].split("~")[1] + "~" + p[2].split("~")[0];
        for (String[] q : new String[][] {
                {p[0], p[1], names, p[3], p[4], p[5]},
                {p[0], USERNAME_TAG, ACCOUNT + "~" + EMAIL_TAG, p[3], p[4], p[5]},
                {p[0], p[3], p[2], p[1], p[4], p[5]},
                {p[0], p[1], USERNAME_TAG, p[3], p[4], p[5]},
                {p[0], p[1], p[2], p[3], Long.toString(NOW + 999_999), p[5]}}) {
            assertThat(DeviceTokens.verify(KEY, REALM, String.join(".", q), USERNAME_TAG, NOW)).as(String.join(".", q)).isNull();
        }
    }

    @Test
    void a_token_from_another_realm_or_key_or_past_its_expiry_gives_nothing() {
        assertThat(DeviceTokens.verify(KEY, "realm-2", token(), USERNAME_TAG, NOW)).as("another realm id").isNull();
        assertThat(DeviceTokens.verify("another-key-0123456789abcdefghij".getBytes(StandardCharsets.UTF_8), REALM, token(),
                USERNAME_TAG, NOW)).as("another key").isNull();
        assertThat(DeviceTokens.verify(KEY, REALM, token(), USERNAME_TAG, NOW + 3600)).as("expired").isNull();
    }

    @Test
    void malformed_tokens_give_nothing_and_never_throw() {
        String good = token();
        String sig = good.substring(good.lastIndexOf('.') + 1);
        for (String bad : new String[] {
                null, "", ".", ".....", "v2", "v1." + USERNAME_TAG + "." + DEVICE + "." + (NOW + 3600) + "." + sig,
                good + ".", good.replace("v2.", "v3."), good.replace("~", "~~"), "x".repeat(10_000),
                good.replace(Long.toString(NOW + 3600), "soon")}) {
            assertThat(DeviceTokens.verify(KEY, REALM, bad, USERNAME_TAG, NOW)).as(String.valueOf(bad)).isNull();
        }
        // well signed, but not the shape issue() makes: a short device id, three names, a padded tag
        for (String body : new String[] {
                "v2." + ACCOUNT + "." + USERNAME_TAG + ".AAEC." + (NOW + 3600),
                "v2." + ACCOUNT + "." + USERNAME_TAG + "~" + EMAIL_TAG + "~" + tag(3) + "." + DEVICE + "." + (NOW + 3600),
                "v2." + ACCOUNT + "." + USERNAME_TAG + "==." + DEVICE + "." + (NOW + 3600)}) {
            String signed = body + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    Hmac.sha256(KEY, REALM.getBytes(StandardCharsets.UTF_8), new byte[] {0}, body.getBytes(StandardCharsets.UTF_8)));
            assertThat(DeviceTokens.verify(KEY, REALM, signed, USERNAME_TAG, NOW)).as(body).isNull();
        }
    }

    @Test
    void a_token_names_one_or_two_login_names() {
        assertThat(DeviceTokens.verify(KEY, REALM, DeviceTokens.issue(KEY, REALM, new DeviceTokens.Binding(ACCOUNT, List.of(USERNAME_TAG)), DEVICE, NOW + 60),
                USERNAME_TAG, NOW)).isNotNull();
        assertThatThrownBy(() -> DeviceTokens.issue(KEY, REALM, new DeviceTokens.Binding(ACCOUNT, List.of()), DEVICE, NOW + 60))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DeviceTokens.issue(KEY, REALM, new DeviceTokens.Binding(ACCOUNT, List.of(USERNAME_TAG, EMAIL_TAG, tag(3))), DEVICE, NOW + 60))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
