package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.captcha.CaptchaService;
import org.keycloak.authentication.AuthenticationFlowContext;

/**
 * The identity-first hand-over: when the gated username step let an attempt through (layers 1, 2 and 4) and
 * Keycloak chose a user, it leaves an auth note {@code <user id>|<client address>}; the gated password step of the
 * same authentication session then runs only layer 3 for that one password check. Server-side (the client cannot
 * set it) and single-use.
 *
 * <p>A captcha solution the username step passed with is not spent there (that step checks no password, so it must
 * write nothing a sender could multiply): it rides along in a second note and the password step spends it (records it
 * as used) only when it checks a password. A hand-over that is cleared drops it unspent.
 */
final class IdentityFirstHandover {

    static final String NOTE = "abuse-gate.username-step";
    static final String CAPTCHA_NOTE = "abuse-gate.username-step.captcha";

    private final AuthenticationFlowContext ctx;

    IdentityFirstHandover(AuthenticationFlowContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The username step let the attempt through and Keycloak chose a user: tell the password step, with the captcha
     * solution the attempt passed with (null: none).
     */
    void offer(CaptchaService.Solution captcha) {
        if (ctx.getUser() != null) {
            ctx.getAuthenticationSession().setAuthNote(NOTE, note(ctx.getUser().getId()));
            if (captcha != null) {
                ctx.getAuthenticationSession().setAuthNote(CAPTCHA_NOTE, captcha.note());
            }
        }
    }

    /** The solution the username step passed with, still to be spent by the password step; null when none. */
    CaptchaService.Solution carriedCaptcha() {
        return CaptchaService.Solution.ofNote(ctx.getAuthenticationSession().getAuthNote(CAPTCHA_NOTE));
    }

    /** The attempt has been counted (or a new username step begins): a hand-over is used up, its captcha unspent. */
    void clear() {
        ctx.getAuthenticationSession().removeAuthNote(NOTE);
        ctx.getAuthenticationSession().removeAuthNote(CAPTCHA_NOTE);
    }

    /**
     * The password step's scope: layer 3 only when the gated username step of this authentication session counted
     * this attempt for the same user from the same address; otherwise all layers. A note that does not match is
     * dropped.
     */
    LayerScope passwordStepScope() {
        String note = ctx.getAuthenticationSession().getAuthNote(NOTE);
        if (note == null) {
            return LayerScope.ALL;
        }
        if (ctx.getUser() != null && note.equals(note(ctx.getUser().getId()))) {
            return LayerScope.LOCKOUT_ONLY;
        }
        clear();
        return LayerScope.ALL;
    }

    private String note(String userId) {
        String address = ctx.getConnection() == null ? null : ctx.getConnection().getRemoteAddr();
        return userId + "|" + address;
    }
}
