package dev.abusegate.benchmarks.attack;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The HTTP requests both sides send: the login page, the form POST, the password grant; all with X-Forwarded-For. */
final class Web {

    static final Pattern ACTION = Pattern.compile("action=\"([^\"]*login-actions/authenticate[^\"]*)\"");

    private Web() {
    }

    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static HttpRequest loginPage(String base, String realm, String address, Duration timeout) {
        String url = base + "/realms/" + realm + "/protocol/openid-connect/auth?client_id=" + Realms.CLIENT
                + "&response_type=code&scope=openid&redirect_uri=" + enc(Realms.REDIRECT);
        return HttpRequest.newBuilder(URI.create(url)).header("X-Forwarded-For", address).timeout(timeout).GET().build();
    }

    static HttpRequest formPost(String action, Map<String, String> cookies, String address, String username, String password,
            Duration timeout) {
        return formPost(action, cookies, address, username, password, null, timeout);
    }

    /** The form POST, with an ALTCHA solution in the widget's field when {@code altcha} is not null. */
    static HttpRequest formPost(String action, Map<String, String> cookies, String address, String username, String password,
            String altcha, Duration timeout) {
        String body = "username=" + enc(username) + "&password=" + enc(password) + "&credentialId="
                + (altcha == null ? "" : "&altcha=" + enc(altcha));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(action)).header("X-Forwarded-For", address)
                .header("Content-Type", "application/x-www-form-urlencoded").timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!cookies.isEmpty()) {
            b.header("Cookie", cookieHeader(cookies));
        }
        return b.build();
    }

    static HttpRequest passwordGrant(String base, String realm, String address, String username, String password, Duration timeout) {
        return passwordGrant(base, realm, address, username, password, null, timeout);
    }

    /** The password grant, with a captcha solution as {@code captcha_token} when it is not null. */
    static HttpRequest passwordGrant(String base, String realm, String address, String username, String password, String captcha,
            Duration timeout) {
        String body = "grant_type=password&client_id=" + Realms.CLIENT + "&scope=openid&username=" + enc(username) + "&password="
                + enc(password) + (captcha == null ? "" : "&captcha_token=" + enc(captcha));
        return HttpRequest.newBuilder(URI.create(base + "/realms/" + realm + "/protocol/openid-connect/token"))
                .header("X-Forwarded-For", address).header("Content-Type", "application/x-www-form-urlencoded").timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /** The login form's action URL in a page (login page, wrong-password page, the gate's 429 page), or null. */
    static String action(String body) {
        Matcher m = ACTION.matcher(body);
        return m.find() ? m.group(1).replace("&amp;", "&") : null;
    }

    /** Adds (or replaces) the cookies a response sets; a cookie set to an empty value is dropped. */
    static void keepCookies(Map<String, String> jar, HttpHeaders headers) {
        for (String sc : headers.allValues("set-cookie")) {
            String nv = sc.split(";", 2)[0];
            int eq = nv.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = nv.substring(0, eq).trim();
            String value = nv.substring(eq + 1).trim();
            if (value.isEmpty() || sc.toLowerCase().contains("max-age=0")) {
                jar.remove(name);
            } else {
                jar.put(name, value);
            }
        }
    }

    static Map<String, String> jar() {
        return new LinkedHashMap<>();
    }

    static String cookieHeader(Map<String, String> jar) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : jar.entrySet()) {
            if (b.length() > 0) {
                b.append("; ");
            }
            b.append(e.getKey()).append('=').append(e.getValue());
        }
        return b.toString();
    }

    /** utime+stime of a process, in clock ticks, from /proc/&lt;pid&gt;/stat. */
    static long cpuTicks(long pid) {
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": f[0] is the state (field 3); utime is field 14, stime field 15
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/stat", e);
        }
    }
}
