package dev.abusegate.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/** The JDK HTTP client as the harness uses it: redirects never followed, failures as unchecked exceptions. */
public final class Http {

    private Http() {
    }

    /** A client with a 5 s connect timeout that never follows a redirect. */
    public static HttpClient client() {
        return builder().build();
    }

    static HttpClient.Builder builder() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER);
    }

    /** Sends the request and reads the body as text; an I/O failure names the request. */
    public static HttpResponse<String> send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A request to {@code url} (60 s timeout) with {@code X-Forwarded-For} unless {@code forwardedFor} is null. */
    public static HttpRequest.Builder request(String url, String forwardedFor) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        return forwardedFor == null ? b : b.header("X-Forwarded-For", forwardedFor);
    }

    /** A POST of {@code formBody} (any bytes) as {@code application/x-www-form-urlencoded}. */
    public static HttpRequest.Builder formPost(String url, byte[] formBody, String forwardedFor) {
        return request(url, forwardedFor).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(formBody));
    }

    /** The pairs (name, value, name, value, …) whose value is not null, in their order. */
    public static Map<String, String> fields(String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("name/value pairs expected");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                out.put(pairs[i], pairs[i + 1]);
            }
        }
        return out;
    }

    /** {@code application/x-www-form-urlencoded} of the fields, in their order. */
    public static String form(Map<String, String> fields) {
        StringJoiner form = new StringJoiner("&");
        fields.forEach((k, v) -> form.add(enc(k) + "=" + enc(v)));
        return form.toString();
    }

    /** The decoded fields of an {@code application/x-www-form-urlencoded} body or a URL's query, in their order. */
    public static Map<String, String> parseForm(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.isEmpty() ? new String[0] : body.split("&")) {
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** URL encoding of one value (a space becomes +). */
    public static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
