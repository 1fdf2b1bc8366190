package dev.abusegate.it;

import dev.abusegate.it.support.AdminClient;
import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.Http;
import dev.abusegate.it.support.Json;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.keycloak.representations.idm.ClientRepresentation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edge refusal's request filter is installed for every Keycloak resource; it reads a form only on the paths it can
 * answer (the token endpoint and the login form's POST), and Keycloak's own form and multipart readers work as without
 * it: an admin upload in multipart, a login through a stock browser flow, a confidential client's secret in the body.
 */
class EdgeFilterSafetyIT extends ServerTest {

    /** A self-signed EC certificate (CN=edge-filter-it), valid until 2126. */
    private static final String CERTIFICATE_PEM = """
            -----BEGIN CERTIFICATE-----
            MIIBiDCCAS+gAwIBAgIUbUGz6wORRxC/Gvt7e+vhyNIhDUQwCgYIKoZIzj0EAwIw
            GTEXMBUGA1UEAwwOZWRnZS1maWx0ZXItaXQwIBcNMjYxMjA2MjM1NDM4WhgPMjEy
            NjExMTIyMzU0MzhaMBkxFzAVBgNVBAMMDmVkZ2UtZmlsdGVyLWl0MFkwEwYHKoZI
            zj0CAQYIKoZIzj0DAQcDQgAEZ0sbCSyU4xkJpc3Z1eHzQE8NYyeQ+tUhtM7a5eyP
            /MlEHc2RX/3gCW4pgvZf8loA75PaTEIGwNZUs54GOi5bXqNTMFEwHQYDVR0OBBYE
            FIygUB+kl/99O3/6OK5Ov+8NudbqMB8GA1UdIwQYMBaAFIygUB+kl/99O3/6OK5O
            v+8NudbqMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgIC9Zr/dH
            eh4RyhUvqrWIk4Rj7R6ftWiwudAUCfsvnjECIHAamOZ35Z7zRi2VkLMDHogWu+uk
            aN08Sj1smgUyiKY/
            -----END CERTIFICATE-----
            """;
    private static final String GATED_PROVIDER = "abuse-gate-direct-grant";

    private final HttpClient http = Http.client();

    @Test
    void an_admin_multipart_upload_is_read_by_keycloak_as_without_the_filter() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("edge-multipart")));
        String clientUuid = admin.realm(realm).clients().findByClientId(RealmBuilder.CLIENT_ID).get(0).getId();
        String boundary = "----edge-filter-it-boundary";
        String body = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"keystoreFormat\"\r\n\r\n"
                + "Certificate PEM\r\n"
                + "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"cert.pem\"\r\n"
                + "Content-Type: application/x-pem-file\r\n\r\n"
                + CERTIFICATE_PEM + "\r\n"
                + "--" + boundary + "--\r\n";
        HttpResponse<String> r = Http.send(http, Http.request(server.baseUrl() + "/admin/realms/" + AdminClient.seg(realm)
                        + "/clients/" + clientUuid + "/certificates/jwt.credential/upload-certificate", null)
                .header("Authorization", "Bearer " + admin.keycloak().tokenManager().getAccessTokenString())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String base64 = CERTIFICATE_PEM.lines().filter(l -> !l.startsWith("-----")).reduce("", String::concat);
        assertThat(Json.parseMap(r.body())).containsEntry("certificate", base64);
        // Keycloak stored what it read from the file part
        Map<String, String> attributes = admin.realm(realm).clients().get(clientUuid).toRepresentation().getAttributes();
        assertThat(attributes).containsEntry("jwt.credential.certificate", base64);
    }

    @Test
    void a_login_through_a_stock_browser_flow_still_succeeds() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("edge-stock-form")).user("alice", "alice-secret-1"));
        BrowserLogin browser = new BrowserLogin(server.baseUrl());
        BrowserLogin.LoginResult wrong = browser.login(realm, "alice", "wrong", "192.0.2.171");
        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(200);
        assertThat(wrong.keycloakError()).isPresent();
        BrowserLogin.LoginResult right = browser.submit(wrong, "alice", "alice-secret-1", "192.0.2.171", Map.of());
        assertThat(right.loginSucceeded()).as(right.toString()).isTrue();
    }

    @Test
    void a_confidential_clients_secret_in_the_body_is_read_by_the_token_endpoint() {
        String realm = importRealm(RealmBuilder.named(RealmBuilder.uniqueName("edge-confidential")).user("alice", "alice-secret-1")
                .gatedDirectGrantFlow(GATED_PROVIDER, Map.of("captcha.enabled", "false")));
        ClientRepresentation c = new ClientRepresentation();
        c.setClientId("edge-confidential");
        c.setPublicClient(false);
        c.setSecret("edge-confidential-secret");
        c.setDirectAccessGrantsEnabled(true);
        c.setServiceAccountsEnabled(true);
        c.setStandardFlowEnabled(false);
        c.setRedirectUris(List.of(RealmBuilder.REDIRECT_URI));
        admin.realm(realm).clients().create(c).close();
        String token = server.baseUrl() + "/realms/" + AdminClient.seg(realm) + "/protocol/openid-connect/token";

        HttpResponse<String> password = post(token, Http.fields("grant_type", "password", "client_id", "edge-confidential",
                "client_secret", "edge-confidential-secret", "username", "alice", "password", "alice-secret-1"));
        assertThat(password.statusCode()).as(password.body()).isEqualTo(200);
        assertThat(Json.parseMap(password.body())).containsKey("access_token");
        HttpResponse<String> service = post(token, Http.fields("grant_type", "client_credentials", "client_id", "edge-confidential",
                "client_secret", "edge-confidential-secret"));
        assertThat(service.statusCode()).as(service.body()).isEqualTo(200);
        HttpResponse<String> badSecret = post(token, Http.fields("grant_type", "client_credentials", "client_id", "edge-confidential",
                "client_secret", "not-the-secret"));
        assertThat(badSecret.statusCode()).as(badSecret.body()).isEqualTo(401);
        assertThat(Json.parseMap(badSecret.body())).containsEntry("error", "unauthorized_client");
    }

    private HttpResponse<String> post(String url, Map<String, String> fields) {
        return Http.send(http, Http.formPost(url, Http.form(fields).getBytes(StandardCharsets.UTF_8), "192.0.2.172")
                .header("Accept", "application/json").build());
    }
}
