package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaProvider;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.keycloak.models.AuthenticatorConfigModel;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.provider.ProviderConfigurationBuilder;

/**
 * Captcha provider settings of one execution: which provider, its site key and secret, an optional
 * verification endpoint override, and ALTCHA's difficulty. The secret is a PASSWORD property: written
 * in the admin console, never shown back, never logged, never rendered.
 */
record CaptchaConfig(
        CaptchaProvider provider,
        String siteKey,
        String secret,
        String verifyUrl,
        long altchaMaxNumber,
        long altchaExpirySeconds,
        double minScore,
        int verifyBudget) {

    static final String PROVIDER = "captcha.provider";
    static final String SITE_KEY = "captcha.siteKey";
    static final String SECRET = "captcha.secret";
    static final String VERIFY_URL = "captcha.verifyUrl";
    static final String ALTCHA_MAX_NUMBER = "captcha.altcha.maxNumber";
    static final String ALTCHA_EXPIRY_SECONDS = "captcha.altcha.expirySeconds";
    static final String MIN_SCORE = "captcha.recaptcha.minScore";
    static final String VERIFY_BUDGET = "captcha.verifyBudget";

    static final long DEFAULT_MAX_NUMBER = 100_000;
    static final long DEFAULT_EXPIRY_SECONDS = 600;
    static final double DEFAULT_MIN_SCORE = 0.5;
    static final int DEFAULT_VERIFY_BUDGET = 10;
    /** The window of {@link #VERIFY_BUDGET}: fixed, from an address's first verification. */
    static final long VERIFY_WINDOW_SECONDS = 600;

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
    String formField() {
        return provider.formField();
    }

    String effectiveVerifyUrl() {
        return verifyUrl == null ? provider.defaultVerifyUrl() : verifyUrl;
    }

    static CaptchaConfig of(AuthenticatorConfigModel model, String realm) {
        Map<String, String> c = model == null || model.getConfig() == null ? Collections.emptyMap() : model.getConfig();
        CaptchaProvider provider = CaptchaProvider.ALTCHA;
        String p = trimmed(c.get(PROVIDER));
        if (p != null) {
            provider = CaptchaProvider.byId(p);
            if (provider == null) {
                GateConfig.warn(realm, PROVIDER, "expected altcha, turnstile, hcaptcha or recaptcha");
                provider = CaptchaProvider.ALTCHA;
            }
        }
        String secret = trimmed(c.get(SECRET));
        if (MASK.equals(secret)) {
            secret = null;
        }
        String url = trimmed(c.get(VERIFY_URL));
        if (url != null && !(url.startsWith("https://") || url.startsWith("http://"))) {
            GateConfig.warn(realm, VERIFY_URL, "expected an http(s) URL");
            url = null;
        }
        if (!provider.selfHosted() && (trimmed(c.get(SITE_KEY)) == null || secret == null)) {
            GateConfig.warn(realm, provider == CaptchaProvider.ALTCHA ? PROVIDER : SECRET,
                    provider.id() + " needs both captcha.siteKey and captcha.secret; no solution can verify until both are set");
        }
        return new CaptchaConfig(provider, trimmed(c.get(SITE_KEY)), secret, url,
                GateConfig.number(c, ALTCHA_MAX_NUMBER, DEFAULT_MAX_NUMBER, 1_000, 10_000_000, realm),
                GateConfig.number(c, ALTCHA_EXPIRY_SECONDS, DEFAULT_EXPIRY_SECONDS, 30, 86_400, realm),
                GateConfig.decimal(c, MIN_SCORE, DEFAULT_MIN_SCORE, 0, 1, realm),
                (int) GateConfig.number(c, VERIFY_BUDGET, DEFAULT_VERIFY_BUDGET, 1, 1000, realm));
    }

    private static String trimmed(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }

    static List<ProviderConfigProperty> properties() {
        return ProviderConfigurationBuilder.create()
                .property().name(PROVIDER).label("Captcha provider")
                .helpText("altcha: self-hosted proof of work, no third party, works offline (default). turnstile, hcaptcha, "
                        + "recaptcha: the vendor's widget, verified server-side with the site key and secret below.")
                .type(ProviderConfigProperty.LIST_TYPE).options("altcha", "turnstile", "hcaptcha", "recaptcha")
                .defaultValue("altcha").add()
                .property().name(SITE_KEY).label("Captcha site key")
                .helpText("The public site key from the captcha vendor. Not used by altcha.")
                .type(ProviderConfigProperty.STRING_TYPE).add()
                .property().name(SECRET).label("Captcha secret")
                .helpText("The vendor's secret key (turnstile, hcaptcha, recaptcha). For altcha, optional: the HMAC key that signs "
                        + "challenges; when empty, a key derived from the realm's own HMAC key is used. Never shown back.")
                .type(ProviderConfigProperty.PASSWORD).secret(true).add()
                .property().name(VERIFY_URL).label("Captcha verification URL")
                .helpText("Optional override of the vendor's siteverify endpoint, e.g. for an egress proxy or reCAPTCHA's "
                        + "www.recaptcha.net domain. Leave empty for the vendor default.")
                .type(ProviderConfigProperty.STRING_TYPE).add()
                .property().name(ALTCHA_MAX_NUMBER).label("ALTCHA difficulty")
                .helpText("Largest number the browser may have to try (1000 to 10000000). The average work is half of it. "
                        + "Default " + DEFAULT_MAX_NUMBER + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(DEFAULT_MAX_NUMBER)).add()
                .property().name(ALTCHA_EXPIRY_SECONDS).label("ALTCHA challenge lifetime (seconds)")
                .helpText("How long an ALTCHA challenge can be solved and submitted (30 to 86400). Default "
                        + DEFAULT_EXPIRY_SECONDS + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(DEFAULT_EXPIRY_SECONDS)).add()
                .property().name(MIN_SCORE).label("reCAPTCHA v3 minimum score")
                .helpText("When reCAPTCHA answers with a score (v3), tokens scoring below this (0 to 1) count as unsolved. "
                        + "Default " + DEFAULT_MIN_SCORE + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(DEFAULT_MIN_SCORE)).add()
                .property().name(VERIFY_BUDGET).label("Captcha verifications per address")
                .helpText("turnstile, hcaptcha, recaptcha: how many captcha tokens from one client address (IPv6: its network "
                        + "of the configured prefix length) are sent to the vendor's siteverify endpoint per "
                        + (VERIFY_WINDOW_SECONDS / 60) + " minutes, per node (1 to 1000). Further tokens are not sent and the "
                        + "answer stays captcha_required, so a flood of bogus tokens cannot be amplified against the vendor or tie "
                        + "up Keycloak's threads. A wrong captcha answer still counts against no layer. Default "
                        + DEFAULT_VERIFY_BUDGET + ".")
                .type(ProviderConfigProperty.STRING_TYPE).defaultValue(String.valueOf(DEFAULT_VERIFY_BUDGET)).add()
                .build();
    }
}
