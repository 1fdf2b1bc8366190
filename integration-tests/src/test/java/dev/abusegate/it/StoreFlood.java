package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.KeycloakServer;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.TokenClient;
import java.util.List;
import java.util.Map;

/**
 * The attack of issue "a flood must not erase a lock": an account is locked, then cheap token-endpoint
 * requests (blank passwords, which the gate counts on layers 1, 2 and 4 and answers without a user lookup or a
 * hash) with fresh usernames from fresh addresses create address and pair entries far beyond the store's
 * {@code max-entries} bound ({@link FloodProbes#floodIpv4(String, List, int, Runnable)}). Afterwards the right password must
 * still be refused.
 */
final class StoreFlood {

    public static final String PASSWORD = "flood-Passw0rd!";
    /** Short windows, so that the flood's entries expire soon after the test and leave room for others. */
    public static final Map<String, String> CONFIG = Map.of(
            "captcha.enabled", "false",
            "accountLockout.threshold", "3",
            "accountLockout.windowSeconds", "900",
            "accountLockout.lockoutSeconds", "900",
            "perIp.threshold", "5",
            "perIp.windowSeconds", "5",
            "perIpAccount.windowSeconds", "5",
            "credentialStuffing.windowSeconds", "5");

    private StoreFlood() {
    }

    /** A realm with the victim and the gate on the token endpoint, imported through {@code admin}. */
    public static String realm(AdminClient admin, String prefix) {
        return admin.importRealm(RealmBuilder.unique(prefix)
                .user("victim", PASSWORD)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", CONFIG));
    }

    /** Locks the victim with three wrong passwords from three addresses, through the given servers in turn. */
    public static void lockVictim(String realm, List<KeycloakServer> nodes) {
        for (int i = 0; i < 3; i++) {
            TokenClient.TokenResponse r = new TokenClient(nodes.get(i % nodes.size()).baseUrl())
                    .passwordGrant(realm, "victim", "wrong-" + i, null, "198.51.100." + (10 + i));
            assertThat(r.isKeycloakInvalidGrant()).as("wrong password %d: %s", i, r).isTrue();
        }
        assertVictimLocked(realm, nodes);
    }

    /** The right password is refused through every node. */
    public static void assertVictimLocked(String realm, List<KeycloakServer> nodes) {
        for (KeycloakServer node : nodes) {
            TokenClient.TokenResponse r = new TokenClient(node.baseUrl()).passwordGrant(realm, "victim", PASSWORD, null, "203.0.113.200");
            assertThat(r.status()).as("right password through %s: %s", node.name(), r).isEqualTo(429);
            assertThat(r.body()).contains("blocked");
        }
    }

    /**
     * A fresh address (never part of a flood) gets exactly layer 1's threshold (5) of wrong passwords, for fresh
     * usernames, through the nodes in turn, and the next attempt is blocked.
     */
    public static void assertFreshAddressMeetsThreshold(String realm, List<KeycloakServer> nodes, String address) {
        for (int i = 0; i < 5; i++) {
            TokenClient.TokenResponse r = new TokenClient(nodes.get(i % nodes.size()).baseUrl())
                    .passwordGrant(realm, "fresh-" + address + "-" + i, "wrong", null, address);
            assertThat(r.isKeycloakInvalidGrant()).as("attempt %d from a fresh address: %s", i + 1, r).isTrue();
        }
        TokenClient.TokenResponse r = new TokenClient(nodes.get(5 % nodes.size()).baseUrl())
                .passwordGrant(realm, "fresh-" + address + "-5", "wrong", null, address);
        assertThat(r.status()).as("the attempt past the threshold: %s", r).isEqualTo(429);
        assertThat(r.body()).contains("blocked");
    }
}
