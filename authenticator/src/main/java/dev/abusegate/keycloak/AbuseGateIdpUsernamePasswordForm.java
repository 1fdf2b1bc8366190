package dev.abusegate.keycloak;

import jakarta.ws.rs.core.MultivaluedMap;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.authenticators.broker.IdpUsernamePasswordForm;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserModel;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.services.validation.Validation;

/**
 * Keycloak's "Username Password Form for identity provider reauthentication" (the first broker login flow's
 * "Authenticate to link your account" page) with the gate in front: on every POST the gate runs first, on the
 * name Keycloak is about to check, before the lookup and the hash. Keycloak's own page, lookup, dummy hash,
 * brute-force detection and linking run unchanged, and their outcome feeds the account-lockout layer.
 *
 * <p>The gate runs in {@code validateUserAndPassword}, after Keycloak's {@code validateForm} has put the
 * account found by the broker into the context: the name counted is the one Keycloak checks (that account
 * when Keycloak ignores the typed name, else the typed name).
 */
public class AbuseGateIdpUsernamePasswordForm extends IdpUsernamePasswordForm {

    public AbuseGateIdpUsernamePasswordForm(KeycloakSession session) {
        super(session);
    }

    @Override
    public boolean validateUserAndPassword(AuthenticationFlowContext context, MultivaluedMap<String, String> formData) {
        UserModel known = isUserAlreadySetBeforeUsernamePasswordAuth(context) ? context.getUser() : null;
        String identifier = known != null ? known.getUsername() : formData.getFirst(AuthenticationManager.FORM_USERNAME);
        GateSupport.Page page = known != null ? GateSupport.Page.PASSWORD : GateSupport.Page.USERNAME_AND_PASSWORD;
        return GateSupport.gated(context, identifier, formData, page, GateSupport.Scope.ALL,
                () -> super.validateUserAndPassword(context, formData),
                () -> GateSupport.answerMissingPassword(context, known == null ? identifier : null, known,
                        () -> challenge(context, getDefaultChallengeMessage(context), Validation.FIELD_PASSWORD)));
    }

    @Override
    public boolean validatePassword(AuthenticationFlowContext context, UserModel user, MultivaluedMap<String, String> inputData,
                                    boolean clearUser) {
        boolean ok = super.validatePassword(context, user, inputData, clearUser);
        if (ok) {
            GateSupport.passwordAccepted(context);
        }
        return ok;
    }
}
