package dev.abusegate.benchmarks.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the realms of the availability benchmark as Keycloak import files: {@code stock} (Keycloak's own
 * browser and direct grant flows), {@code gated} (copies of both with the abuse gate's steps, no step
 * configuration: the production defaults) and {@code shielded} (as gated, with the realm-wide layer on:
 * {@link #SHIELD}). Both have the same users, the same client, Keycloak's brute-force
 * detection on with its defaults, and stored login events ({@code LOGIN}, {@code LOGIN_ERROR}) without event
 * listeners (no log line per failed login on either side).
 *
 * <p>Usage: {@code Realms <directory> <users>}; user {@code i} (1-based) is {@link #username(int)} with
 * {@link #password(int)}.
 */
public final class Realms {

    static final String CLIENT = "app";
    static final String REDIRECT = "http://127.0.0.1/cb";

    private Realms() {
    }

    static String username(int i) {
        return String.format("user%04d", i);
    }

    /** Real users' passwords: known to the benchmark, never a secret (the realms exist only during a run). */
    static String password(int i) {
        return "Real-" + i + "-Passw0rd!";
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int users = Integer.parseInt(args[1]);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("realm-stock.json"), realm("stock", false, users), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("realm-gated.json"), realm("gated", true, users), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("realm-shielded.json"), realm("shielded", true, users), StandardCharsets.UTF_8);
    }

    static String realm(String name, boolean gated, int users) {
        StringBuilder b = new StringBuilder(256 * users + 8192);
        b.append("{\n  \"realm\": \"").append(name).append("\",\n  \"enabled\": true,\n  \"sslRequired\": \"none\",\n")
                .append("  \"loginWithEmailAllowed\": true,\n  \"registrationAllowed\": false,\n")
                .append("  \"bruteForceProtected\": true,\n")
                .append("  \"eventsEnabled\": true,\n  \"eventsExpiration\": 7200,\n  \"eventsListeners\": [],\n")
                .append("  \"enabledEventTypes\": [\"LOGIN\", \"LOGIN_ERROR\"],\n");
        b.append("  \"clients\": [{\"clientId\": \"").append(CLIENT).append("\", \"enabled\": true, \"publicClient\": true,")
                .append(" \"protocol\": \"openid-connect\", \"standardFlowEnabled\": true, \"directAccessGrantsEnabled\": true,")
                .append(" \"redirectUris\": [\"http://127.0.0.1/*\"], \"webOrigins\": [\"+\"]}],\n");
        b.append("  \"users\": [\n");
        for (int i = 1; i <= users; i++) {
            b.append("    {\"username\": \"").append(username(i)).append("\", \"enabled\": true, \"emailVerified\": true,")
                    .append(" \"firstName\": \"Real\", \"lastName\": \"User").append(i).append("\", \"email\": \"")
                    .append(username(i)).append("@example.com\", \"credentials\": [{\"type\": \"password\", \"value\": \"")
                    .append(password(i)).append("\", \"temporary\": false}]}").append(i < users ? ",\n" : "\n");
        }
        b.append("  ]");
        if (gated) {
            b.append(",\n").append(name.equals("shielded") ? shielded() : GATED_FLOWS);
        }
        return b.append("\n}\n").toString();
    }

    /**
     * The shielded realm's step configuration: production defaults, with the realm-wide layer ("realm under
     * attack") on. Its threshold is the realm's failed password checks in its window; the real users' logins
     * are all correct, so only the attack's failures count.
     */
    static final String SHIELD = System.getenv().getOrDefault("SHIELD_CONFIG", """
            {"realm.enabled": "true", "realm.threshold": "100", "realm.windowSeconds": "60"}""");

    /** The gated flows, with {@link #SHIELD} as the configuration of both gate steps. */
    static String shielded() {
        String flows = GATED_FLOWS;
        for (String step : new String[] {"abuse-gate-username-password-form", "abuse-gate-direct-grant"}) {
            String exec = "{\"authenticator\": \"" + step + "\", ";
            if (!flows.contains(exec)) {
                throw new IllegalStateException("no " + step + " in the gated flows");
            }
            flows = flows.replace(exec, exec + "\"authenticatorConfig\": \"shield\", ");
        }
        return flows.replace("{\"alias\": \"gated-conditional-credential\",",
                "{\"alias\": \"shield\", \"config\": " + SHIELD.trim() + "},\n    {\"alias\": \"gated-conditional-credential\",");
    }

    /**
     * Copies of Keycloak 26.7.3's built-in {@code browser} and {@code direct grant} flows (same steps, same
     * requirements) in which only the password step differs, bound as the realm's flows.
     */
    private static final String GATED_FLOWS = """
              "browserFlow": "gated browser",
              "directGrantFlow": "gated direct grant",
              "authenticationFlows": [
                {"alias": "gated browser", "description": "Copy of the browser flow; the password form is the abuse gate's",
                 "providerId": "basic-flow", "topLevel": true, "builtIn": false, "authenticationExecutions": [
                  {"authenticator": "auth-cookie", "authenticatorFlow": false, "requirement": "ALTERNATIVE", "priority": 10, "userSetupAllowed": false},
                  {"authenticator": "auth-spnego", "authenticatorFlow": false, "requirement": "DISABLED", "priority": 20, "userSetupAllowed": false},
                  {"authenticator": "identity-provider-redirector", "authenticatorFlow": false, "requirement": "ALTERNATIVE", "priority": 25, "userSetupAllowed": false},
                  {"authenticatorFlow": true, "requirement": "ALTERNATIVE", "priority": 30, "flowAlias": "gated forms", "userSetupAllowed": false}]},
                {"alias": "gated forms", "description": "Username, password (behind the abuse gate), otp and other auth forms.",
                 "providerId": "basic-flow", "topLevel": false, "builtIn": false, "authenticationExecutions": [
                  {"authenticator": "abuse-gate-username-password-form", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 10, "userSetupAllowed": false},
                  {"authenticatorFlow": true, "requirement": "CONDITIONAL", "priority": 20, "flowAlias": "gated conditional 2FA", "userSetupAllowed": false}]},
                {"alias": "gated conditional 2FA", "description": "Flow to determine if any 2FA is required for the authentication",
                 "providerId": "basic-flow", "topLevel": false, "builtIn": false, "authenticationExecutions": [
                  {"authenticator": "conditional-user-configured", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 10, "userSetupAllowed": false},
                  {"authenticator": "conditional-credential", "authenticatorConfig": "gated-conditional-credential", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 20, "userSetupAllowed": false},
                  {"authenticator": "auth-otp-form", "authenticatorFlow": false, "requirement": "ALTERNATIVE", "priority": 30, "userSetupAllowed": false},
                  {"authenticator": "webauthn-authenticator", "authenticatorFlow": false, "requirement": "DISABLED", "priority": 40, "userSetupAllowed": false},
                  {"authenticator": "auth-recovery-authn-code-form", "authenticatorFlow": false, "requirement": "DISABLED", "priority": 50, "userSetupAllowed": false}]},
                {"alias": "gated direct grant", "description": "Copy of the direct grant flow; username and password behind the abuse gate",
                 "providerId": "basic-flow", "topLevel": true, "builtIn": false, "authenticationExecutions": [
                  {"authenticator": "abuse-gate-direct-grant", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 10, "userSetupAllowed": false},
                  {"authenticatorFlow": true, "requirement": "CONDITIONAL", "priority": 30, "flowAlias": "gated direct grant conditional OTP", "userSetupAllowed": false}]},
                {"alias": "gated direct grant conditional OTP", "description": "Flow to determine if the OTP is required for the authentication",
                 "providerId": "basic-flow", "topLevel": false, "builtIn": false, "authenticationExecutions": [
                  {"authenticator": "conditional-user-configured", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 10, "userSetupAllowed": false},
                  {"authenticator": "direct-grant-validate-otp", "authenticatorFlow": false, "requirement": "REQUIRED", "priority": 20, "userSetupAllowed": false}]}
              ],
              "authenticatorConfig": [
                {"alias": "gated-conditional-credential", "config": {"credentials": "webauthn-passwordless"}}
              ]""";
}
