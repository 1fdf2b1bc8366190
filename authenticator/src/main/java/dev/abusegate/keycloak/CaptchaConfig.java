package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaProvider;
import dev.abusegate.captcha.CaptchaSettings;
import dev.abusegate.engine.config.SettingReader;

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

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "CaptchaConfig[provider=" + provider.id() + ", siteKey=" + siteKey + ", secret=" + (secret == null ? "unset" : "(set)")
                + ", verifyUrl=" + verifyUrl + ", altchaMaxNumber=" + altchaMaxNumber + ", altchaExpirySeconds="
                + altchaExpirySeconds + ", minScore=" + minScore + ", verifyBudget=" + verifyBudget + "]";
    }

    /** The hardest ALTCHA challenge a raised difficulty makes (see {@link #harder}). */
    public static final long MAX_RAISED_ALTCHA_NUMBER = 100_000_000;

    /** The same captcha with ALTCHA's difficulty raised {@code factor} times (at most {@value #MAX_RAISED_ALTCHA_NUMBER}). */
    public CaptchaConfig harder(int factor) {
        long raised = Math.max(altchaMaxNumber, Math.min(MAX_RAISED_ALTCHA_NUMBER, altchaMaxNumber * factor));
        return raised == altchaMaxNumber ? this
                : new CaptchaConfig(provider, siteKey, secret, verifyUrl, raised, altchaExpirySeconds, minScore, verifyBudget);
    }

    /** The form field that carries the solution for this provider. */
    public String formField() {
        return provider.formField();
    }

    public String effectiveVerifyUrl() {
        return verifyUrl == null ? provider.defaultVerifyUrl() : verifyUrl;
    }

    /** The captcha settings of an effective configuration (see {@link GateConfig.Cache#parse}). */
    static CaptchaConfig of(SettingReader c) {
        CaptchaProvider provider = c.get(CaptchaSettings.PROVIDER);
        String secret = c.get(CaptchaSettings.SECRET);
        String siteKey = c.get(CaptchaSettings.SITE_KEY);
        String url = c.get(CaptchaSettings.VERIFY_URL);
        if (!provider.selfHosted() && (siteKey == null || secret == null)) {
            c.report(CaptchaSettings.SECRET.key(),
                    provider.id() + " needs both captcha.siteKey and captcha.secret; no solution can verify until both are set",
                    SettingReader.USING_DEFAULT);
        }
        return new CaptchaConfig(provider, siteKey, secret, url, c.get(CaptchaSettings.ALTCHA_MAX_NUMBER),
                c.get(CaptchaSettings.ALTCHA_EXPIRY_SECONDS), c.get(CaptchaSettings.MIN_SCORE), c.get(CaptchaSettings.VERIFY_BUDGET));
    }
}
