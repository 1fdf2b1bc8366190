package dev.abusegate.keycloak;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Attempt;
import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateOptions;
import dev.abusegate.engine.Layer;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.TimeSource;
import dev.abusegate.keycloak.store.GateStoreProvider;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.FlowStatus;
import org.keycloak.events.EventBuilder;
import org.keycloak.forms.login.LoginFormsProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;

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

    private static final Logger LOG = Logger.getLogger(GateSupport.class);
    private static final RealmSecrets SECRETS = new RealmSecrets();
    private static final long WARN_EVERY_MILLIS = 60_000;
    private static final Map<String, AtomicLong> LAST_WARN = new ConcurrentHashMap<>();
    private static volatile AbuseGate gate;

    /** Logs at WARN at most once a minute per {@code topic} (at most 10,000 topics are tracked at once). */
    static void warnEvery(String topic, String message) {
        AtomicLong last = LAST_WARN.get(topic);
        if (last == null) {
            if (LAST_WARN.size() >= 10_000) {
                LAST_WARN.clear();
            }
            last = LAST_WARN.computeIfAbsent(topic, t -> new AtomicLong());
        }
        long now = System.currentTimeMillis();
        long prev = last.get();
        if ((prev == 0 || now - prev >= WARN_EVERY_MILLIS) && last.compareAndSet(prev, now)) {
            LOG.warn(message);
        }
    }

    private GateSupport() {
    }

    /** The outcome of running the gate for one attempt. */
    static final class Check {
        final Decision decision;
        final AbuseGate gate;
        final CaptchaConfig captcha;
        final boolean captchaSubmitted;
        final GateOptions options;
        final String identifier;
        final String device;

        Check(AbuseGate gate, Decision decision, CaptchaConfig captcha, boolean captchaSubmitted, GateOptions options,
              String identifier, String device) {
            this.gate = gate;
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

    /** The server's counter store, for the admin resource. */
    static CounterStore store(KeycloakSession session) {
        return gate(session).store();
    }

    /** Key derivation for a realm (its identifier secret primed), for the admin resource. */
    static dev.abusegate.engine.GateKeys keys(KeycloakSession session, RealmModel realm) {
        SECRETS.prime(session, realm);
        return gate(session).keys();
    }

    private static AbuseGate gate(KeycloakSession session) {
        CounterStore store = session.getProvider(GateStoreProvider.class).store();
        AbuseGate g = gate;
        if (g == null || g.store() != store) {
            synchronized (GateSupport.class) {
                g = gate;
                if (g == null || g.store() != store) {
                    g = new AbuseGate(store, TimeSource.SYSTEM, SECRETS);
                    gate = g;
                }
            }
        }
        return g;
    }

    /**
     * Runs the gate for a login form. When it does not allow the attempt, the 429 page has been sent (as
     * a force challenge, which Keycloak's own brute-force protection does not count) and the caller stops.
     */
    static Check check(AuthenticationFlowContext ctx, String identifier, MultivaluedMap<String, String> form, boolean passwordOnly) {
        Check check = run(ctx, identifier, captcha -> form == null ? null : form.getFirst(captcha.formField()), true);
        if (!check.allowed()) {
            answerPage(ctx, check, identifier, passwordOnly, form != null && "on".equalsIgnoreCase(form.getFirst("rememberMe")));
        }
        return check;
    }

    /** The body both gated forms share: the gate first, then Keycloak's own check, then layer 3 is fed. */
    static boolean gated(AuthenticationFlowContext ctx, String identifier, MultivaluedMap<String, String> form,
                         boolean passwordOnly, java.util.function.BooleanSupplier keycloakCheck) {
        Check check = check(ctx, identifier, form, passwordOnly);
        if (!check.allowed()) {
            return false;
        }
        boolean ok;
        try {
            ok = keycloakCheck.getAsBoolean();
        } catch (RuntimeException e) {
            abandon(ctx, check);
            throw e;
        }
        settle(ctx, check, ok, form.getFirst(org.keycloak.representations.idm.CredentialRepresentation.PASSWORD));
        return ok;
    }

    /**
     * Evaluates one attempt: verifies a submitted captcha solution, asks the engine, and records the
     * metrics and events. Renders nothing.
     */
    static Check run(AuthenticationFlowContext ctx, String identifier, Function<CaptchaConfig, String> captchaToken,
                     boolean browser) {
        KeycloakSession session = ctx.getSession();
        RealmModel realm = ctx.getRealm();
        GateConfig.Effective settings = GateConfig.effective(realm, ctx.getAuthenticatorConfig());
        GateOptions options = settings.options();
        AbuseGate g = gate(session);
        String address = ctx.getConnection() == null ? null : ctx.getConnection().getRemoteAddr();
        CaptchaConfig captcha = options.captchaEnabled() ? settings.captcha() : null;
        String token = captcha == null ? null : captchaToken.apply(captcha);
        boolean submitted = token != null && !token.isBlank();
        String device = null;
        Decision d;
        try {
            SECRETS.prime(session, realm);
            device = browser && options.deviceCookieEnabled()
                    ? DeviceCookies.deviceOf(ctx, g, SECRETS.deviceKey(session, realm), identifier) : null;
            // The solution is verified only if the answer depends on it (see AbuseGate#evaluate).
            d = g.evaluate(options, new Attempt(realm.getId(), address, identifier, false, device),
                    submitted ? () -> CaptchaSupport.solved(session, realm, captcha, SECRETS, g.store(), token, address) : null);
        } catch (RuntimeException e) {
            // The realm's key material could not be had: no key can be derived, so every layer is
            // unavailable and follows its own failure mode, as for a store outage.
            warnEvery("keys:" + realm.getId(), "Abuse gate: realm '" + realm.getName()
                    + "' has no usable HMAC key for the gate (" + e.getClass().getSimpleName()
                    + "); each layer follows its failure mode (further warnings suppressed for 60 s)");
            d = g.unavailable(options);
            device = null;
        }
        storeTrouble(ctx, realm, d.unavailable());
        GateMetrics.decision(realm.getName(), d.outcome(), d.layer());
        if (!d.allowed()) {
            ctx.getEvent()
                    .detail(DETAIL_LAYER, d.layer().label())
                    .detail(DETAIL_OUTCOME, d.outcome().code())
                    .error(d.outcome() == Outcome.BLOCKED ? EVENT_BLOCKED : EVENT_CAPTCHA);
        }
        return new Check(g, d, captcha, submitted, options, identifier, device);
    }

    /**
     * Feeds a login form's password check back into layer 3. On success a device cookie is issued (when
     * enabled); on a wrong password its keyed tag lets repeats of the same typo be recognised.
     */
    static void settle(AuthenticationFlowContext ctx, Check check, boolean passwordAccepted, String password) {
        Set<Layer> trouble;
        if (passwordAccepted) {
            trouble = check.gate.passwordSucceeded(check.decision);
            if (check.options.deviceCookieEnabled() && check.decision.identifierTag() != null) {
                try {
                    DeviceCookies.issue(ctx, check.gate, SECRETS.deviceKey(ctx.getSession(), ctx.getRealm()), check.identifier,
                            check.device, check.options.deviceCookieDays());
                } catch (RuntimeException e) {
                    warnEvery("device:" + ctx.getRealm().getId(), "Abuse gate: could not issue a device cookie in realm '"
                            + ctx.getRealm().getName() + "' (" + e.getClass().getSimpleName() + ")");
                }
            }
        } else if (ctx.getStatus() == FlowStatus.FAILURE_CHALLENGE || ctx.getStatus() == FlowStatus.FAILED) {
            trouble = check.gate.passwordFailed(check.decision, passwordTag(ctx, check, password));
        } else {
            // Empty password, disabled user, Keycloak's own lock: no password was verified.
            trouble = check.gate.notVerified(check.decision);
        }
        storeTrouble(ctx, ctx.getRealm(), trouble);
    }

    /** Direct grant: TRUE accepted, FALSE a failed verification, null when no password was verified. */
    static void settleDirect(AuthenticationFlowContext ctx, Check check, Boolean accepted, String password) {
        Set<Layer> trouble = accepted == null ? check.gate.notVerified(check.decision)
                : accepted ? check.gate.passwordSucceeded(check.decision)
                : check.gate.passwordFailed(check.decision, passwordTag(ctx, check, password));
        storeTrouble(ctx, ctx.getRealm(), trouble);
    }

    /** The keyed tag of a wrong password when repeats are to be recognised, else 0. */
    private static long passwordTag(AuthenticationFlowContext ctx, Check check, String password) {
        if (!check.options.ignoreRepeatedPasswords() || password == null || password.isEmpty()
                || check.decision.identifierTag() == null) {
            return 0L;
        }
        try {
            return DeviceCookies.passwordTag(SECRETS.typoKey(ctx.getSession(), ctx.getRealm()), check.decision, password);
        } catch (RuntimeException e) {
            return 0L;
        }
    }

    /** No verification happened because the password check threw: give the reservation back. */
    static void abandon(AuthenticationFlowContext ctx, Check check) {
        storeTrouble(ctx, ctx.getRealm(), check.gate.notVerified(check.decision));
    }

    private static void answerPage(AuthenticationFlowContext ctx, Check check, String identifier, boolean passwordOnly,
                                   boolean rememberMe) {
        boolean blocked = check.blocked();
        Map<String, Object> page = new HashMap<>();
        page.put("code", check.decision.outcome().code());
        page.put("message", blocked ? "abuseGateBlocked" : "abuseGateCaptchaRequired");
        page.put("username", passwordOnly || identifier == null ? "" : clip(identifier));
        page.put("passwordOnly", passwordOnly);
        page.put("rememberMe", rememberMe);
        LoginFormsProvider form = ctx.form()
                .setExecution(ctx.getExecution().getId())
                .setStatus(Response.Status.TOO_MANY_REQUESTS);
        if (!blocked && check.captcha != null) {
            page.put("captcha", CaptchaSupport.widget(ctx.getSession(), ctx.getRealm(), check.captcha, SECRETS, form));
            page.put("captchaFailed", check.captchaSubmitted);
        }
        form.setAttribute("abuseGate", page);
        ctx.forceChallenge(form.createForm(TEMPLATE));
    }

    /** A fresh ALTCHA challenge for API clients. */
    static String altchaChallenge(AuthenticationFlowContext ctx, CaptchaConfig captcha) {
        return CaptchaSupport.altchaChallenge(ctx.getSession(), ctx.getRealm(), captcha, SECRETS);
    }

    /** The typed username is kept in the form, but never more of it than a username can be. */
    private static String clip(String identifier) {
        String s = identifier.trim();
        return s.length() > 255 ? s.substring(0, 255) : s;
    }

    private static void storeTrouble(AuthenticationFlowContext ctx, RealmModel realm, Set<Layer> layers) {
        if (layers.isEmpty()) {
            return;
        }
        for (Layer layer : layers) {
            GateMetrics.storeFailure(realm.getName(), layer);
            warnEvery("store:" + layer.label(), "Abuse gate: counter store unavailable for layer " + layer.label()
                    + " in realm '" + realm.getName() + "'; its failure mode decided "
                    + "(further warnings for this layer suppressed for 60 s)");
        }
        EventBuilder event = ctx.getEvent().clone();
        event.detail(DETAIL_LAYER, layers.stream().map(Layer::label).collect(Collectors.joining(",")))
                .error(EVENT_STORE_DOWN);
    }
}
