package dev.abusegate.benchmarks.attack;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real user's captcha: finds the ALTCHA challenge in the gate's 429 answer (the token endpoint's JSON
 * {@code captcha_challenge}, or the {@code challengejson} attribute of the login page's {@code <altcha-widget>}) and
 * solves it as the widget does: the number {@code n <= maxnumber} with {@code sha256(salt + n) == challenge}. The
 * solution is the widget's payload, base64 of its JSON. Null when the answer holds no ALTCHA challenge.
 */
final class Captchas {

    private static final Pattern TOKEN_CHALLENGE = Pattern.compile("\"captcha_challenge\"\\s*:\\s*(\\{[^}]*\\})");
    private static final Pattern WIDGET = Pattern.compile("<altcha-widget\\b[^>]*>");
    private static final Pattern WIDGET_JSON = Pattern.compile("\\schallengejson\\s*=\\s*\"([^\"]*)\"");

    private Captchas() {
    }

    /** The solution of the challenge in a token endpoint's 429 JSON, or null. */
    static String solveJson(String body) {
        if (!body.contains("captcha_required")) {
            return null;
        }
        Matcher m = TOKEN_CHALLENGE.matcher(body);
        return m.find() ? solve(m.group(1)) : null;
    }

    /** The solution of the challenge on a 429 login page, or null. */
    static String solvePage(String html) {
        Matcher w = WIDGET.matcher(html);
        if (!w.find()) {
            return null;
        }
        Matcher j = WIDGET_JSON.matcher(w.group());
        return j.find() ? solve(unescape(j.group(1))) : null;
    }

    static String solve(String challengeJson) {
        String algorithm = field(challengeJson, "algorithm");
        String challenge = field(challengeJson, "challenge");
        String salt = field(challengeJson, "salt");
        String signature = field(challengeJson, "signature");
        String max = number(challengeJson, "maxnumber");
        if (challenge == null || salt == null || signature == null || max == null || !"SHA-256".equals(algorithm)) {
            return null;
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        HexFormat hex = HexFormat.of();
        long limit = Long.parseLong(max);
        for (long n = 0; n <= limit; n++) {
            if (hex.formatHex(sha.digest((salt + n).getBytes(StandardCharsets.UTF_8))).equals(challenge)) {
                String payload = "{\"algorithm\":\"SHA-256\",\"challenge\":\"" + challenge + "\",\"number\":" + n + ",\"salt\":\""
                        + salt + "\",\"signature\":\"" + signature + "\",\"took\":1}";
                return Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
            }
        }
        return null;
    }

    /** A string field of a flat JSON object (the challenge's values hold no quotes or escapes). */
    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static String number(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static String unescape(String s) {
        return s.replace("&quot;", "\"").replace("&#34;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
