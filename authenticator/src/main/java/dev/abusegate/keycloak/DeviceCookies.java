package dev.abusegate.keycloak;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.keys.DeviceTokens;
import dev.abusegate.engine.keys.Hmac;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.NewCookie;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.RealmModel;

/**
 * The device cookie: HttpOnly, Secure, SameSite=Strict, scoped to the realm's path, signed with a key
 * derived from the realm's own HMAC key. It carries the account's keyed identifier tag (never the
 * username) and a random device id; see {@link DeviceTokens}.
 */
final class DeviceCookies {

    static final String NAME = "KC_ABUSE_GATE_DEVICE";
    private static final SecureRandom RANDOM = new SecureRandom();

    private DeviceCookies() {
    }

    /** The device id of a genuine cookie bound to this identifier, or null. */
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
        return DeviceTokens.verify(key, cookie.getValue(), gate.identifierTag(realm.getId(), identifier),
                System.currentTimeMillis() / 1000);
    }

    /** Issues (or renews, keeping the device id) the cookie after a successful login. */
    static void issue(AuthenticationFlowContext ctx, AbuseGate gate, byte[] key, String identifier, String device, int days) {
        if (identifier == null || identifier.isBlank()) {
            return;
        }
        RealmModel realm = ctx.getRealm();
        String tag = gate.identifierTag(realm.getId(), identifier);
        long expires = System.currentTimeMillis() / 1000 + days * 86_400L;
        String token = device == null
                ? DeviceTokens.issue(key, tag, expires, RANDOM)
                : DeviceTokens.issue(key, tag, device, expires);
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
        byte[] d = Hmac.sha256(key, decision.identifierTag().getBytes(StandardCharsets.UTF_8), new byte[] {0},
                password.getBytes(StandardCharsets.UTF_8));
        long tag = 0;
        for (int i = 0; i < 8; i++) {
            tag = (tag << 8) | (d[i] & 0xffL);
        }
        return tag == 0 ? 1 : tag;
    }
}
