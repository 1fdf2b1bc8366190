package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaProvider;
import dev.abusegate.captcha.CaptchaSettings;
import java.util.Map;

/**
 * Captcha provider settings of one execution: which provider, its site key and secret, an optional
 * verification endpoint override, and ALTCHA's difficulty. The secret is a PASSWORD property: written
 * in the admin console, never shown back, never logged, never rendered.
 */
public record CaptchaConfig(
        CaptchaProvider provider,
        String siteKey,
        String secret,
        String verifyUrl,
        long altchaMaxNumber,
        long altchaExpirySeconds,
        double minScore,
        int verifyBudget) {

    /** Keycloak shows a stored secret back as this mask; it is never a real secret. */
    private static final String MASK = "**********";

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "CaptchaConfig[provider=" + provider.id() + ", siteKey=" + siteKey + ", secret=" + (secret == null ? "unset" : "(set)")
                + ", verifyUrl=" + verifyUrl + ", altchaMaxNumber=" + altchaMaxNumber + ", altchaExpirySeconds="
                + altchaExpirySeconds + ", minScore=" + minScore + ", verifyBudget=" + verifyBudget + "]";
    }

    /** The form field that carries the solution for this provider. */
    public String formField() {
        return provider.formField();
    }

    public String effectiveVerifyUrl() {
        return verifyUrl == null ? provider.defaultVerifyUrl() : verifyUrl;
    }

    /** The captcha settings of an effective configuration (see {@link GateConfig#effective}). */
    static CaptchaConfig of(Map<String, String> c, String realm) {
        CaptchaProvider provider = CaptchaProvider.byId(GateConfig.choice(c, CaptchaSettings.PROVIDER, realm));
        String secret = trimmed(c.get(CaptchaSettings.SECRET.key()));
        if (MASK.equals(secret)) {
            secret = null;
        }
        String url = GateConfig.raw(c, CaptchaSettings.VERIFY_URL);
        if (url != null && !isHttpUrl(url)) {
            GateConfig.warn(realm, CaptchaSettings.VERIFY_URL.key(), "expected an http(s) URL");
            url = null;
        }
        String siteKey = GateConfig.raw(c, CaptchaSettings.SITE_KEY);
        if (!provider.selfHosted() && (siteKey == null || secret == null)) {
            GateConfig.warn(realm, CaptchaSettings.SECRET.key(),
                    provider.id() + " needs both captcha.siteKey and captcha.secret; no solution can verify until both are set");
        }
        return new CaptchaConfig(provider, siteKey, secret, url,
                GateConfig.integer(c, CaptchaSettings.ALTCHA_MAX_NUMBER, realm),
                GateConfig.integer(c, CaptchaSettings.ALTCHA_EXPIRY_SECONDS, realm),
                GateConfig.decimal(c, CaptchaSettings.MIN_SCORE, realm),
                (int) GateConfig.integer(c, CaptchaSettings.VERIFY_BUDGET, realm));
    }

    static boolean isHttpUrl(String url) {
        return url.startsWith("https://") || url.startsWith("http://");
    }

    private static String trimmed(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }
}
