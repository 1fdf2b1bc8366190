package dev.abusegate.keycloak.answer;

import dev.abusegate.keycloak.CaptchaConfig;
import dev.abusegate.keycloak.captcha.CaptchaService;

/** What a 429 answer shows of an attempt the gate did not let through. */
public interface Refusal {

    /** Past a threshold: no captcha is offered. */
    boolean blocked();

    /** The stable answer code: {@code blocked} or {@code captcha_required}. */
    String code();

    /** The captcha the realm offers for {@code captcha_required}, or null (blocked). */
    CaptchaConfig offeredCaptcha();

    /** A captcha solution came with the attempt (and was not enough). */
    boolean captchaSubmitted();

    /** The server's captcha integration, which renders the widget and signs the challenge the answer offers. */
    CaptchaService captchas();
}
