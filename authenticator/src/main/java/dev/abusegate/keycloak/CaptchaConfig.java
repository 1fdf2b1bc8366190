package dev.abusegate.keycloak;

import dev.abusegate.captcha.CaptchaProvider;
import dev.abusegate.captcha.CaptchaSettings;
import dev.abusegate.engine.config.Setting;
import dev.abusegate.engine.config.SettingValues;
import dev.abusegate.engine.config.SettingReader;
import dev.abusegate.engine.config.RealmSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Captcha provider settings of one execution: one value per key of {@link CaptchaSettings#all()} (which provider, its
 * site key and secret, an optional verification endpoint override, ALTCHA's difficulty and lifetime, reCAPTCHA's
 * score, the verification budget), and the ALTCHA difficulty offered: the setting's, or more while the realm is under
 * attack ({@link #harder}). Checking and printing come from the descriptors, so a new captcha key is its descriptor
 * (listed in {@link CaptchaSettings#all()}) and its docs/reference.md row, read with {@link #get(Setting)}. The secret is a PASSWORD property: written in the admin
 * console, never shown back, never logged, never rendered (so the values are not handed out as a map, whose
 * printing would show it).
 */
public final class CaptchaConfig {

    /** The hardest ALTCHA challenge a raised difficulty makes (see {@link #harder}). */
    public static final long MAX_RAISED_ALTCHA_NUMBER = RealmSettings.MAX_RAISED_ALTCHA_NUMBER;

    /** By key, the typed value of each of {@link CaptchaSettings#all()}. */
    private final Map<String, Object> values;
    /** The largest number an ALTCHA challenge offered may need. */
    private final long altchaMaxNumber;

    /**
     * Checks every value against its descriptor; rejects an unknown key.
     *
     * @param values          by key, the typed value of each of {@link CaptchaSettings#all()}; a key left out has its default
     * @param altchaMaxNumber the largest number an ALTCHA challenge offered may need
     */
    private CaptchaConfig(Map<String, Object> values, long altchaMaxNumber) {
        this.values = SettingValues.checked(CaptchaSettings.all(), values);
        this.altchaMaxNumber = altchaMaxNumber;
        long max = Math.max(MAX_RAISED_ALTCHA_NUMBER, (long) CaptchaSettings.ALTCHA_MAX_NUMBER.max());
        if (altchaMaxNumber < 1 || altchaMaxNumber > max) {
            throw new IllegalArgumentException("ALTCHA difficulty must be between 1 and " + max + ", was " + altchaMaxNumber);
        }
    }

    /** The captcha settings of an effective configuration (see {@link GateConfig.Cache#parse}). */
    static CaptchaConfig of(SettingReader c) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Setting<?> s : CaptchaSettings.all()) {
            values.put(s.key(), c.get(s));
        }
        CaptchaConfig config = new CaptchaConfig(values, (Long) values.get(CaptchaSettings.ALTCHA_MAX_NUMBER.key()));
        if (!config.provider().selfHosted() && (config.siteKey() == null || config.secret() == null)) {
            c.report(CaptchaSettings.SECRET.key(), config.provider().id()
                    + " needs both captcha.siteKey and captcha.secret; no solution can verify until both are set", SettingReader.USING_DEFAULT);
        }
        return config;
    }

    /** The value of one of {@link CaptchaSettings#all()}. */
    public <T> T get(Setting<T> s) {
        return s.in(values);
    }

    /** The ALTCHA difficulty offered: the largest number a challenge may need. */
    public long altchaMaxNumber() {
        return altchaMaxNumber;
    }

    public CaptchaProvider provider() {
        return get(CaptchaSettings.PROVIDER);
    }

    public String siteKey() {
        return get(CaptchaSettings.SITE_KEY);
    }

    public String secret() {
        return get(CaptchaSettings.SECRET);
    }

    public String verifyUrl() {
        return get(CaptchaSettings.VERIFY_URL);
    }

    public long altchaExpirySeconds() {
        return get(CaptchaSettings.ALTCHA_EXPIRY_SECONDS);
    }

    public double minScore() {
        return get(CaptchaSettings.MIN_SCORE);
    }

    public int verifyBudget() {
        return get(CaptchaSettings.VERIFY_BUDGET);
    }

    /**
     * The same captcha with ALTCHA's difficulty raised {@code factor} times, to at most {@value #MAX_RAISED_ALTCHA_NUMBER}
     * (a difficulty already above that is not raised, nor ever lowered).
     */
    public CaptchaConfig harder(double factor) {
        long raised = Math.max(altchaMaxNumber, Math.min(MAX_RAISED_ALTCHA_NUMBER, Math.round(altchaMaxNumber * factor)));
        return raised == altchaMaxNumber ? this : new CaptchaConfig(values, raised);
    }

    /** The form field that carries the solution for this provider. */
    public String formField() {
        return provider().formField();
    }

    public String effectiveVerifyUrl() {
        return verifyUrl() == null ? provider().defaultVerifyUrl() : verifyUrl();
    }

    /** Every setting by key, the secret only as set or unset. */
    @Override
    public String toString() {
        StringJoiner out = new StringJoiner(", ", "CaptchaConfig[", ", offered altcha.maxNumber=" + altchaMaxNumber + "]");
        for (Setting<?> s : CaptchaSettings.all()) {
            Object value = values.get(s.key());
            out.add(s.key() + "=" + (s.kind() == Setting.Kind.SECRET ? (value == null ? "unset" : "(set)")
                    : value instanceof CaptchaProvider p ? p.id() : value));
        }
        return out.toString();
    }
}
