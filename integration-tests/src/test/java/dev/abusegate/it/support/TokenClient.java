package dev.abusegate.it.support;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/** The token endpoint's password grant for {@link RealmBuilder#CLIENT_ID}, as an API client calls it. Thread-safe. */
public final class TokenClient {

    public record TokenResponse(int status, String body, HttpHeaders headers) {
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

        /** Keycloak's own answer to wrong credentials (400 in 26.7.3; compare with a stock realm where the status matters). */
        public boolean isKeycloakInvalidGrant() {
            try {
                return (status == 400 || status == 401) && "invalid_grant".equals(json().get("error"))
                        && "Invalid user credentials".equals(json().get("error_description"));
            } catch (IllegalArgumentException notJson) {
                return false;
            }
        }

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

    /** Password grant; a null {@code username}, {@code password}, {@code captchaToken} or {@code forwardedFor} is left out. */
    public TokenResponse passwordGrant(String realm, String username, String password, String captchaToken, String forwardedFor) {
        return postRaw(realm, Http.form(Http.fields("grant_type", "password", "client_id", RealmBuilder.CLIENT_ID, "username", username,
                "password", password, "captcha_token", captchaToken)).getBytes(StandardCharsets.UTF_8), forwardedFor);
    }

    /** POSTs a raw form body (any bytes, e.g. invalid UTF-8) to the token endpoint. */
    public TokenResponse postRaw(String realm, byte[] formBody, String forwardedFor) {
        HttpRequest.Builder b = Http.formPost(baseUrl + "/realms/" + AdminClient.seg(realm) + "/protocol/openid-connect/token",
                formBody, forwardedFor).header("Accept", "application/json").header("Accept-Language", "en");
        HttpResponse<String> r = Http.send(http, b.build());
        return new TokenResponse(r.statusCode(), r.body(), r.headers());
    }
}
