package dev.abusegate.it.support;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The token endpoint's password grant ({@code grant_type=password}, public client {@link RealmBuilder#CLIENT_ID}), as
 * an API client calls it. Thread-safe; only talks to the server's base URL.
 */
public final class TokenClient {

    /** An answer of the token endpoint. */
    public record TokenResponse(int status, String body, HttpHeaders headers) {
        /** The body as a JSON object (fails with the body if it is not one). */
        public Map<String, Object> json() {
            return Json.parseMap(body);
        }

        /** {@code access_token} of a 200 answer. */
        public String accessToken() {
            Object t = json().get("access_token");
            if (!(t instanceof String s)) {
                throw new AssertionError("No access_token (HTTP " + status + "): " + Json.abbreviate(body));
            }
            return s;
        }

        /**
         * Keycloak's own answer to wrong credentials: {@code invalid_grant} "Invalid user credentials"
         * (HTTP 400 in Keycloak 26.7.3; compare with a stock realm where the exact status matters).
         */
        public boolean isKeycloakInvalidGrant() {
            if (status != 400 && status != 401) {
                return false;
            }
            try {
                Map<String, Object> j = json();
                return "invalid_grant".equals(j.get("error")) && "Invalid user credentials".equals(j.get("error_description"));
            } catch (IllegalArgumentException e) {
                return false;
            }
        }

        /** First value of a header (case-insensitive), if any. */
        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        @Override
        public String toString() {
            return "TokenResponse[status=" + status + ", body=" + Json.abbreviate(body) + "]";
        }
    }

    private final String baseUrl;
    private final HttpClient http = Http.client();

    public TokenClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /**
     * Password grant for {@link RealmBuilder#CLIENT_ID}. {@code captchaToken} (the {@code captcha_token}
     * parameter) and {@code forwardedFor} (X-Forwarded-For) are left out when null; so are
     * {@code username}/{@code password} when null.
     */
    public TokenResponse passwordGrant(String realm, String username, String password, String captchaToken, String forwardedFor) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "password");
        form.put("client_id", RealmBuilder.CLIENT_ID);
        if (username != null) {
            form.put("username", username);
        }
        if (password != null) {
            form.put("password", password);
        }
        if (captchaToken != null) {
            form.put("captcha_token", captchaToken);
        }
        return postRaw(realm, Http.form(form).getBytes(StandardCharsets.UTF_8), forwardedFor);
    }

    /** POSTs a raw {@code application/x-www-form-urlencoded} body (any bytes, e.g. invalid UTF-8) to the token endpoint. */
    public TokenResponse postRaw(String realm, byte[] formBody, String forwardedFor) {
        HttpRequest.Builder b = Http.formPost(baseUrl + "/realms/" + AdminClient.seg(realm) + "/protocol/openid-connect/token",
                formBody, forwardedFor).header("Accept", "application/json").header("Accept-Language", "en");
        HttpResponse<String> r = Http.send(http, b.build());
        return new TokenResponse(r.statusCode(), r.body(), r.headers());
    }
}
