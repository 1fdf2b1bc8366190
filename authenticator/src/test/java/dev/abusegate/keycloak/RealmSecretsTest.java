package dev.abusegate.keycloak;

import static dev.abusegate.keycloak.KeycloakStubs.stub;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.keycloak.crypto.KeyWrapper;
import org.keycloak.models.KeyManager;
import org.keycloak.models.KeycloakContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.utils.KeycloakSessionUtil;

/**
 * Without an active HMAC key the gate has no key at all: nothing is derived from public data (a label
 * and the realm id), so nobody can forge device cookies or ALTCHA challenges from what is public.
 */
class RealmSecretsTest {

    private final AtomicReference<KeyWrapper> activeKey = new AtomicReference<>();
    private final RealmModel realm = stub(RealmModel.class, (m, a) -> switch (m) {
        case "getId" -> "9b1d6a0e-realm-id";
        case "getName" -> "acme";
        default -> null;
    });
    private final KeyManager keys = stub(KeyManager.class, (m, a) -> "getActiveKey".equals(m) ? activeKey.get() : null);
    private final KeycloakContext context = stub(KeycloakContext.class, (m, a) -> "getRealm".equals(m) ? realm : null);
    private final KeycloakSession session = stub(KeycloakSession.class, (m, a) -> switch (m) {
        case "keys" -> keys;
        case "getContext" -> context;
        default -> null;
    });

    /** The identifier secret is looked up through the request's session, as in Keycloak. */
    @BeforeEach
    void currentSession() {
        KeycloakSessionUtil.setKeycloakSession(session);
    }

    @AfterEach
    void noSession() {
        KeycloakSessionUtil.setKeycloakSession(null);
    }

    @Test
    void without_an_active_hmac_key_no_key_is_derived_at_all() {
        RealmSecrets secrets = new RealmSecrets();
        assertThatThrownBy(() -> secrets.altchaKey(session, realm)).isInstanceOf(RealmSecrets.NoRealmKey.class);
        assertThatThrownBy(() -> secrets.deviceKey(session, realm)).isInstanceOf(RealmSecrets.NoRealmKey.class);
        assertThatThrownBy(() -> secrets.typoKey(session, realm)).isInstanceOf(RealmSecrets.NoRealmKey.class);
        assertThatThrownBy(() -> secrets.secretFor(realm.getId())).isInstanceOf(RealmSecrets.NoRealmKey.class);
    }

    @Test
    void a_key_removed_after_use_is_forgotten_not_kept_or_replaced_by_a_public_one() {
        AtomicLong nanos = new AtomicLong();
        RealmSecrets secrets = new RealmSecrets(nanos::get);
        activeKey.set(hmacKey("kid-1", "a-realm-secret-of-32-bytes-00001"));
        assertThat(secrets.secretFor(realm.getId())).hasSize(32);
        byte[] device = secrets.deviceKey(session, realm);
        assertThat(device).isNotEqualTo(publicDerivation("keycloak-abuse-gate device cookie key v1"));

        activeKey.set(null);
        assertThatThrownBy(() -> secrets.deviceKey(session, realm)).as("a signing key at once")
                .isInstanceOf(RealmSecrets.NoRealmKey.class);
        nanos.addAndGet(RealmSecrets.IDENTIFIER_RECHECK_NANOS);
        assertThatThrownBy(() -> secrets.secretFor(realm.getId())).as("the identifier secret once it is looked up again")
                .isInstanceOf(RealmSecrets.NoRealmKey.class);
    }

    @Test
    void a_rotated_key_reaches_the_identifier_secret_when_it_is_looked_up_again() {
        AtomicLong nanos = new AtomicLong();
        RealmSecrets secrets = new RealmSecrets(nanos::get);
        activeKey.set(hmacKey("kid-1", "a-realm-secret-of-32-bytes-00001"));
        byte[] first = secrets.secretFor(realm.getId());

        activeKey.set(hmacKey("kid-2", "a-realm-secret-of-32-bytes-00002"));
        nanos.addAndGet(RealmSecrets.IDENTIFIER_RECHECK_NANOS - 1);
        assertThat(secrets.secretFor(realm.getId())).as("kept until the recheck").isEqualTo(first);
        nanos.addAndGet(1);
        assertThat(secrets.secretFor(realm.getId())).isNotEqualTo(first).hasSize(32);
    }

    @Test
    void with_a_key_each_use_gets_its_own_derived_secret() {
        RealmSecrets secrets = new RealmSecrets();
        activeKey.set(hmacKey("kid-1", "a-realm-secret-of-32-bytes-00001"));
        assertThat(secrets.altchaKey(session, realm)).isNotEqualTo(secrets.deviceKey(session, realm))
                .isNotEqualTo(secrets.secretFor(realm.getId()));
    }

    private byte[] publicDerivation(String label) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(label.getBytes(StandardCharsets.UTF_8));
            return md.digest(realm.getId().getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyWrapper hmacKey(String kid, String secret) {
        KeyWrapper k = new KeyWrapper();
        k.setKid(kid);
        k.setSecretKey(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        return k;
    }
}
