package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.Passwords;
import dev.abusegate.keycloak.answer.TooManyAttemptsPage;
import dev.abusegate.keycloak.captcha.CaptchaService;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.runtime.PasswordCheckQueue;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator;
import org.keycloak.events.Details;
import org.keycloak.models.UserModel;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * A gated login form: one of Keycloak's own forms (each extends a different Keycloak class, so this is an interface)
 * whose check runs through {@link #gatedCheck}. The form says only what differs, in small hooks named as Keycloak's
 * {@code AbstractUsernameFormAuthenticator} names its own: which user Keycloak already chose, Keycloak's own check and,
 * where they differ from a username-and-password page, the name counted, the fields the 429 page offers again and the
 * layers it runs. The two Keycloak methods it calls, {@code validateUserAndPassword} and {@code validatePassword}, are
 * public in {@code AbstractUsernameFormAuthenticator}, so every Keycloak form implements them already. A new gated form
 * is a class with these hooks.
 *
 * <p>The story, for every form alike ({@link GatedAttempt}): the gate first, before any lookup or hash; when it does
 * not let the attempt through, the 429 page ({@link TooManyAttemptsPage}). Then a step that checks no password (the
 * identity-first username page) runs Keycloak's check and hands over to the password step ({@link
 * IdentityFirstHandover}); a step that checks one answers a missing password from the request alone, with Keycloak's
 * own answer to an empty password ({@code answerMissingPassword}; missing as {@link Passwords#missing} decides, and such
 * an attempt spends no captcha solution), else runs Keycloak's own check, whose outcome
 * ({@link Verification}: what Keycloak's check returned, its flow status, and whether it set its own note that it
 * accepted the password) is settled on layer 3 ({@link Settlement}).
 */
public interface GatedForm {

    /** The server's runtime, which the form's factory handed the form. */
    GateRuntime runtime();

    /**
     * The user Keycloak already chose before this page (re-authentication), else null: as Keycloak's
     * {@code isUserAlreadySetBeforeUsernamePasswordAuth} decides it, from the authentication session's note.
     */
    default UserModel knownUser(AuthenticationFlowContext context) {
        return Boolean.parseBoolean(context.getAuthenticationSession()
                .getAuthNote(AbstractUsernameFormAuthenticator.USER_SET_BEFORE_USERNAME_PASSWORD_AUTH)) ? context.getUser() : null;
    }

    /**
     * Keycloak's own check of the submitted form: by default {@code validateUserAndPassword}, the whole check of a
     * username-and-password page. A form whose gate runs in another Keycloak method calls that method's Keycloak
     * version here.
     */
    default boolean keycloakCheck(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        return validateUserAndPassword(context, formData);
    }

    /** Keycloak's {@code AbstractUsernameFormAuthenticator.validateUserAndPassword}: lookup, then password. */
    boolean validateUserAndPassword(AuthenticationFlowContext context, MultivaluedMap<String, String> formData);

    /**
     * Keycloak's {@code AbstractUsernameFormAuthenticator.validatePassword}. Given no password, it answers without a
     * lookup or a hash: event {@code invalid_user_credentials}, the page again with the form's wrong-password message,
     * as a force challenge (so Keycloak's brute-force detection does not count it).
     */
    boolean validatePassword(AuthenticationFlowContext context, UserModel user, MultivaluedMap<String, String> inputData,
                             boolean clearUser);

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
        String password = checksPassword && formData != null ? formData.getFirst(CredentialRepresentation.PASSWORD) : null;
        // an attempt that will check no password (none, or no name: Keycloak answers that without a lookup or a hash)
        // spends no captcha solution (it is not even verified) and counts no failure
        boolean missing = checksPassword && Passwords.missing(password);
        boolean noName = checksPassword && name == null;
        GatedAttempt attempt = evaluate(context, formData, name, missing || noName, scope, password);
        if (attempt == null) {
            return false;
        }
        if (!checksPassword) {
            boolean ok = keycloakCheck(context, formData);
            if (ok) {
                handover.offer(attempt.verifiedCaptcha()); // spent by the password step, if it checks a password
            }
            return ok;
        }
        CaptchaService.Solution carried = scope == LayerScope.LOCKOUT_ONLY ? handover.carriedCaptcha() : null;
        handover.clear(); // this attempt has been counted: a hand-over from the username step is used up
        Settlement settlement = attempt.settlement();
        if (missing) {
            settlement.abandon(); // nothing was verified; the username page's solution, if any, stays unspent
            answerMissingPassword(context, name);
            return false;
        }
        if (!attempt.spend(attempt.verifiedCaptcha(), carried)) {
            // A solution this attempt (or its username page) passed with was spent elsewhere meanwhile, or cannot be
            // recorded: the pass does not hold. The attempt runs every layer again, without a solution, as on a
            // password page reached on its own (what it counted stays counted).
            settlement.abandon();
            attempt = evaluate(context, formData, name, true, LayerScope.ALL, password);
            if (attempt == null) {
                return false;
            }
            settlement = attempt.settlement();
            carried = null;
        }
        boolean ok;
        boolean accepted;
        try (PasswordCheckQueue.Turn turn = attempt.passwordCheckTurn()) {
            // the realm may have entered "under attack" while this attempt waited for its turn
            GatedAttempt late = attempt.realmEnteredMeanwhile(carried);
            if (late != null) {
                settlement.abandon();
                TooManyAttemptsPage.show(context, late, name, shownFields(context), rememberMe(formData));
                return false;
            }
            Verification.AcceptanceNote note = Verification.AcceptanceNote.setAside(context);
            try {
                ok = settlement.guard(() -> keycloakCheck(context, formData));
            } finally {
                accepted = note.restore();
            }
        }
        settlement.settle(noName && !ok ? Verification.NOT_VERIFIED : Verification.ofForm(context, ok, accepted), password);
        return ok;
    }

    /** Runs the gate for this attempt; null when it did not let it through (the 429 page is then the answer). */
    private GatedAttempt evaluate(AuthenticationFlowContext context, MultivaluedMap<String, String> formData, String name,
                                  boolean passwordMissing, LayerScope scope, String password) {
        GatedAttempt attempt = GatedAttempt.evaluate(runtime(), context, name,
                captcha -> formData == null || passwordMissing ? null : formData.getFirst(captcha.formField()), true, scope,
                !passwordMissing, password);
        if (attempt.allowed()) {
            return attempt;
        }
        TooManyAttemptsPage.show(context, attempt, name, shownFields(context), rememberMe(formData));
        return null;
    }

    /** Whether the form asked to be remembered (the 429 page keeps the box ticked). */
    private static boolean rememberMe(MultivaluedMap<String, String> formData) {
        return formData != null && "on".equalsIgnoreCase(formData.getFirst("rememberMe"));
    }

    /**
     * The answer to a missing password, the same for every name, known or not: Keycloak's own answer to an empty one,
     * given for the user Keycloak already chose (re-authentication, identity-first) or, with the typed name in the
     * event, for nobody. Nothing is looked up and nothing is hashed.
     */
    private void answerMissingPassword(AuthenticationFlowContext context, String name) {
        UserModel known = knownUser(context);
        if (known == null && name != null && !name.isEmpty()) {
            context.getEvent().detail(Details.USERNAME, name.trim());
        }
        validatePassword(context, known, new MultivaluedHashMap<>(), false);
    }
}
