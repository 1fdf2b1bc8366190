package dev.abusegate.keycloak.steps;

import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.sessions.AuthenticationSessionModel;

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

    /**
     * Keycloak's own auth note that it accepted a password: set by {@code validatePassword}, read later by its Update
     * Password action.
     */
    private static final String PASSWORD_VALIDATED = AuthenticationManager.PASSWORD_VALIDATED;

    /**
     * A login form's outcome after Keycloak's check: accepted, or refused (a failure challenge, or a force
     * challenge without Keycloak having accepted the password in this check: its own lock). Otherwise
     * (the right password for a disabled account: Keycloak says so only to whoever knows the password)
     * nothing is counted.
     *
     * @param ok       what Keycloak's check returned
     * @param accepted whether Keycloak accepted the password in this check ({@link AcceptanceNote#restore})
     */
    static Verification ofForm(AuthenticationFlowContext ctx, boolean ok, boolean accepted) {
        if (ok) {
            return VERIFIED;
        }
        FlowStatus status = ctx.getStatus();
        return status == FlowStatus.FAILURE_CHALLENGE || status == FlowStatus.FAILED
                || status == FlowStatus.FORCE_CHALLENGE && !accepted
                ? FAILED : NOT_VERIFIED;
    }

    /**
     * Keycloak's note that it accepted a password, set aside for one check so that what the check itself did shows.
     * The note outlives the request, and nothing in the check reads it: {@link #restore} puts an earlier note back
     * when the check set none, so Keycloak's state ends as it would have without the gate.
     */
    static final class AcceptanceNote {
        private final AuthenticationSessionModel authSession;
        private final String before;

        private AcceptanceNote(AuthenticationSessionModel authSession) {
            this.authSession = authSession;
            this.before = authSession.getAuthNote(PASSWORD_VALIDATED);
            authSession.removeAuthNote(PASSWORD_VALIDATED);
        }

        /** Before Keycloak's check: the note is set aside. */
        static AcceptanceNote setAside(AuthenticationFlowContext ctx) {
            return new AcceptanceNote(ctx.getAuthenticationSession());
        }

        /** After Keycloak's check: whether it accepted the password; the earlier note is back when it did not. */
        boolean restore() {
            boolean accepted = authSession.getAuthNote(PASSWORD_VALIDATED) != null;
            if (!accepted && before != null) {
                authSession.setAuthNote(PASSWORD_VALIDATED, before);
            }
            return accepted;
        }
    }
}
