package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.AuthenticationFlowContext;

/**
 * The identity-first hand-over: when the gated username step let an attempt through (layers 1, 2 and 4) and
 * Keycloak chose a user, it leaves an auth note {@code <user id>|<client address>}; the gated password step of the
 * same authentication session then runs only layer 3 for that one password check. Server-side (the client cannot
 * set it) and single-use.
 */
final class IdentityFirstHandover {

    static final String NOTE = "abuse-gate.username-step";

    private final AuthenticationFlowContext ctx;

    IdentityFirstHandover(AuthenticationFlowContext ctx) {
        this.ctx = ctx;
    }

    /** The username step let the attempt through and Keycloak chose a user: tell the password step. */
    void offer() {
        if (ctx.getUser() != null) {
            ctx.getAuthenticationSession().setAuthNote(NOTE, note(ctx.getUser().getId()));
        }
    }

    /** The attempt has been counted (or a new username step begins): a hand-over is used up. */
    void clear() {
        ctx.getAuthenticationSession().removeAuthNote(NOTE);
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
