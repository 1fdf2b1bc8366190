package dev.abusegate.it.support;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A browser without JavaScript: its own cookies, no automatic redirects, X-Forwarded-For per request. Thread-safe. */
public final class BrowserLogin {

    private static final Pattern FORM_TAG = Pattern.compile("<form\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern FEEDBACK = Pattern.compile(
            "<span\\b[^>]*class\\s*=\\s*\"[^\"]*\\bkc-feedback-text\\b[^\"]*\"[^>]*>(.*?)</span>", Pattern.DOTALL);
    private static final Pattern SECURE = Pattern.compile(";\\s*Secure\\s*(?=;|$)", Pattern.CASE_INSENSITIVE);
    private static final Pattern ENTITY = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos|#39);");

    private final String baseUrl;
    /** Keycloak marks cookies {@code Secure} on loopback; like a browser there, this jar keeps them without the flag. */
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL) {
        @Override
        public void put(URI uri, Map<String, List<String>> responseHeaders) throws IOException {
            Map<String, List<String>> rewritten = new LinkedHashMap<>();
            responseHeaders.forEach((k, v) -> rewritten.put(k, k != null && k.toLowerCase(Locale.ROOT).startsWith("set-cookie")
                    ? v.stream().map(c -> SECURE.matcher(c).replaceAll("")).toList() : v));
            super.put(uri, rewritten);
        }
    };
    private final HttpClient http;

    public BrowserLogin(String baseUrl) {
        this.baseUrl = baseUrl;
        this.http = Http.builder().cookieHandler(cookies).build();
    }

    /** An answer of the server: a login page, the gate's 429 page, a redirect. */
    public record LoginResult(int status, String body, String location) {

        /** The action of its login form, or null. */
        public String formAction() {
            return BrowserLogin.formAction(body);
        }

        /** The action of its login form, or a clear failure. */
        public String requireFormAction() {
            return Optional.ofNullable(formAction()).orElseThrow(() -> new AssertionError("No login form (HTTP " + status
                    + ", Location " + location + "):\n" + Json.abbreviate(body)));
        }

        /** True for a 302 to the client's redirect URI carrying an authorization code. */
        public boolean loginSucceeded() {
            return status == 302 && location != null && location.startsWith(RealmBuilder.REDIRECT_URI)
                    && queryParam(location, "code").isPresent();
        }

        public Optional<String> code() {
            return location == null ? Optional.empty() : queryParam(location, "code");
        }

        /** {@code data-code} of the element with id="abuse-gate-status" ("blocked", "captcha_required"), if present. */
        public Optional<String> gateCode() {
            return attributeOfElement(body, "abuse-gate-status", "data-code");
        }

        /** The gate's localized message, if present. */
        public Optional<String> gateMessage() {
            return elementText(body, "abuse-gate-status");
        }

        /** Keycloak's own login error: the field error ({@code #input-error-username} …) or else the page's alert. */
        public Optional<String> keycloakError() {
            return Stream.of("input-error-username", "input-error-password", "input-error")
                    .flatMap(id -> elementText(body, id).filter(x -> !x.isEmpty()).stream()).findFirst()
                    .or(() -> Optional.ofNullable(body).map(FEEDBACK::matcher).filter(Matcher::find).map(m -> text(m.group(1))))
                    .filter(x -> !x.isEmpty());
        }

        /** This answer as the page to submit next (to try again in the same authentication session). */
        public LoginResult nextPage() {
            return this;
        }

        @Override
        public String toString() {
            return "LoginResult[status=" + status + ", location=" + location + ", gateCode=" + gateCode().orElse(null)
                    + ", keycloakError=" + keycloakError().orElse(null) + "]";
        }
    }

    /** GET the authorization endpoint of {@code realm}, with X-Forwarded-For if {@code forwardedFor} is not null. */
    public LoginResult openLoginPage(String realm, String forwardedFor) {
        return result(rawGet(authUrl(realm), forwardedFor));
    }

    public LoginResult submit(LoginResult page, String username, String password, String forwardedFor, Map<String, String> extraFields) {
        Map<String, String> fields = Http.fields("username", username, "password", password, "credentialId", "");
        fields.putAll(extraFields);
        return post(page.requireFormAction(), fields, forwardedFor);
    }

    /** Opens the login page and submits the credentials (and extra fields): one attempt in a new authentication session. */
    public LoginResult login(String realm, String username, String password, String forwardedFor) {
        return login(realm, username, password, forwardedFor, Map.of());
    }

    public LoginResult login(String realm, String username, String password, String forwardedFor, Map<String, String> extraFields) {
        return submit(openLoginPage(realm, forwardedFor), username, password, forwardedFor, extraFields);
    }

    /** POSTs arbitrary form fields to an absolute action URL (must be on this server). Redirects are not followed. */
    public LoginResult post(String actionUrl, Map<String, String> fields, String forwardedFor) {
        return result(rawPost(actionUrl, fields, forwardedFor));
    }

    /** POSTs {@code formBody} as it is (any bytes, which no well-behaved browser sends) to the page's form. */
    public LoginResult postBytes(LoginResult page, byte[] formBody, String forwardedFor) {
        return result(postBody(page.requireFormAction(), formBody, forwardedFor));
    }

    private LoginResult result(HttpResponse<String> r) {
        return new LoginResult(r.statusCode(), r.body(), r.headers().firstValue("Location").orElse(null));
    }

    /** The action of the form with id="kc-form-login", else of the first form; HTML-unescaped; null if none. */
    public static String formAction(String html) {
        if (html == null) {
            return null;
        }
        List<String> forms = FORM_TAG.matcher(html).results().map(MatchResult::group)
                .filter(t -> attribute(t, "action").isPresent()).toList();
        return forms.stream().filter(t -> attribute(t, "id").filter("kc-form-login"::equals).isPresent()).findFirst()
                .or(() -> forms.stream().findFirst()).flatMap(t -> attribute(t, "action")).orElse(null);
    }

    /** Value (unescaped) of {@code attribute} on the element with the given id. */
    public static Optional<String> attributeOfElement(String html, String id, String attribute) {
        Matcher m = startTag(html, id);
        return m == null ? Optional.empty() : attribute(m.group(), attribute);
    }

    /** Text content (tags stripped, entities decoded, whitespace collapsed) of the element with the given id. */
    public static Optional<String> elementText(String html, String id) {
        Matcher m = startTag(html, id);
        if (m == null) {
            return Optional.empty();
        }
        // find the matching end tag, counting nested elements of the same name
        Matcher tags = Pattern.compile("<(/?)" + Pattern.quote(m.group(1)) + "\\b[^>]*>", Pattern.CASE_INSENSITIVE).matcher(html);
        int depth = 1;
        int end = html.length();
        tags.region(m.end(), html.length());
        while (tags.find()) {
            depth += tags.group(1).isEmpty() ? 1 : -1;
            if (depth == 0) {
                end = tags.start();
                break;
            }
        }
        return Optional.of(text(html.substring(m.end(), end)));
    }

    private static String text(String htmlFragment) {
        return unescape(htmlFragment.replaceAll("<[^>]*>", " ")).replaceAll("\\s+", " ").strip();
    }

    /** Decodes the HTML entities Keycloak's templates produce (&amp;amp; &amp;lt; &amp;#39; &amp;#x2F; …). */
    public static String unescape(String s) {
        return ENTITY.matcher(s).replaceAll(m -> Matcher.quoteReplacement(switch (m.group(1)) {
            case "amp" -> "&";
            case "lt" -> "<";
            case "gt" -> ">";
            case "quot" -> "\"";
            case "apos", "#39" -> "'";
            default -> new String(Character.toChars(m.group(1).startsWith("#x")
                    ? Integer.parseInt(m.group(1).substring(2), 16) : Integer.parseInt(m.group(1).substring(1))));
        }));
    }

    /** The start tag of the element with the given id (group 1 its name), or null. */
    private static Matcher startTag(String html, String id) {
        if (html == null) {
            return null;
        }
        Matcher m = Pattern.compile("<([a-zA-Z0-9]+)\\b[^>]*\\bid\\s*=\\s*[\"']" + Pattern.quote(id) + "[\"'][^>]*>").matcher(html);
        return m.find() ? m : null;
    }

    private static Optional<String> attribute(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "\\s*=\\s*(\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE).matcher(tag);
        return m.find() ? Optional.of(unescape(m.group(2) != null ? m.group(2) : m.group(3))) : Optional.empty();
    }

    private static Optional<String> queryParam(String url, String name) {
        String query = URI.create(url).getRawQuery();
        return query == null ? Optional.empty() : Optional.ofNullable(Http.parseForm(query).get(name));
    }

    /** Sends a request to this server (and nowhere else) with a browser's headers and this browser's cookies. */
    private HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest r = request.header("Accept", "text/html,application/xhtml+xml").header("Accept-Language", "en")
                .header("User-Agent", "abuse-gate-it-browser").build();
        if (!r.uri().toString().startsWith(baseUrl + "/")) {
            throw new IllegalArgumentException("Refusing to leave the test server: " + r.uri());
        }
        return Http.send(http, r);
    }

    public Optional<String> cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name)).map(HttpCookie::getValue).findFirst();
    }

    /** Forgets every cookie but the named one: a browser whose session ended but which keeps that cookie. */
    public void keepOnlyCookie(String name) {
        for (HttpCookie c : new java.util.ArrayList<>(cookies.getCookieStore().getCookies())) {
            if (!c.getName().equals(name)) {
                cookies.getCookieStore().remove(null, c);
            }
        }
    }

    /** Plants a cookie for every path of this server (e.g. a forged or borrowed one). */
    public void setCookie(String name, String value) {
        HttpCookie c = new HttpCookie(name, value);
        c.setPath("/");
        c.setVersion(0);
        cookies.getCookieStore().add(URI.create(baseUrl), c);
    }

    /** GET {@code url} (on this server) with this browser's cookies; the whole response, headers included. */
    public HttpResponse<String> rawGet(String url, String forwardedFor) {
        return send(Http.request(url, forwardedFor).GET());
    }

    public String authUrl(String realm) {
        return baseUrl + "/realms/" + Http.enc(realm) + "/protocol/openid-connect/auth?client_id=" + Http.enc(RealmBuilder.CLIENT_ID)
                + "&response_type=code&scope=openid&redirect_uri=" + Http.enc(RealmBuilder.REDIRECT_URI);
    }

    /** Like {@link #post} but returns the whole response, headers included. */
    public HttpResponse<String> rawPost(String actionUrl, Map<String, String> fields, String forwardedFor) {
        return postBody(actionUrl, Http.form(fields).getBytes(StandardCharsets.UTF_8), forwardedFor);
    }

    private HttpResponse<String> postBody(String actionUrl, byte[] formBody, String forwardedFor) {
        return send(Http.formPost(actionUrl, formBody, forwardedFor));
    }
}
