package dev.abusegate.keycloak.steps;

import java.util.ArrayList;
import java.util.List;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;

/**
 * An account's login names: its username, and its e-mail when the realm lets users log in with it. Layer 3 keeps
 * one budget per account whatever name was typed, and the admin clear clears them all.
 */
public final class AccountNames {

    private AccountNames() {
    }

    /** An account's login names: its username, and its e-mail when the realm lets users log in with it. */
    public static List<String> of(RealmModel realm, UserModel user) {
        List<String> names = new ArrayList<>(2);
        if (user.getUsername() != null) {
            names.add(user.getUsername());
        }
        if (realm.isLoginWithEmailAllowed() && user.getEmail() != null) {
            names.add(user.getEmail());
        }
        return names;
    }

    /**
     * The login names of the account the password was checked for. None when no account was found: an unknown
     * username keeps its own counter (what that lets a client tell apart: docs/security.md, "Two names of one
     * account").
     */
    static List<String> ofCheckedAccount(AuthenticationFlowContext ctx, String identifier) {
        UserModel user = checkedAccount(ctx, identifier);
        if (user == null) {
            return List.of();
        }
        return of(ctx.getRealm(), user);
    }

    /**
     * The account whose password Keycloak just checked, for every gated step alike: the context's user; else,
     * on a wrong password, the user Keycloak named in the login event before it cleared the context's user
     * ({@code AbstractUsernameFormAuthenticator.badPasswordHandler(..., clearUser=true)}, which every step built
     * on Keycloak's username/password check goes through), provided the typed name is one of that account's
     * login names. No lookup of our own: an unknown name costs nothing more.
     */
    private static UserModel checkedAccount(AuthenticationFlowContext ctx, String identifier) {
        if (ctx.getUser() != null) {
            return ctx.getUser();
        }
        String id = ctx.getEvent() == null || ctx.getEvent().getEvent() == null ? null : ctx.getEvent().getEvent().getUserId();
        if (id == null || identifier == null) {
            return null;
        }
        UserModel user = ctx.getSession().users().getUserById(ctx.getRealm(), id);
        return user != null && namedBy(ctx.getRealm(), user, identifier.trim()) ? user : null;
    }

    /** Whether {@code name} is one of the account's login names (as Keycloak matches them: case-insensitive). */
    private static boolean namedBy(RealmModel realm, UserModel user, String name) {
        return name.equalsIgnoreCase(user.getUsername())
                || realm.isLoginWithEmailAllowed() && user.getEmail() != null && name.equalsIgnoreCase(user.getEmail());
    }
}
