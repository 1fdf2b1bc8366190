package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.Decision;
import dev.abusegate.engine.Outages;
import dev.abusegate.engine.Passwords;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.keycloak.events.GateEvents;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.util.Set;
import java.util.function.Supplier;
import org.keycloak.authentication.AuthenticationFlowContext;

/**
 * The settlement after the password check: feeds how an attempt the gate let through ended back into layer 3, for
 * every login name of the account, and gives the reservation back when no password was verified. On success a device
 * cookie is issued (browser forms, when enabled); on a wrong password its keyed tag lets repeats of the same typo be
 * recognised.
 */
final class Settlement {

    private final AuthenticationFlowContext ctx;
    private final GateRuntime runtime;
    private final Decision decision;
    private final GateOptions options;
    private final String identifier;
    private final String device;
    private final boolean browser;

    Settlement(AuthenticationFlowContext ctx, GateRuntime runtime, Decision decision, GateOptions options, String identifier,
               String device, boolean browser) {
        this.ctx = ctx;
        this.runtime = runtime;
        this.decision = decision;
        this.options = options;
        this.identifier = identifier;
        this.device = device;
        this.browser = browser;
    }

    /** Keycloak's check ended with {@code outcome}; {@code password} is the one it checked. */
    void settle(Verification outcome, String password) {
        Outages trouble;
        switch (outcome) {
            case VERIFIED:
                trouble = runtime.gate().passwordSucceeded(decision, AccountNames.ofCheckedAccount(ctx, identifier));
                if (decision.passwordSprayed()) {
                    new GateEvents(ctx, runtime).passwordSprayed(); // the password-spray layer: for operators only
                }
                if (browser && options.deviceCookieEnabled() && decision.identifierTag().isPresent() && ctx.getUser() != null) {
                    issueDeviceCookie();
                }
                break;
            case FAILED:
                trouble = runtime.gate().passwordFailed(decision, passwordTag(password), AccountNames.ofCheckedAccount(ctx, identifier));
                break;
            default:
                trouble = runtime.gate().notVerified(decision);
        }
        new GateEvents(ctx, runtime).storeUnavailable(trouble, options.storeFailureEventsPerMinute());
    }

    /**
     * Runs Keycloak's check; if it throws, nothing was verified: the reservation is given back ({@link #abandon()}) and
     * the exception goes on. When the check returns, the caller settles with its outcome (or the check does, as the
     * direct grant's does).
     */
    <T> T guard(Supplier<T> check) {
        try {
            return check.get();
        } catch (RuntimeException e) {
            abandon();
            throw e;
        }
    }

    /** As {@link #guard(Supplier)}, for a check that answers through the flow context. */
    void guard(Runnable check) {
        guard(() -> {
            check.run();
            return null;
        });
    }

    /** No password was verified (a missing one, or the check threw): give the reservation back. */
    void abandon() {
        settle(Verification.NOT_VERIFIED, null);
    }

    private void issueDeviceCookie() {
        try {
            DeviceCookies.issue(ctx, runtime.gate(), runtime.secrets().deviceKey(ctx.getSession(), ctx.getRealm()),
                    ctx.getUser(), device, options.deviceCookieDays());
        } catch (RuntimeException e) {
            runtime.warnEvery("device:" + ctx.getRealm().getId(), "Abuse gate: could not issue a device cookie in realm '"
                    + ctx.getRealm().getName() + "' (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The keyed tag of a wrong password when repeats are to be recognised, else 0. */
    private long passwordTag(String password) {
        if (!options.ignoreRepeatedPasswords() || Passwords.missing(password) || decision.identifierTag().isEmpty()) {
            return 0L;
        }
        try {
            return DeviceCookies.passwordTag(runtime.secrets().typoKey(ctx.getSession(), ctx.getRealm()), decision, password);
        } catch (RuntimeException e) {
            return 0L;
        }
    }
}
