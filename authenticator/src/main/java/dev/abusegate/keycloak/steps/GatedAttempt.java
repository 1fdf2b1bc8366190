package dev.abusegate.keycloak.steps;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.keycloak.CaptchaConfig;
import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.answer.Refusal;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.captcha.CaptchaService;
import dev.abusegate.keycloak.events.GateEvents;
import dev.abusegate.keycloak.runtime.GateRuntime;
import dev.abusegate.keycloak.runtime.PasswordCheckQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;

/**
 * The one shape of every gated step (sventorben's {@code HomeIdpAuthenticationFlowContext}): a per-request context,
 * made by {@link #evaluate} from Keycloak's flow context, that runs the gate once before any lookup or hash and then
 * builds the small collaborators the step needs, so that each step's {@code authenticate} reads as a short story:
 * evaluate; if not {@link #allowed()}, answer with the step's 429 (see {@code dev.abusegate.keycloak.answer}); else
 * run Keycloak's own check and hand its outcome to {@link #settlement()}. The steps only say what differs (which
 * name, which fields, which layers, which answers): the login forms through the hooks of {@link GatedForm}, the HTTP
 * Basic steps through those of {@link GatedHttpBasicStep}, the direct grant in its {@code authenticate}.
 */
public final class GatedAttempt implements Refusal {

    private final AuthenticationFlowContext ctx;
    private final GateRuntime runtime;
    private final Decision decision;
    private final CaptchaConfig captcha;
    private final boolean captchaSubmitted;
    private final GateOptions options;
    private final String identifier;
    private final String device;
    /** A browser form (device cookies apply), not the token endpoint. */
    private final boolean browser;
    /** The captcha solution this attempt passed with, verified and not yet spent (else null). */
    private final CaptchaService.Solution solution;
    /** The component type of Keycloak's user federation providers (LDAP, Kerberos, custom user storage). */
    private static final String USER_STORAGE = "org.keycloak.storage.UserStorageProvider";
    /** What the attempt was evaluated on, for a second look before its password check. */
    private final Submission submission;

    /**
     * What an attempt was evaluated on besides its decision.
     *
     * @param settings the realm's effective settings (their captcha, made harder while the realm is under attack)
     * @param scope    the layers the step runs
     * @param address  the client address
     * @param token    the captcha solution submitted (null: none)
     */
    private record Submission(GateConfig.Effective settings, LayerScope scope, String address, String token) {
    }

    private GatedAttempt(AuthenticationFlowContext ctx, GateRuntime runtime, Decision decision, CaptchaConfig captcha,
                         GateOptions options, String identifier, String device, boolean browser,
                         CaptchaService.Solution solution, Submission submission) {
        this.ctx = ctx;
        this.runtime = runtime;
        this.decision = decision;
        this.captcha = captcha;
        this.captchaSubmitted = submission.token() != null && !submission.token().isBlank();
        this.options = options;
        this.identifier = identifier;
        this.device = device;
        this.browser = browser;
        this.solution = solution;
        this.submission = submission;
    }

    /**
     * Evaluates one attempt: verifies a submitted captcha solution, asks the engine, and records the metrics and
     * events. Renders nothing.
     *
     * <p>A solution is verified here but not spent ({@link #verifiedCaptcha()}): the step spends it ({@link #spend})
     * right before it checks a password, and the identity-first username page, which checks none, carries it to the
     * password step. An attempt turned away after its solution was verified (layer 3 blocked it) spends nothing.
     *
     * @param runtime      the server's runtime, which the step's factory handed the step
     * @param captchaToken where the step finds a submitted captcha solution (given the realm's captcha settings); a
     *                     step whose attempt checks no password (a missing one, {@code Passwords#missing}) finds none,
     *                     so that such an attempt never spends a solution
     * @param browser      a browser form (device cookies apply), not an API endpoint
     * @param scope        the layers the step runs
     */
    static GatedAttempt evaluate(GateRuntime runtime, AuthenticationFlowContext ctx, String identifier,
                                 Function<CaptchaConfig, String> captchaToken, boolean browser, LayerScope scope) {
        return evaluate(runtime, ctx, identifier, captchaToken, browser, scope, true);
    }

    /**
     * As {@link #evaluate(GateRuntime, AuthenticationFlowContext, String, Function, boolean, LayerScope)}, for an attempt that
     * may check no password ({@code checksPassword} false: a missing password or a missing name). Such an attempt
     * runs without layer 3: it takes no lockout reservation, so it writes no protective entry (no free writes), and
     * its answer does not depend on whether the account is locked.
     */
    static GatedAttempt evaluate(GateRuntime runtime, AuthenticationFlowContext ctx, String identifier,
                                 Function<CaptchaConfig, String> captchaToken, boolean browser, LayerScope scope,
                                 boolean checksPassword) {
        return evaluate(runtime, ctx, identifier, captchaToken, browser, scope, checksPassword, null);
    }

    /**
     * As above, with the submitted {@code password} (null: none, or a step before the lookup) for the password-spray
     * layer: its bucket is computed here, once, and a missing one ({@code Passwords#missing}) has none.
     */
    static GatedAttempt evaluate(GateRuntime runtime, AuthenticationFlowContext ctx, String identifier,
                                 Function<CaptchaConfig, String> captchaToken, boolean browser, LayerScope scope,
                                 boolean checksPassword, String password) {
        KeycloakSession session = ctx.getSession();
        RealmModel realm = ctx.getRealm();
        GateConfig.Effective settings = runtime.config().effective(realm, ctx.getAuthenticatorConfig());
        GateOptions scoped = scope.apply(settings.options());
        GateOptions options = checksPassword ? scoped : scoped.without(Layer.ACCOUNT_LOCKOUT);
        AbuseGate g = runtime.gate();
        RealmSecrets secrets = runtime.secrets();
        String address = ctx.getConnection() == null ? null : ctx.getConnection().getRemoteAddr();
        // With the band off the captcha is still offered where a shared count past a threshold asks for it (a store
        // at its bound): ALTCHA by default, which needs no keys, so that answer is never a refusal.
        // While the realm is under attack (the fifth layer), ALTCHA challenges are harder.
        CaptchaConfig captcha = settings.captcha(scope.realmLayer() && g.realmUnderAttack(realm.getId(), options));
        String token = captchaToken.apply(captcha);
        boolean submitted = token != null && !token.isBlank();
        GateEvents events = new GateEvents(ctx, runtime);
        String device = null;
        CaptchaService.Solution[] verified = new CaptchaService.Solution[1];
        Decision d;
        try {
            device = browser && options.deviceCookieEnabled() && scope != LayerScope.BEFORE_LOOKUP
                    ? DeviceCookies.deviceOf(ctx, g, secrets.deviceKey(session, realm), identifier) : null;
            // The solution is verified only if the answer depends on it (see AbuseGate#evaluate).
            BooleanSupplier check = !submitted ? null
                    : () -> (verified[0] = runtime.captcha().verifiedUnspent(session, realm, captcha, token, address,
                            options.ipv6PrefixLength(), scope == LayerScope.BEFORE_LOOKUP)) != null;
            // the password-spray layer's bucket of the password: one HMAC, under a key that never leaves the server
            long bucket = g.passwordBucket(options, realm.getId(), () -> secrets.sprayKey(session, realm), password);
            d = g.evaluate(options, new Attempt(realm.getId(), address, identifier, device), check,
                    scope.realmLayer(), bucket); // identity-first: the password step applies it; HTTP Basic: never
            events.storeUnavailable(d.outages(), options.storeFailureEventsPerMinute());
            events.storeDegraded(d.degraded());
        } catch (RealmSecrets.NoRealmKey e) {
            // The realm's key material could not be had: no key can be derived (and none is ever derived
            // from public data), so every layer is unavailable and follows its own failure mode, no device
            // cookie is read or issued, and no captcha is offered (the band needs the layers' counts).
            // Without keys it is not the store that failed: the WARN says what did.
            runtime.warnNoKey(realm, e);
            d = g.unavailable(options, e);
            device = null;
            verified[0] = null;
        }
        events.decided(d, options.refusalEventsPerMinute());
        events.realmWatched(g.realmWatch());
        events.tableShares();
        return new GatedAttempt(ctx, runtime, d, captcha, options, identifier, device, browser,
                d.allowed() ? verified[0] : null, new Submission(settings, scope, address, token));
    }

    /**
     * This attempt's turn to have its password checked ({@link PasswordCheckQueue}), to be closed after the check:
     * waited for, in its realm's and its address's lane, where the step can carry the fifth layer's captcha and
     * Keycloak checks the realm's passwords itself; at once in a realm with user federation (an LDAP bind is not this
     * server's CPU, and must not wait on it).
     */
    PasswordCheckQueue.Turn passwordCheckTurn() {
        RealmModel realm = ctx.getRealm();
        if (!decision.allowed() || !submission.scope().realmLayer()
                || realm.getComponentsStream(realm.getId(), USER_STORAGE).findAny().isPresent()) {
            return PasswordCheckQueue.NO_WAIT;
        }
        return runtime.passwordChecks().take(realm.getId(), Attempt.addressKey(submission.address(), options.ipv6PrefixLength()));
    }

    /**
     * A second look, when the attempt's turn to check its password has come ({@link AbuseGate#realmEnteredMeanwhile}):
     * null when it goes on to the check; the fifth layer's answer when its realm entered "under attack" after the
     * attempt was let through and the attempt was not exempt at admission and has no solution that holds now (one it
     * carried from the username page, spent before its turn, or one it sent, verified and spent here at the realm's
     * harder captcha). The caller gives the attempt's layer-3 reservation back ({@link Settlement#abandon()}) and
     * answers with the returned attempt's 429.
     *
     * @param carried a solution the attempt carries from the identity-first username page (null: none)
     */
    GatedAttempt realmEnteredMeanwhile(CaptchaService.Solution carried) {
        RealmModel realm = ctx.getRealm();
        AbuseGate g = runtime.gate();
        CaptchaConfig harder = submission.settings().captcha(true);
        BooleanSupplier solved = carried != null ? () -> true : !captchaSubmitted ? null : () -> {
            CaptchaService.Solution now = runtime.captcha().verifiedUnspent(ctx.getSession(), realm, harder, submission.token(),
                    submission.address(), options.ipv6PrefixLength(), false);
            return now != null && spend(now);
        };
        Decision late = g.realmEnteredMeanwhile(options, realm.getId(), decision, solved);
        if (late == null) {
            return null;
        }
        GateEvents events = new GateEvents(ctx, runtime);
        events.decided(late, options.refusalEventsPerMinute());
        events.realmWatched(g.realmWatch());
        return new GatedAttempt(ctx, runtime, late, harder, options, identifier, device, browser, null, submission);
    }

    public boolean allowed() {
        return decision.allowed();
    }

    @Override
    public boolean blocked() {
        return decision.outcome() == Outcome.BLOCKED;
    }

    /** The gate's answer code: {@code blocked} or {@code captcha_required} (or {@code allow}). */
    @Override
    public String code() {
        return decision.outcome().code();
    }

    /** The captcha the realm offers for this attempt's {@code captcha_required}, or null (blocked). */
    @Override
    public CaptchaConfig offeredCaptcha() {
        return blocked() ? null : captcha;
    }

    /** A captcha solution came with the attempt (and was not enough). */
    @Override
    public boolean captchaSubmitted() {
        return captchaSubmitted;
    }

    /** The options this attempt was evaluated with (the step's scope applied). */
    public GateOptions options() {
        return options;
    }

    /** The server's captcha integration, which renders the widget and signs the challenge this attempt's answer offers. */
    @Override
    public CaptchaService captchas() {
        return runtime.captcha();
    }

    /** The solution this attempt passed with, verified and not yet spent; null when it passed without one. */
    CaptchaService.Solution verifiedCaptcha() {
        return solution;
    }

    /**
     * Spends solutions right before the password check: records each as used. True when all were spent (or there were
     * none); false when one was spent elsewhere meanwhile or cannot be recorded (a full table): the attempt's pass does
     * not hold, and the step evaluates it again without them.
     */
    boolean spend(CaptchaService.Solution... solutions) {
        for (CaptchaService.Solution s : solutions) {
            if (s != null && !runtime.captcha().spend(ctx.getRealm(), s)) {
                return false;
            }
        }
        return true;
    }

    /** After Keycloak's check: feeds its outcome back into layer 3. */
    Settlement settlement() {
        return new Settlement(ctx, runtime, decision, options, identifier, device, browser);
    }
}
