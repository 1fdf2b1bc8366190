package dev.abusegate.keycloak;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Attempt;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.Outcome;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.authentication.authenticators.util.AuthenticatorUtils;
import org.keycloak.events.Details;
import org.keycloak.events.Errors;
import org.keycloak.events.EventBuilder;
import org.keycloak.forms.login.LoginFormsProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.representations.idm.CredentialRepresentation;

/**
 * Runs the gate for a login form: before the user lookup, with the submitted identifier and the client
 * address as Keycloak resolved it (so Keycloak's proxy settings apply). Renders the 429 answers, records
 * events and metrics, and settles the lockout reservation with the password check's outcome.
 */
final class GateSupport {

    static final String TEMPLATE = "abuse-gate-login.ftl";
    static final String EVENT_BLOCKED = "abuse_gate_blocked";
    static final String EVENT_CAPTCHA = "abuse_gate_captcha_required";
    static final String EVENT_STORE_DOWN = "counter_store_unavailable";
    static final String DETAIL_LAYER = "abuse_gate_layer";
    static final String DETAIL_OUTCOME = "abuse_gate_outcome";
    static final String DETAIL_REASON = "abuse_gate_store_reason";
    static final String REASON_DOWN = "unavailable";
    static final String REASON_FULL = "full";

    private GateSupport() {
    }

    /** One WARN per realm a minute: why the gate cannot key its counters, and how to fix it. */
    static void warnNoKey(KeycloakSession session, RealmModel realm, RuntimeException e) {
        GateRuntime.of(session).warnEvery("keys:" + realm.getId(), "Abuse gate: realm '" + realm.getName() + "' has no usable HMAC key ("
                + (e instanceof RealmSecrets.NoRealmKey ? "no active HS512 or HS256 key" : e.getClass().getSimpleName())
                + "); every layer follows its failure mode, device cookies are neither issued nor honoured and no "
                + "ALTCHA challenge is offered. Fix: Realm settings > Keys > Providers, add or enable an 'hmac-generated' "
                + "provider (further warnings for this realm suppressed for 60 s)");
    }

    /** The outcome of running the gate for one attempt. */
    static final class Check {
        final Decision decision;
        final GateRuntime runtime;
        final AbuseGate gate;
        final CaptchaConfig captcha;
        final boolean captchaSubmitted;
        final GateOptions options;
        final String identifier;
        final String device;
        /** A browser form (device cookies apply), not the token endpoint. */
        final boolean browser;

        Check(GateRuntime runtime, Decision decision, CaptchaConfig captcha, boolean captchaSubmitted, GateOptions options,
              String identifier, String device, boolean browser) {
            this.browser = browser;
            this.runtime = runtime;
            this.gate = runtime.gate();
            this.decision = decision;
            this.captcha = captcha;
            this.captchaSubmitted = captchaSubmitted;
            this.options = options;
            this.identifier = identifier;
            this.device = device;
        }

        boolean allowed() {
            return decision.allowed();
        }

        boolean blocked() {
            return decision.outcome() == Outcome.BLOCKED;
        }
    }

    /** Which fields a form's 429 page offers again. */
    enum Page {
        USERNAME_AND_PASSWORD, PASSWORD, USERNAME
    }

    /**
     * Which layers one step runs. A single-page form runs them all. The identity-first username step runs
     * layers 1, 2 and 4 (and their captcha band) before the lookup; the password step that follows it runs
     * only layer 3, for the one password check the username step let through.
     */
    enum Scope {
        ALL, BEFORE_LOOKUP, LOCKOUT_ONLY;

        GateOptions apply(GateOptions options) {
            switch (this) {
                case BEFORE_LOOKUP:
                    return options.toBuilder().disable(Layer.ACCOUNT_LOCKOUT).build();
                case LOCKOUT_ONLY:
                    return options.toBuilder().disable(Layer.PER_IP).disable(Layer.PER_IP_ACCOUNT)
                            .disable(Layer.CREDENTIAL_STUFFING).build();
                default:
                    return options;
            }
        }
    }

    /**
     * Auth note set by the gated username step when it let an attempt through and Keycloak chose a user:
     * {@code <user id>|<client address>}. Server-side (the client cannot set it), single-use, and read only
     * by the gated password step of the same authentication session.
     */
    static final String HANDOVER_NOTE = "abuse-gate.username-step";
    /** Session attribute: Keycloak accepted the password in this request (see {@link #passwordAccepted}). */
    private static final String ACCEPTED = "abuse-gate.password-accepted";

    /**
     * Whether a submitted password counts as missing: absent, empty or only whitespace (Keycloak refuses
     * such a password when one is set, {@code Validation.isBlank}). Decided from the request alone.
     */
    static boolean blankPassword(String password) {
        return password == null || password.trim().isEmpty();
    }

    /**
     * Keycloak's answer to a missing password, given without looking anybody up: the form again with
     * "invalid username or password" (or the form's own message) and event {@code invalid_user_credentials};
     * a force challenge, so Keycloak's brute-force detection counts it no more than it counts its own.
     *
     * @param knownUser the user Keycloak already chose before this form (re-authentication, identity-first),
     *                  else null; {@code challenge} builds the page (after the re-authentication attributes)
     */
    static void answerMissingPassword(AuthenticationFlowContext ctx, String typedUsername, UserModel knownUser,
                                      Supplier<Response> challenge) {
        EventBuilder event = ctx.getEvent();
        if (knownUser != null) {
            event.user(knownUser);
        } else if (typedUsername != null && !typedUsername.isEmpty()) {
            event.detail(Details.USERNAME, typedUsername.trim());
        }
        event.error(Errors.INVALID_USER_CREDENTIALS);
        AuthenticatorUtils.setupReauthenticationInUsernamePasswordFormError(ctx);
        ctx.forceChallenge(challenge.get());
    }

    /** Called by the gated forms when Keycloak's own check accepted the password in this request. */
    static void passwordAccepted(AuthenticationFlowContext ctx) {
        ctx.getSession().setAttribute(ACCEPTED, Boolean.TRUE);
    }

    /**
     * Runs the gate for a login form. When it does not allow the attempt, the 429 page has been sent (as
     * a force challenge, which Keycloak's own brute-force protection does not count) and the caller stops.
     */
    static Check check(AuthenticationFlowContext ctx, String identifier, MultivaluedMap<String, String> form, Page page,
                       Scope scope) {
        Check check = run(ctx, identifier, captcha -> form == null ? null : form.getFirst(captcha.formField()), true, scope);
        if (!check.allowed()) {
            answerPage(ctx, check, identifier, page, form != null && "on".equalsIgnoreCase(form.getFirst("rememberMe")));
        }
        return check;
    }

    /**
     * The body the gated password forms share: the gate first; then a missing password is answered from the
     * request alone, without looking anybody up; else Keycloak's own check runs and its outcome feeds layer 3.
     *
     * @param missingPassword renders Keycloak's answer to a missing password (no lookup, no hash)
     */
    static boolean gated(AuthenticationFlowContext ctx, String identifier, MultivaluedMap<String, String> form,
                         Page page, Scope scope, BooleanSupplier keycloakCheck, Runnable missingPassword) {
        Check check = check(ctx, identifier, form, page, scope);
        if (!check.allowed()) {
            return false;
        }
        // This attempt has been counted: a hand-over from the username step is used up.
        ctx.getAuthenticationSession().removeAuthNote(HANDOVER_NOTE);
        String password = form.getFirst(CredentialRepresentation.PASSWORD);
        if (blankPassword(password)) {
            // The same answer and bookkeeping for every name, known or not: nothing was verified.
            abandon(ctx, check);
            missingPassword.run();
            return false;
        }
        ctx.getSession().removeAttribute(ACCEPTED);
        boolean ok;
        try {
            ok = keycloakCheck.getAsBoolean();
        } catch (RuntimeException e) {
            abandon(ctx, check);
            throw e;
        }
        settle(ctx, check, Verification.ofForm(ctx, ok), password);
        return ok;
    }

    /**
     * The identity-first username step: layers 1, 2 and 4 before Keycloak looks the name up; when Keycloak
     * then chooses a user, the gated password step is told (server-side) that this attempt was counted.
     */
    static boolean usernameStep(AuthenticationFlowContext ctx, String identifier, MultivaluedMap<String, String> form,
                                BooleanSupplier keycloakCheck) {
        ctx.getAuthenticationSession().removeAuthNote(HANDOVER_NOTE);
        Check check = check(ctx, identifier, form, Page.USERNAME, Scope.BEFORE_LOOKUP);
        if (!check.allowed()) {
            return false;
        }
        boolean ok = keycloakCheck.getAsBoolean();
        if (ok && ctx.getUser() != null) {
            ctx.getAuthenticationSession().setAuthNote(HANDOVER_NOTE, handover(ctx, ctx.getUser().getId()));
        }
        return ok;
    }

    /**
     * The password step's scope: layer 3 only when the gated username step of this authentication session
     * counted this attempt for the same user from the same address; otherwise all layers. A note that does
     * not match is dropped.
     */
    static Scope passwordStepScope(AuthenticationFlowContext ctx) {
        String note = ctx.getAuthenticationSession().getAuthNote(HANDOVER_NOTE);
        if (note == null) {
            return Scope.ALL;
        }
        if (ctx.getUser() != null && note.equals(handover(ctx, ctx.getUser().getId()))) {
            return Scope.LOCKOUT_ONLY;
        }
        ctx.getAuthenticationSession().removeAuthNote(HANDOVER_NOTE);
        return Scope.ALL;
    }

    private static String handover(AuthenticationFlowContext ctx, String userId) {
        String address = ctx.getConnection() == null ? null : ctx.getConnection().getRemoteAddr();
        return userId + "|" + address;
    }

    /**
     * Evaluates one attempt: verifies a submitted captcha solution, asks the engine, and records the
     * metrics and events. Renders nothing.
     */
    static Check run(AuthenticationFlowContext ctx, String identifier, Function<CaptchaConfig, String> captchaToken,
                     boolean browser) {
        return run(ctx, identifier, captchaToken, browser, Scope.ALL);
    }

    private static Check run(AuthenticationFlowContext ctx, String identifier, Function<CaptchaConfig, String> captchaToken,
                             boolean browser, Scope scope) {
        KeycloakSession session = ctx.getSession();
        RealmModel realm = ctx.getRealm();
        GateRuntime rt = GateRuntime.of(session);
        GateConfig.Effective settings = rt.config().effective(realm, ctx.getAuthenticatorConfig());
        GateOptions options = scope.apply(settings.options());
        AbuseGate g = rt.gate();
        RealmSecrets secrets = rt.secrets();
        String address = ctx.getConnection() == null ? null : ctx.getConnection().getRemoteAddr();
        CaptchaConfig captcha = options.captchaEnabled() ? settings.captcha() : null;
        String token = captcha == null ? null : captchaToken.apply(captcha);
        boolean submitted = token != null && !token.isBlank();
        String device = null;
        Decision d;
        boolean keyless = false;
        try {
            device = browser && options.deviceCookieEnabled() && scope != Scope.BEFORE_LOOKUP
                    ? DeviceCookies.deviceOf(ctx, g, secrets.deviceKey(session, realm), identifier) : null;
            // The solution is verified only if the answer depends on it (see AbuseGate#evaluate).
            d = g.evaluate(options, new Attempt(realm.getId(), address, identifier, false, device),
                    submitted ? () -> CaptchaSupport.solved(session, realm, captcha, secrets, g, token, address,
                            options.ipv6PrefixLength()) : null);
        } catch (RealmSecrets.NoRealmKey e) {
            // The realm's key material could not be had: no key can be derived (and none is ever derived
            // from public data), so every layer is unavailable and follows its own failure mode, no device
            // cookie is read or issued, and no captcha is offered (the band needs the layers' counts).
            warnNoKey(session, realm, e);
            d = g.unavailable(options);
            device = null;
            keyless = true;
        }
        if (!keyless) {
            // Without keys it is not the store that failed: the WARN above says what did.
            storeTrouble(ctx, realm, d.unavailable(), false);
            storeDegraded(ctx, realm, d.degraded());
        }
        GateMetrics.decision(realm.getName(), d.outcome(), d.layer());
        if (!d.allowed()) {
            ctx.getEvent()
                    .detail(DETAIL_LAYER, d.layer().label())
                    .detail(DETAIL_OUTCOME, d.outcome().code())
                    .error(d.outcome() == Outcome.BLOCKED ? EVENT_BLOCKED : EVENT_CAPTCHA);
        }
        return new Check(rt, d, captcha, submitted, options, identifier, device, browser);
    }

    /** How an attempt the gate let through ended, for layer 3: the one classification both endpoints use. */
    enum Verification {
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

    /**
     * Feeds how the attempt ended back into layer 3, for every login name of the account. On success a device
     * cookie is issued (browser forms, when enabled); on a wrong password its keyed tag lets repeats of the same
     * typo be recognised.
     */
    static void settle(AuthenticationFlowContext ctx, Check check, Verification outcome, String password) {
        Set<Layer> trouble;
        switch (outcome) {
            case VERIFIED:
                trouble = check.gate.passwordSucceeded(check.decision, accountNames(ctx, check.identifier));
                if (check.browser && check.options.deviceCookieEnabled() && check.decision.identifierTag() != null) {
                    issueDeviceCookie(ctx, check);
                }
                break;
            case FAILED:
                trouble = check.gate.passwordFailed(check.decision, passwordTag(ctx, check, password), accountNames(ctx, check.identifier));
                break;
            default:
                trouble = check.gate.notVerified(check.decision);
        }
        storeTrouble(ctx, ctx.getRealm(), trouble, false);
    }

    private static void issueDeviceCookie(AuthenticationFlowContext ctx, Check check) {
        try {
            DeviceCookies.issue(ctx, check.gate, check.runtime.secrets().deviceKey(ctx.getSession(), ctx.getRealm()),
                    check.identifier, check.device, check.options.deviceCookieDays());
        } catch (RuntimeException e) {
            check.runtime.warnEvery("device:" + ctx.getRealm().getId(), "Abuse gate: could not issue a device cookie in realm '"
                    + ctx.getRealm().getName() + "' (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * The login names of the account the password was checked for (its username, and its e-mail when the realm
     * lets users log in with it), so that layer 3 keeps one budget per account whatever name was typed. None
     * when no account was found: an unknown username keeps its own counter (what that lets a client tell
     * apart: docs/security.md, "Two names of one account").
     */
    static List<String> accountNames(AuthenticationFlowContext ctx, String identifier) {
        UserModel user = checkedAccount(ctx, identifier);
        if (user == null) {
            return List.of();
        }
        return loginNames(ctx.getRealm(), user);
    }

    /** An account's login names: its username, and its e-mail when the realm lets users log in with it. */
    static List<String> loginNames(RealmModel realm, UserModel user) {
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

    /** The keyed tag of a wrong password when repeats are to be recognised, else 0. */
    private static long passwordTag(AuthenticationFlowContext ctx, Check check, String password) {
        if (!check.options.ignoreRepeatedPasswords() || password == null || password.isEmpty()
                || check.decision.identifierTag() == null) {
            return 0L;
        }
        try {
            return DeviceCookies.passwordTag(check.runtime.secrets().typoKey(ctx.getSession(), ctx.getRealm()), check.decision, password);
        } catch (RuntimeException e) {
            return 0L;
        }
    }

    /** No verification happened because the password check threw: give the reservation back. */
    static void abandon(AuthenticationFlowContext ctx, Check check) {
        storeTrouble(ctx, ctx.getRealm(), check.gate.notVerified(check.decision), false);
    }

    private static void answerPage(AuthenticationFlowContext ctx, Check check, String identifier, Page shown,
                                   boolean rememberMe) {
        boolean passwordOnly = shown == Page.PASSWORD;
        boolean blocked = check.blocked();
        Map<String, Object> page = new HashMap<>();
        page.put("code", check.decision.outcome().code());
        page.put("message", blocked ? "abuseGateBlocked" : "abuseGateCaptchaRequired");
        page.put("username", passwordOnly || identifier == null ? "" : clip(identifier));
        page.put("passwordOnly", passwordOnly);
        page.put("usernameOnly", shown == Page.USERNAME);
        page.put("rememberMe", rememberMe);
        LoginFormsProvider form = ctx.form()
                .setExecution(ctx.getExecution().getId())
                .setStatus(Response.Status.TOO_MANY_REQUESTS);
        if (!blocked && check.captcha != null) {
            page.put("captcha", CaptchaSupport.widget(ctx.getSession(), ctx.getRealm(), check.captcha, check.runtime.secrets(), form));
            page.put("captchaFailed", check.captchaSubmitted);
        }
        form.setAttribute("abuseGate", page);
        ctx.forceChallenge(form.createForm(TEMPLATE));
    }

    /** A fresh ALTCHA challenge for API clients. */
    static String altchaChallenge(AuthenticationFlowContext ctx, CaptchaConfig captcha) {
        return CaptchaSupport.altchaChallenge(ctx.getSession(), ctx.getRealm(), captcha, GateRuntime.of(ctx.getSession()).secrets());
    }

    /** The typed username is kept in the form, but never more of it than a username can be. */
    private static String clip(String identifier) {
        String s = identifier.trim();
        return s.length() > 255 ? s.substring(0, 255) : s;
    }

    /**
     * Records layers that counted an attempt on a shared counter because the store was at its bound: not a failure
     * (no event, the failure mode did not decide), but a metric each time and a WARN at most once a minute per
     * realm, so that an operator sees a flood and can raise the bound.
     */
    private static void storeDegraded(AuthenticationFlowContext ctx, RealmModel realm, Set<Layer> layers) {
        if (layers.isEmpty()) {
            return;
        }
        for (Layer layer : layers) {
            GateMetrics.storeDegraded(realm.getName(), layer);
        }
        GateRuntime.of(ctx.getSession()).warnEvery("store-degraded:" + realm.getId(), "Abuse gate: counter store at its bound "
                + "(max-entries / max-protected-entries) in realm '" + realm.getName() + "'; subjects without room are counted "
                + "on shared counters, which ask for a captcha early and never block (further warnings for this realm "
                + "suppressed for 60 s)");
    }

    /**
     * Records layers whose store failed: a metric and an event each time, a WARN at most once a minute per
     * realm and layer. {@code full}: the store was at its bound (see the store's max-entries options).
     */
    private static void storeTrouble(AuthenticationFlowContext ctx, RealmModel realm, Set<Layer> layers, boolean full) {
        if (layers.isEmpty()) {
            return;
        }
        String reason = full ? REASON_FULL : REASON_DOWN;
        for (Layer layer : layers) {
            GateMetrics.storeFailure(realm.getName(), layer, reason);
            GateRuntime.of(ctx.getSession()).warnEvery("store:" + realm.getId() + ':' + layer.label(), "Abuse gate: counter store "
                    + (full ? "at its bound (max-entries / max-protected-entries)" : "unavailable") + " for layer "
                    + layer.label() + " in realm '" + realm.getName() + "'; its failure mode decided "
                    + "(further warnings for this realm and layer suppressed for 60 s)");
        }
        EventBuilder event = ctx.getEvent().clone();
        event.detail(DETAIL_LAYER, layers.stream().map(Layer::label).collect(Collectors.joining(",")))
                .detail(DETAIL_REASON, reason)
                .error(EVENT_STORE_DOWN);
    }
}
