package dev.abusegate.keycloak;

import dev.abusegate.engine.keys.Hmac;
import dev.abusegate.engine.keys.SecretSource;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
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

    /**
     * How long the identifier secret is used before the realm's active key is looked up again (nanoseconds): the
     * lookup was a thirteenth of a refusal's CPU. Only the identifier secret is kept: it keys counters and signs
     * nothing, so a rotated or removed key reaches it within this time. The keys that sign or verify (ALTCHA, device
     * cookies) and the others follow the realm's key on every use.
     */
    static final long IDENTIFIER_RECHECK_NANOS = 1_000_000_000L;

    private record Derived(String kid, byte[] secret) {
    }

    /** The identifier secret of a realm and when its key must be looked up again. */
    private record Checked(Derived derived, long recheckAt) {
    }

    private final Map<String, Checked> identifierByRealm = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    public RealmSecrets() {
        this(System::nanoTime);
    }

    /** With the clock of the identifier secret's recheck (tests). */
    RealmSecrets(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
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
        return derivedEntry(session, realm, cache, label).secret();
    }

    private static Derived derivedEntry(KeycloakSession session, RealmModel realm, Map<String, Derived> cache, byte[] label) {
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
            return d;
        }
        Derived fresh = new Derived(kid, derive(key.getSecretKey(), label));
        cache.put(realm.getId(), fresh);
        return fresh;
    }

    /**
     * The identifier secret of a realm, from the realm's active HMAC key as a request's session sees it, looked up
     * again at most {@link #IDENTIFIER_RECHECK_NANOS} after the last lookup (a rotated or removed key shows within it).
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
        long now = nanoClock.getAsLong();
        Checked checked = identifierByRealm.get(realmId);
        if (checked != null && now - checked.recheckAt() < 0) {
            return checked.derived().secret();
        }
        Derived d;
        try {
            d = derivedEntry(session, realm, byRealm, LABEL);
        } catch (NoRealmKey e) {
            identifierByRealm.remove(realmId);
            throw e;
        }
        identifierByRealm.put(realmId, new Checked(d, now + IDENTIFIER_RECHECK_NANOS));
        return d.secret();
    }

    private static byte[] derive(SecretKey key, byte[] label) {
        return Hmac.sha256(key.getEncoded(), label);
    }
}
