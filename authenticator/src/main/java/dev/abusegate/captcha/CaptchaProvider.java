package dev.abusegate.captcha;

import java.util.List;
import java.util.Locale;

/** The captcha services the gate can challenge with. Ids and form fields are public interface. */
public enum CaptchaProvider {
    /** Self-hosted proof of work: no third party, works offline. */
    ALTCHA("altcha", "altcha", null, null, List.of()),
    TURNSTILE("turnstile", "cf-turnstile-response",
            "https://challenges.cloudflare.com/turnstile/v0/siteverify",
            "https://challenges.cloudflare.com/turnstile/v0/api.js",
            List.of("https://challenges.cloudflare.com")),
    HCAPTCHA("hcaptcha", "h-captcha-response",
            "https://api.hcaptcha.com/siteverify",
            "https://js.hcaptcha.com/1/api.js",
            List.of("https://hcaptcha.com", "https://*.hcaptcha.com")),
    RECAPTCHA("recaptcha", "g-recaptcha-response",
            "https://www.google.com/recaptcha/api/siteverify",
            "https://www.google.com/recaptcha/api.js",
            List.of("https://www.google.com", "https://www.recaptcha.net", "https://recaptcha.google.com"));

    private final String id;
    private final String formField;
    private final String defaultVerifyUrl;
    private final String scriptUrl;
    private final List<String> frameOrigins;

    CaptchaProvider(String id, String formField, String defaultVerifyUrl, String scriptUrl, List<String> frameOrigins) {
        this.id = id;
        this.formField = formField;
        this.defaultVerifyUrl = defaultVerifyUrl;
        this.scriptUrl = scriptUrl;
        this.frameOrigins = frameOrigins;
    }

    public String id() {
        return id;
    }

    /** The form field the widget fills with its solution. */
    public String formField() {
        return formField;
    }

    /** The provider's siteverify endpoint; null for ALTCHA, which is verified locally. */
    public String defaultVerifyUrl() {
        return defaultVerifyUrl;
    }

    /** The widget script; null for ALTCHA, which is served from the JAR. */
    public String scriptUrl() {
        return scriptUrl;
    }

    /** Origins the widget frames come from; the page's CSP allows them for that response only. */
    public List<String> frameOrigins() {
        return frameOrigins;
    }

    public boolean selfHosted() {
        return this == ALTCHA;
    }

    /** Parses a configured id; null when it names no provider. */
    public static CaptchaProvider byId(String id) {
        if (id == null) {
            return null;
        }
        String s = id.trim().toLowerCase(Locale.ROOT);
        for (CaptchaProvider p : values()) {
            if (p.id.equals(s)) {
                return p;
            }
        }
        return null;
    }
}
