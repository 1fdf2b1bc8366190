package dev.abusegate.keycloak;

import dev.abusegate.engine.keys.Hmac;
import dev.abusegate.engine.keys.SecretSource;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.SecretKey;
import org.keycloak.crypto.Algorithm;
import org.keycloak.crypto.KeyUse;
import org.keycloak.crypto.KeyWrapper;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.utils.KeycloakSessionUtil;

/**
 * The secret each realm's identifiers are hashed with, derived from the realm's own active HMAC key,
 * which Keycloak generates per realm, stores in its database and so shares across cluster nodes. The
 * key itself is never used directly: a derivation with a fixed label separates this use from token
 * signing. Rotating the realm's HMAC key starts the gate's identifier counters afresh.
 *
 * <p>No key is ever derived from public data (a label and the realm id): without an active HS512/HS256
 * key every method throws {@link NoRealmKey}, and the callers answer as the layers' failure modes say,
 * issue and honour no device cookie, and offer no ALTCHA challenge signed with a realm-derived key.
 * (Keycloak 26.7.3's default key manager creates a random "fallback-HS512" key when a realm has none
 * active, so this matters for other key managers and for a failed fallback.)
 */
public final class RealmSecrets implements SecretSource {

    /** The realm has no active HMAC key the gate can derive its keys from. */
    public static final class NoRealmKey extends IllegalStateException {
        NoRealmKey(String realmName) {
            super("realm '" + realmName + "' has no active HS512 or HS256 key");
        }
    }

    private static final byte[] LABEL = "keycloak-abuse-gate identifier key v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ALTCHA_LABEL = "keycloak-abuse-gate altcha key v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DEVICE_LABEL = "keycloak-abuse-gate device cookie key v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TYPO_LABEL = "keycloak-abuse-gate wrong password tag key v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SPRAY_LABEL = "keycloak-abuse-gate password spray bucket key v1".getBytes(StandardCharsets.UTF_8);

    private final Map<String, Derived> byRealm = new ConcurrentHashMap<>();
    private final Map<String, Derived> altchaByRealm = new ConcurrentHashMap<>();
    private final Map<String, Derived> deviceByRealm = new ConcurrentHashMap<>();
    private final Map<String, Derived> typoByRealm = new ConcurrentHashMap<>();
    private final Map<String, Derived> sprayByRealm = new ConcurrentHashMap<>();

    private record Derived(String kid, byte[] secret) {
    }

    /** The HMAC key that signs this realm's ALTCHA challenges when no captcha secret is configured. */
    public byte[] altchaKey(KeycloakSession session, RealmModel realm) {
        return derived(session, realm, altchaByRealm, ALTCHA_LABEL);
    }

    /** The key that signs this realm's device cookies. */
    public byte[] deviceKey(KeycloakSession session, RealmModel realm) {
        return derived(session, realm, deviceByRealm, DEVICE_LABEL);
    }

    /** The key that tags wrong passwords (so repeats can be recognised without keeping the password). */
    public byte[] typoKey(KeycloakSession session, RealmModel realm) {
        return derived(session, realm, typoByRealm, TYPO_LABEL);
    }

    /**
     * The key that buckets passwords for the password-spray layer: never leaves the server; rotating the realm's HMAC key
     * starts every bucket afresh.
     */
    public byte[] sprayKey(KeycloakSession session, RealmModel realm) {
        return derived(session, realm, sprayByRealm, SPRAY_LABEL);
    }

    private static byte[] derived(KeycloakSession session, RealmModel realm, Map<String, Derived> cache, byte[] label) {
        KeyWrapper key = session.keys().getActiveKey(realm, KeyUse.SIG, Algorithm.HS512);
        if (key == null || key.getSecretKey() == null) {
            key = session.keys().getActiveKey(realm, KeyUse.SIG, Algorithm.HS256);
        }
        if (key == null || key.getSecretKey() == null) {
            cache.remove(realm.getId());
            throw new NoRealmKey(realm.getName());
        }
        String kid = String.valueOf(key.getKid());
        Derived d = cache.get(realm.getId());
        if (d != null && d.kid().equals(kid)) {
            return d.secret();
        }
        byte[] secret = derive(key.getSecretKey(), label);
        cache.put(realm.getId(), new Derived(kid, secret));
        return secret;
    }

    /**
     * The identifier secret of a realm, from the realm's active HMAC key as the current request's session sees
     * it (so a rotated key is picked up at once).
     *
     * @throws NoRealmKey when the realm has no active HMAC key
     * @throws IllegalStateException outside a Keycloak request
     */
    @Override
    public byte[] secretFor(String realmId) {
        KeycloakSession session = KeycloakSessionUtil.getKeycloakSession();
        if (session == null) {
            throw new IllegalStateException("no Keycloak session on this thread");
        }
        RealmModel realm = session.getContext().getRealm();
        if (realm == null || !realmId.equals(realm.getId())) {
            realm = session.realms().getRealm(realmId);
        }
        if (realm == null) {
            throw new IllegalStateException("unknown realm");
        }
        return derived(session, realm, byRealm, LABEL);
    }

    private static byte[] derive(SecretKey key, byte[] label) {
        return Hmac.sha256(key.getEncoded(), label);
    }
}
