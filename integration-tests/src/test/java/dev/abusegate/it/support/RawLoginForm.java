package dev.abusegate.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The browser login form at byte level: opens the login page (keeping its cookies) and POSTs any bytes
 * as the form body, e.g. invalid UTF-8, duplicated fields or missing fields, which {@link BrowserLogin}
 * (a well-behaved browser) never sends.
 *
 * <pre>{@code
 * RawLoginForm raw = new RawLoginForm(server.baseUrl());
 * RawLoginForm.Page page = raw.open(realm, "192.0.2.10");
 * RawLoginForm.Result r = raw.post(page, "username=%C3%28&password=x".getBytes(US_ASCII), "192.0.2.10");
 * }</pre>
 * Only talks to the server's base URL (127.0.0.1). Thread-safe (no state but the pages it returns).
 */
public final class RawLoginForm {

    /** The login page: status, body, the form's action and the cookies to send back. */
    public record Page(int status, String body, String action, String cookieHeader) {
    }

    /** The answer to a POST. */
    public record Result(int status, String body, Map<String, List<String>> headers) {
        /** {@code data-code} of the gate's status element, if present. */
        public java.util.Optional<String> gateCode() {
            return BrowserLogin.attributeOfElement(body, "abuse-gate-status", "data-code");
        }

        @Override
        public String toString() {
            return "Result[status=" + status + ", gateCode=" + gateCode().orElse(null) + ", body=" + Json.abbreviate(body) + "]";
        }
    }

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    public RawLoginForm(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** GET the authorization endpoint of {@code realm} for {@link RealmBuilder#CLIENT_ID}; X-Forwarded-For if not null. */
    public Page open(String realm, String forwardedFor) {
        String url = baseUrl + "/realms/" + AdminClient.seg(realm) + "/protocol/openid-connect/auth?client_id="
                + enc(RealmBuilder.CLIENT_ID) + "&response_type=code&scope=openid&redirect_uri=" + enc(RealmBuilder.REDIRECT_URI);
        HttpResponse<String> r = send(request(url, forwardedFor, null).GET().build());
        Map<String, String> cookies = new LinkedHashMap<>();
        for (String setCookie : r.headers().allValues("Set-Cookie")) {
            String nameValue = setCookie.split(";", 2)[0].trim();
            int eq = nameValue.indexOf('=');
            if (eq > 0 && eq < nameValue.length() - 1) {
                cookies.put(nameValue.substring(0, eq), nameValue.substring(eq + 1));
            }
        }
        StringJoiner cookieHeader = new StringJoiner("; ");
        cookies.forEach((k, v) -> cookieHeader.add(k + "=" + v));
        return new Page(r.statusCode(), r.body(), BrowserLogin.formAction(r.body()), cookieHeader.toString());
    }

    /** POSTs {@code formBody} (sent as is, Content-Type application/x-www-form-urlencoded) to the page's form. */
    public Result post(Page page, byte[] formBody, String forwardedFor) {
        if (page.action() == null) {
            throw new AssertionError("No login form (HTTP " + page.status() + "):\n" + Json.abbreviate(page.body()));
        }
        if (!page.action().startsWith(baseUrl + "/")) {
            throw new IllegalArgumentException("Refusing to post outside the test server: " + page.action());
        }
        HttpRequest req = request(page.action(), forwardedFor, page.cookieHeader())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(formBody))
                .build();
        HttpResponse<String> r = send(req);
        return new Result(r.statusCode(), r.body(), r.headers().map());
    }

    private HttpRequest.Builder request(String url, String forwardedFor, String cookieHeader) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "text/html,application/xhtml+xml")
                .header("Accept-Language", "en")
                .header("User-Agent", "abuse-gate-it-raw");
        if (forwardedFor != null) {
            b.header("X-Forwarded-For", forwardedFor);
        }
        if (cookieHeader != null && !cookieHeader.isEmpty()) {
            b.header("Cookie", cookieHeader);
        }
        return b;
    }

    private HttpResponse<String> send(HttpRequest req) {
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(req.method() + " " + req.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
