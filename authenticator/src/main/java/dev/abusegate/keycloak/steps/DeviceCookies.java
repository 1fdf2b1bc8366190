package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.keys.DeviceTokens;
import dev.abusegate.engine.keys.Hmac;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.NewCookie;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.ModelDuplicateException;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.utils.KeycloakModelUtils;

/**
 * The device cookie: HttpOnly, Secure, SameSite=Strict, scoped to the realm's path, signed with a key
 * derived from the realm's own HMAC key. It carries keyed tags of the account's id and login names (never a name or
 * the id) and a random device id; see {@link DeviceTokens}.
 */
final class DeviceCookies {

    static final String NAME = "KC_ABUSE_GATE_DEVICE";

    private DeviceCookies() {
    }

    /**
     * The device id of a genuine cookie for the account the typed name belongs to, or null. The name is looked for
     * among the cookie's login names first, with no lookup; only a cookie that holds it costs a lookup of the
     * account the name belongs to now, whose id must be the one the cookie was issued for (a name that has passed
     * to another account does not carry the cookie over).
     */
    static String deviceOf(AuthenticationFlowContext ctx, AbuseGate gate, byte[] key, String identifier) {
        if (identifier == null || identifier.isBlank()) {
            return null;
        }
        Map<String, Cookie> cookies = ctx.getHttpRequest().getHttpHeaders().getCookies();
        Cookie cookie = cookies == null ? null : cookies.get(NAME);
        if (cookie == null) {
            return null;
        }
        RealmModel realm = ctx.getRealm();
        DeviceTokens.Verified v = DeviceTokens.verify(key, realm.getId(), cookie.getValue(),
                gate.identifierTag(realm.getId(), identifier), System.currentTimeMillis() / 1000);
        if (v == null) {
            return null;
        }
        UserModel user;
        try {
            user = ctx.getUser() != null ? ctx.getUser()
                    : KeycloakModelUtils.findUserByNameOrEmail(ctx.getSession(), realm, identifier.trim());
        } catch (ModelDuplicateException e) {
            return null; // an e-mail two accounts share names neither: Keycloak's own check answers it
        }
        return user != null && v.boundTo(key, user.getId()) ? v.deviceId() : null;
    }

    /**
     * Issues (or renews, keeping the device id) the cookie after a successful login of {@code user}, bound to its id
     * and to its login names now.
     */
    static void issue(AuthenticationFlowContext ctx, AbuseGate gate, byte[] key, UserModel user, String device, int days) {
        RealmModel realm = ctx.getRealm();
        List<String> names = AccountNames.of(realm, user);
        if (names.isEmpty()) {
            return;
        }
        List<String> tags = new ArrayList<>(names.size());
        for (String name : names) {
            tags.add(gate.identifierTag(realm.getId(), name));
        }
        DeviceTokens.Binding binding = new DeviceTokens.Binding(DeviceTokens.accountTag(key, user.getId()), tags);
        long expires = System.currentTimeMillis() / 1000 + days * 86_400L;
        String token = device == null
                ? DeviceTokens.issue(key, realm.getId(), binding, expires, new SecureRandom())
                : DeviceTokens.issue(key, realm.getId(), binding, device, expires);
        NewCookie cookie = new NewCookie.Builder(NAME)
                .value(token)
                .path(ctx.getSession().getContext().getUri().getBaseUriBuilder().path("realms").path(realm.getName())
                        .build().getRawPath() + "/")
                .maxAge((int) Math.min(Integer.MAX_VALUE, days * 86_400L))
                .httpOnly(true)
                .secure(true)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
        ctx.getSession().getContext().getHttpResponse().setCookieIfAbsent(cookie);
    }

    /** A keyed 64-bit tag of a wrong password for one identifier: never the password, never a plain hash. */
    static long passwordTag(byte[] key, Decision decision, String password) {
        byte[] d = Hmac.sha256(key, decision.identifierTag().orElseThrow().getBytes(StandardCharsets.UTF_8), new byte[] {0},
                password.getBytes(StandardCharsets.UTF_8));
        long tag = 0;
        for (int i = 0; i < 8; i++) {
            tag = (tag << 8) | (d[i] & 0xffL);
        }
        return tag == 0 ? 1 : tag;
    }
}
