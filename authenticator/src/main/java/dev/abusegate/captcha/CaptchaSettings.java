package dev.abusegate.captcha;

import dev.abusegate.engine.config.Range;
import dev.abusegate.engine.config.Setting;
import java.util.Arrays;
import java.util.List;

/** The captcha provider's configuration keys, each described once ({@link Setting}). */
public final class CaptchaSettings {

    public static final Setting<CaptchaProvider> PROVIDER = Setting.choice("captcha.provider", CaptchaProvider.ALTCHA.id(),
            Arrays.stream(CaptchaProvider.values()).map(CaptchaProvider::id).toList(), CaptchaProvider::byId, Setting.about("Captcha provider",
            "altcha: self-hosted proof of work, no third party, works offline. turnstile, hcaptcha, recaptcha: the vendor's "
                    + "widget, verified server-side with the site key and secret below."));
    public static final Setting<String> SITE_KEY = Setting.text("captcha.siteKey", "Captcha site key",
            "The public site key from the captcha vendor. Not used by altcha.");
    public static final Setting<String> SECRET = Setting.secret("captcha.secret", "Captcha secret",
            "The vendor's secret key (turnstile, hcaptcha, recaptcha). For altcha, optional: the HMAC key that signs challenges; "
                    + "when empty, a key derived from the realm's own HMAC key is used. Never shown back.");
    public static final Setting<String> VERIFY_URL = Setting.text("captcha.verifyUrl",
            url -> url.startsWith("https://") || url.startsWith("http://") ? null : "expected an http(s) URL", "Captcha verification URL",
            "Optional override of the vendor's siteverify endpoint (an http or https URL), e.g. for an egress proxy or "
                    + "reCAPTCHA's www.recaptcha.net domain. Leave empty for the vendor default.");
    public static final Setting<Long> ALTCHA_MAX_NUMBER = Setting.longInteger("captcha.altcha.maxNumber", 100_000, 1_000, 10_000_000,
            Setting.about("ALTCHA difficulty", "Largest number the browser may have to try. The average work is half of it."));
    public static final Setting<Long> ALTCHA_EXPIRY_SECONDS = Setting.longInteger("captcha.altcha.expirySeconds", 600, 30, 86_400,
            Setting.about("ALTCHA challenge lifetime (seconds)", "How long an ALTCHA challenge can be solved and submitted."));
    public static final Setting<Double> MIN_SCORE = Setting.decimal("captcha.recaptcha.minScore", 0.5, new Range(0, 1, false),
            Setting.about("reCAPTCHA v3 minimum score", "When reCAPTCHA answers with a score (v3), tokens scoring below this count as unsolved."));

    public static final Setting<Integer> VERIFY_BUDGET = Setting.integer("captcha.verifyBudget", 10, 1, 1000,
            Setting.about("Captcha verifications per address",
            "How many captcha solutions one address (IPv6: its prefix) may have checked in 10 minutes on each node. Past it, "
                    + "solutions are not sent to the vendor (or checked) and the answer stays 'captcha required'; never escalated."));

    /** The window of {@link #VERIFY_BUDGET}: fixed, from an address's first verification. */
    public static final long VERIFY_WINDOW_SECONDS = 600;

    private static final List<Setting<?>> ALL = List.of(PROVIDER, SITE_KEY, SECRET, VERIFY_URL, ALTCHA_MAX_NUMBER,
            ALTCHA_EXPIRY_SECONDS, MIN_SCORE, VERIFY_BUDGET);

    private CaptchaSettings() {
    }

    /** Every captcha key, in the order the admin console shows them. */
    public static List<Setting<?>> all() {
        return ALL;
    }
}
