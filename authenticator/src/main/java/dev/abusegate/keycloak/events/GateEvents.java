package dev.abusegate.keycloak.events;

import dev.abusegate.engine.Decision;
import dev.abusegate.engine.EventBudget;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outages;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.events.EventBuilder;
import org.keycloak.models.RealmModel;

/**
 * What one gated attempt leaves for operators: Keycloak login events (a gate answer, a failed store), the
 * Micrometer counters of {@link GateMetrics}, and WARNs rate-limited by the runtime. Never an identifier or an
 * address: only the realm, the layer and the outcome.
 */
public final class GateEvents {

    public static final String EVENT_BLOCKED = "abuse_gate_blocked";
    public static final String EVENT_CAPTCHA = "abuse_gate_captcha_required";
    public static final String EVENT_STORE_DOWN = "counter_store_unavailable";
    public static final String DETAIL_LAYER = "abuse_gate_layer";
    public static final String DETAIL_OUTCOME = "abuse_gate_outcome";
    public static final String DETAIL_REASON = "abuse_gate_store_reason";
    public static final String REASON_DOWN = "unavailable";
    /**
     * On a {@value #EVENT_STORE_DOWN} event: why each failed layer's store call failed, the exception's class and its
     * message (cut, with anything that could name a subject taken out, see {@link Outages.Outage#causeMessage()}), as
     * {@code Class: message}, distinct causes joined by {@code "; "}.
     */
    public static final String DETAIL_CAUSE = "abuse_gate_store_cause";
    /** On a refusal event: the attempt was refused before Keycloak's flow ran (edge refusal), value {@code true}. */
    public static final String DETAIL_EDGE = "abuse_gate_edge";
    /** The fifth layer's label in events and metrics, where the four layers give theirs. */
    public static final String LAYER_REALM = "realm_under_attack";
    /** The realm entered or left "under attack" (on this node); detail {@value #DETAIL_REALM_STATE}. */
    public static final String EVENT_REALM = "abuse_gate_realm_under_attack";
    public static final String DETAIL_REALM_STATE = "abuse_gate_realm_state";
    /**
     * On a refusal event: how many of the realm's refusals this node left out (past {@code events.refusalsPerMinute})
     * since the refusal event before it; absent when none were.
     */
    public static final String DETAIL_NOT_RECORDED = "abuse_gate_refusals_not_recorded";
    /**
     * On a {@value #EVENT_STORE_DOWN} event: how many of the realm's store failures this node left out (past
     * {@code events.storeFailuresPerMinute}) since the one before it; absent when none were.
     */
    public static final String DETAIL_STORE_NOT_RECORDED = "abuse_gate_store_failures_not_recorded";

    private static final Logger LOG = Logger.getLogger(GateEvents.class);

    /**
     * On a successful login's event: the password was right, and its bucket is being sprayed (the password-spray layer
     * asked for a captcha, which was solved), so that account's password is among those sprayed. Value {@code true}.
     */
    public static final String DETAIL_PASSWORD_SPRAYED = "abuse_gate_password_sprayed";

    private final RealmModel realm;
    /**
     * The attempt's login event (the flow's, or one the edge makes when it records one): a refusal is recorded on it,
     * other events on clones.
     */
    private final Supplier<EventBuilder> loginEventSource;
    private EventBuilder loginEvent;
    private final GateRuntime runtime;

    public GateEvents(AuthenticationFlowContext ctx, GateRuntime runtime) {
        this(ctx.getRealm(), ctx::getEvent, runtime);
    }

    /**
     * For an attempt decided before Keycloak's flow ran, with the login event it records, made only when an event is
     * recorded (a refusal past the realm's event budget makes none: building one was a twentieth of its CPU).
     */
    public GateEvents(RealmModel realm, Supplier<EventBuilder> loginEvent, GateRuntime runtime) {
        this.realm = realm;
        this.loginEventSource = loginEvent;
        this.runtime = runtime;
    }

    private EventBuilder loginEvent() {
        if (loginEvent == null) {
            loginEvent = loginEventSource.get();
        }
        return loginEvent;
    }

    /**
     * The gate's answer: a metric each time, and a login event when it did not let the attempt through, within the
     * realm's budget of {@code refusalEventsPerMinute} ({@link EventBudget}; 0: every refusal). A refusal past the
     * budget records no event (Keycloak records none of its own for a forced challenge); the next recorded one
     * carries {@value #DETAIL_NOT_RECORDED}.
     */
    public void decided(Decision d, int refusalEventsPerMinute) {
        String layer = d.realmUnderAttack() ? LAYER_REALM : d.layer() == null ? "none" : d.layer().label();
        GateMetrics.decision(realm.getName(), d.outcome(), layer);
        if (d.allowed()) {
            return;
        }
        long leftOut = runtime.refusalEvents().take(realm.getId(), refusalEventsPerMinute);
        if (leftOut == EventBudget.LEAVE_OUT) {
            return;
        }
        EventBuilder event = loginEvent()
                .detail(DETAIL_LAYER, layer)
                .detail(DETAIL_OUTCOME, d.outcome().code());
        if (leftOut > 0) {
            event.detail(DETAIL_NOT_RECORDED, Long.toString(leftOut));
        }
        event.error(d.outcome() == Outcome.BLOCKED ? EVENT_BLOCKED : EVENT_CAPTCHA);
    }

    /**
     * A right password whose bucket is being sprayed logged in: the login's own event carries
     * {@value #DETAIL_PASSWORD_SPRAYED} (with the layer), for operators; the person logging in sees nothing of it. A
     * metric counts it per realm.
     */
    public void passwordSprayed() {
        loginEvent().detail(DETAIL_PASSWORD_SPRAYED, "true").detail(DETAIL_LAYER, Layer.PASSWORD_SPRAY.label());
        GateMetrics.sprayedLogin(realm.getName());
    }

    /**
     * The fifth layer's visibility: the realm's gauge (registered once), and an event, with no identifier, when this
     * node saw the realm enter or leave "under attack" (each node decides on the shared tallies, so each node records
     * its own changes, with the first attempt it decides after them: one event per change, in order, at most
     * {@value RealmWatch#MAX_PENDING_CHANGES} of them).
     */
    public void realmWatched(RealmWatch watch) {
        if (watch == null) {
            return;
        }
        String id = realm.getId();
        if (runtime.firstGauge(id)) {
            GateMetrics.realmUnderAttack(realm.getName(), () -> watch.underAttack(id));
        }
        // one event per change, in order: a realm that entered and left since the last attempt records both
        for (RealmWatch.Change change; (change = watch.takeChange(id)) != null; ) {
            String state = change == RealmWatch.Change.ENTERED ? "entered" : "left";
            loginEvent().clone()
                    .detail(DETAIL_LAYER, LAYER_REALM)
                    .detail(DETAIL_REALM_STATE, state)
                    .error(EVENT_REALM);
            RealmWatch.State st = watch.state(id);
            org.jboss.logging.Logger.getLogger(GateEvents.class).infof("Abuse gate: realm '%s' %s 'under attack' on this node "
                    + "(now: %d failed checks in the window from %d networks, counted up to realm.minNetworks; entry level %d)",
                    realm.getName(), state, st.count(), st.networks(), st.entryLevel());
        }
    }

    /** The realm's share gauges, registered once per realm (a store that keeps no share figure registers none). */
    public void tableShares() {
        if (!runtime.firstShareGauges(realm.getId())) {
            return;
        }
        CounterStore store = runtime.store();
        long tag = CounterKey.realmTagOf(realm.getId());
        if (Double.isNaN(store.shareUse(tag, 0))) {
            return;
        }
        for (int t = 0; t < CounterStore.TABLES.size(); t++) {
            int table = t;
            GateMetrics.tableShare(realm.getName(), CounterStore.TABLES.get(t), () -> store.shareUse(tag, table));
        }
    }

    /**
     * Layers that counted an attempt on a shared counter because the store was at its bound: not a failure (no
     * event, the failure mode did not decide), but a metric each time and a WARN at most once a minute per realm, so
     * that an operator sees a flood and can raise the bound.
     */
    public void storeDegraded(Set<Layer> layers) {
        if (layers.isEmpty()) {
            return;
        }
        for (Layer layer : layers) {
            GateMetrics.storeDegraded(realm.getName(), layer);
        }
        runtime.warnEvery("store-degraded:" + realm.getId(), "Abuse gate: counter store at its bound "
                + "(max-entries / max-protected-entries) in realm '" + realm.getName() + "'; subjects without room are counted "
                + "on the realm's shared counters, which ask for a captcha early (further warnings for this realm "
                + "suppressed for 60 s)");
    }

    /**
     * Layers whose store failed, each with its cause: a metric each time (labelled with the cause's class); a login
     * event within the realm's budget of {@code eventsPerMinute} ({@link EventBudget}; 0: every failure), with the
     * causes in {@value #DETAIL_CAUSE}, the next recorded one carrying {@value #DETAIL_STORE_NOT_RECORDED}; a WARN with
     * the cause's class and message at most once a minute per realm, layer and cause, its stack trace at DEBUG.
     */
    public void storeUnavailable(Outages outages, int eventsPerMinute) {
        if (outages.noneFailed()) {
            return;
        }
        Set<String> causes = new LinkedHashSet<>();
        for (Outages.Outage o : outages.outages()) {
            String layer = o.layer().label();
            String cause = causeText(o);
            causes.add(cause);
            GateMetrics.storeFailure(realm.getName(), o.layer(), REASON_DOWN, o.causeName());
            if (runtime.warnDue("store:" + realm.getId() + ':' + layer + ':' + o.causeName())) {
                LOG.warnf("Abuse gate: counter store unavailable for layer %s in realm '%s' (%s); its failure mode decided "
                        + "(further warnings for this realm, layer and cause suppressed for 60 s)", layer, realm.getName(), cause);
                LOG.debugf(o.cause(), "Abuse gate: the counter store failure for layer %s in realm '%s'", layer, realm.getName());
            }
        }
        long leftOut = runtime.storeFailureEvents().take(realm.getId(), eventsPerMinute);
        if (leftOut == EventBudget.LEAVE_OUT) {
            return;
        }
        EventBuilder event = loginEvent().clone();
        event.detail(DETAIL_LAYER, outages.unavailable().stream().map(Layer::label).collect(Collectors.joining(",")))
                .detail(DETAIL_REASON, REASON_DOWN)
                .detail(DETAIL_CAUSE, String.join("; ", causes));
        if (leftOut > 0) {
            event.detail(DETAIL_STORE_NOT_RECORDED, Long.toString(leftOut));
        }
        event.error(EVENT_STORE_DOWN);
    }

    /** An outage's cause as operators read it: {@code Class: message}, or the class alone when it has no message. */
    static String causeText(Outages.Outage o) {
        String message = o.causeMessage();
        return message.isEmpty() ? o.causeName() : o.causeName() + ": " + message;
    }
}
