package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;

/** How an attempt the gate let through ended, for layer 3: the one classification every gated step uses. */
public enum Verification {
    /** The password was checked and accepted. */
    VERIFIED,
    /**
     * A password was checked and refused, or Keycloak answered as if it had: a wrong password, an unknown
     * name (Keycloak's dummy hash), Keycloak's own brute-force lock, a disabled account with a wrong password.
     * All counted alike, so the gate's counters never tell a real account from an unknown name.
     */
    FAILED,
    /** No password was checked: a missing one (decided from the request), or the check threw. */
    NOT_VERIFIED;

    /** Session attribute: Keycloak accepted the password in this request (see {@link #accepted}). */
    private static final String ACCEPTED = "abuse-gate.password-accepted";

    /**
     * What a gated form's {@code validatePassword} override returns: Keycloak's own answer {@code ok}, remembered for
     * this request when it accepted the password (so {@link #ofForm} can tell its own lock from an accepted password).
     */
    static boolean accepted(AuthenticationFlowContext ctx, boolean ok) {
        if (ok) {
            ctx.getSession().setAttribute(ACCEPTED, Boolean.TRUE);
        }
        return ok;
    }

    /** Before Keycloak's check: nothing accepted yet in this request. */
    static void forgetAccepted(AuthenticationFlowContext ctx) {
        ctx.getSession().removeAttribute(ACCEPTED);
    }

    /**
     * A login form's outcome after Keycloak's check: accepted, or refused (a failure challenge, or a force
     * challenge without Keycloak having accepted the password in this request: its own lock). Otherwise
     * (the right password for a disabled account: Keycloak says so only to whoever knows the password)
     * nothing is counted.
     */
    static Verification ofForm(AuthenticationFlowContext ctx, boolean accepted) {
        FlowStatus status = ctx.getStatus();
        if (accepted) {
            return VERIFIED;
        }
        return status == FlowStatus.FAILURE_CHALLENGE || status == FlowStatus.FAILED
                || status == FlowStatus.FORCE_CHALLENGE && ctx.getSession().getAttribute(ACCEPTED) == null
                ? FAILED : NOT_VERIFIED;
    }
}
