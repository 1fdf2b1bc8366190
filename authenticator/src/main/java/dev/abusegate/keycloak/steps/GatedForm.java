package dev.abusegate.keycloak.steps;

import dev.abusegate.keycloak.answer.MissingPasswordAnswer;
import dev.abusegate.keycloak.answer.TooManyAttemptsPage;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator;
import org.keycloak.models.UserModel;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * A gated login form: one of Keycloak's own forms (each extends a different Keycloak class, so this is an interface)
 * whose check runs through {@link #gatedCheck}. The form says only what differs, in small hooks named as Keycloak's
 * {@code AbstractUsernameFormAuthenticator} names its own: which user Keycloak already chose, Keycloak's own check,
 * Keycloak's page for a wrong password, and, where they differ from a username-and-password page, the name counted,
 * the fields the 429 page offers again and the layers it runs. A new gated form is a class with these hooks.
 *
 * <p>The story, for every form alike ({@link GatedAttempt}): the gate first, before any lookup or hash; when it does
 * not let the attempt through, the 429 page ({@link TooManyAttemptsPage}). Then a step that checks no password (the
 * identity-first username page) runs Keycloak's check and hands over to the password step ({@link
 * IdentityFirstHandover}); a step that checks one answers a missing password from the request alone ({@link
 * MissingPasswordAnswer}), else runs Keycloak's own check, whose outcome is settled on layer 3 ({@link Settlement}).
 */
public interface GatedForm {

    /**
     * The user Keycloak already chose before this page (re-authentication), else null: as Keycloak's
     * {@code isUserAlreadySetBeforeUsernamePasswordAuth} decides it, from the authentication session's note.
     */
    default UserModel knownUser(AuthenticationFlowContext context) {
        return Boolean.parseBoolean(context.getAuthenticationSession()
                .getAuthNote(AbstractUsernameFormAuthenticator.USER_SET_BEFORE_USERNAME_PASSWORD_AUTH)) ? context.getUser() : null;
    }

    /** Keycloak's own check of the submitted form (the overridden Keycloak method). */
    boolean keycloakCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData);

    /**
     * Keycloak's page for a wrong or missing password ({@code challenge(context, getDefaultChallengeMessage(context),
     * Validation.FIELD_PASSWORD)}). Steps that check no password never show it.
     */
    default Response wrongPasswordPage(AuthenticationFlowContext context) {
        throw new UnsupportedOperationException("this step checks no password");
    }

    /** The name the gate counts: the name Keycloak is about to check (the known user's, else the typed one). */
    default String countedName(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        UserModel known = knownUser(context);
        return known != null ? known.getUsername() : formData.getFirst(AuthenticationManager.FORM_USERNAME);
    }

    /** The fields the 429 page offers again: the password alone when Keycloak already chose the user. */
    default TooManyAttemptsPage.Fields shownFields(AuthenticationFlowContext context) {
        return knownUser(context) != null ? TooManyAttemptsPage.Fields.PASSWORD : TooManyAttemptsPage.Fields.USERNAME_AND_PASSWORD;
    }

    /** The layers this step runs (see {@link LayerScope}). */
    default LayerScope scope(AuthenticationFlowContext context) {
        return LayerScope.ALL;
    }

    /** The gated check: what the form's {@code validateForm} (or {@code validateUserAndPassword}) returns. */
    default boolean gatedCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        LayerScope scope = scope(context);
        IdentityFirstHandover handover = new IdentityFirstHandover(context);
        boolean checksPassword = scope != LayerScope.BEFORE_LOOKUP;
        if (!checksPassword) {
            handover.clear(); // a new username step: an older hand-over is void
        }
        String name = countedName(context, formData);
        GatedAttempt attempt = GatedAttempt.evaluate(context, name,
                captcha -> formData == null ? null : formData.getFirst(captcha.formField()), true, scope);
        if (!attempt.allowed()) {
            TooManyAttemptsPage.show(context, attempt, name, shownFields(context),
                    formData != null && "on".equalsIgnoreCase(formData.getFirst("rememberMe")));
            return false;
        }
        if (!checksPassword) {
            boolean ok = keycloakCheck(context, formData);
            if (ok) {
                handover.offer();
            }
            return ok;
        }
        handover.clear(); // this attempt has been counted: a hand-over from the username step is used up
        Settlement settlement = attempt.settlement();
        String password = formData.getFirst(CredentialRepresentation.PASSWORD);
        if (MissingPasswordAnswer.blank(password)) {
            // The same answer and bookkeeping for every name, known or not: nothing was verified.
            settlement.abandon();
            UserModel known = knownUser(context);
            MissingPasswordAnswer.onForm(context, known == null ? name : null, known, () -> wrongPasswordPage(context));
            return false;
        }
        Verification.forgetAccepted(context);
        boolean ok;
        try {
            ok = keycloakCheck(context, formData);
        } catch (RuntimeException e) {
            settlement.abandon();
            throw e;
        }
        settlement.settle(Verification.ofForm(context, ok), password);
        return ok;
    }
}
