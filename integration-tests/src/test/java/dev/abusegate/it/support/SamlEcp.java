package dev.abusegate.it.support;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A SAML ECP service provider: its client (ECP allowed) and its SOAP AuthnRequest with {@code Authorization: Basic}. */
public final class SamlEcp {

    /** The status of a SAML Response that signed the user in. */
    public static final String SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
    private static final String ACS = "http://localhost/ecp-acs";

    private final HttpClient http = Http.client();
    private final String baseUrl;
    private final String sp;

    public SamlEcp(String baseUrl, String sp) {
        this.baseUrl = baseUrl;
        this.sp = sp;
    }

    /** POSTs an AuthnRequest with the Basic credentials {@code username:password}. */
    public HttpResponse<String> login(String realm, String username, String password, String address) {
        return send(realm, Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)), address);
    }

    /** POSTs an AuthnRequest with {@code Authorization: Basic <credentials>} (any text) from {@code address}. */
    public HttpResponse<String> send(String realm, String credentials, String address) {
        String envelope = "<S:Envelope xmlns:S=\"http://schemas.xmlsoap.org/soap/envelope/\"><S:Body>"
                + "<samlp:AuthnRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\""
                + " ID=\"_" + UUID.randomUUID() + "\" Version=\"2.0\" IssueInstant=\"" + Instant.now() + "\""
                + " AssertionConsumerServiceURL=\"" + ACS + "\" ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:PAOS\">"
                + "<saml:Issuer>" + sp + "</saml:Issuer></samlp:AuthnRequest></S:Body></S:Envelope>";
        HttpRequest req = Http.request(baseUrl + "/realms/" + realm + "/protocol/saml", address)
                .header("Content-Type", "text/xml; charset=utf-8").header("Authorization", "Basic " + credentials)
                .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return Http.send(http, req);
    }

    /** Gates a realm's ECP endpoint as README's Enable says: a gated copy takes the name "saml ecp", which it runs. */
    public static void gate(AdminClient admin, String realm, Map<String, String> config) {
        admin.copyWithGatedStep(realm, "saml ecp", "gated saml ecp", "http-basic-authenticator", "abuse-gate-http-basic", config);
        admin.renameFlow(realm, "saml ecp", "saml ecp stock");
        admin.renameFlow(realm, "gated saml ecp", "saml ecp");
    }

    /** The SAML client that allows ECP, for a realm's {@code clients}. */
    public Map<String, Object> client() {
        return Map.of("clientId", sp, "protocol", "saml", "enabled", true, "redirectUris", List.of(ACS), "attributes", Map.of(
                "saml.allow.ecp.flow", "true", "saml.client.signature", "false", "saml.server.signature", "true",
                "saml.authnstatement", "true", "saml_name_id_format", "username", "saml_assertion_consumer_url_post", ACS));
    }
}
