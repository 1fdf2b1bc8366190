package dev.abusegate.keycloak.events;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.util.function.DoubleSupplier;

/**
 * Micrometer counters, exposed on Keycloak's management {@code /metrics} when metrics are enabled.
 * Labels are the realm name, the outcome and the layer: never an identifier or an address.
 */
public final class GateMetrics {

    private GateMetrics() {
    }

    /** {@code layer}: a layer's label, {@code realm_under_attack} for the fifth layer, or {@code none}. */
    public static void decision(String realm, Outcome outcome, String layer) {
        Counter.builder("abuse_gate_decisions")
                .description("Abuse gate answers, by outcome and deciding layer")
                .tag("realm", realm)
                .tag("outcome", outcome.code())
                .tag("layer", layer)
                .register(Metrics.globalRegistry)
                .increment();
    }

    /** An attempt refused before Keycloak's flow ran (also counted in {@code abuse_gate_decisions}); label: the realm only. */
    public static void edgeRefusal(String realm) {
        Counter.builder("abuse_gate_edge_refusals")
                .description("Abuse gate refusals answered before Keycloak's flow ran (edge refusal); each is also "
                        + "counted in abuse_gate_decisions")
                .tag("realm", realm)
                .register(Metrics.globalRegistry)
                .increment();
    }

    /** 1 while the realm is under attack on this node, else 0 (label: the realm only). */
    public static void realmUnderAttack(String realm, java.util.function.BooleanSupplier on) {
        Gauge.builder("abuse_gate_realm_under_attack", on, s -> s.getAsBoolean() ? 1 : 0)
                .description("1 while the realm is under attack on this node (the fifth, realm-wide layer), else 0")
                .tag("realm", realm)
                .strongReference(true)
                .register(Metrics.globalRegistry);
    }

    /**
     * The realm's recent use of its fair share of one of the store's tables (label: the realm and the table only):
     * 1 is exactly its share of a full slot, above 1 more than its share (see {@code CounterStore#shareUse}).
     */
    public static void tableShare(String realm, String table, DoubleSupplier use) {
        Gauge.builder("abuse_gate_table_share", use, DoubleSupplier::getAsDouble)
                .description("The realm's use of its fair share of a store table at its recent writes (moving average): "
                        + "1 is exactly its share of a full slot; above 1 it holds more and gives way first")
                .tag("realm", realm)
                .tag("table", table)
                .strongReference(true)
                .register(Metrics.globalRegistry);
    }

    /** A right password logged in although its bucket is being sprayed (label: the realm only). */
    public static void sprayedLogin(String realm) {
        Counter.builder("abuse_gate_sprayed_logins")
                .description("Logins with a right password whose password bucket is being sprayed (the password-spray layer "
                        + "asked for a captcha, which was solved): that account's password is among those sprayed")
                .tag("realm", realm)
                .register(Metrics.globalRegistry)
                .increment();
    }

    public static void storeDegraded(String realm, Layer layer) {
        Counter.builder("abuse_gate_store_degraded")
                .description("Attempts counted on a shared counter because the counter store was at its bound "
                        + "(max-entries / max-protected-entries), by layer: such a count asks for a captcha early, and refuses only as a shared lockout count past its threshold")
                .tag("realm", realm)
                .tag("layer", layer.label())
                .register(Metrics.globalRegistry)
                .increment();
    }

    /** {@code cause}: the simple class name of the exception the call failed with (a bounded set, never a message). */
    public static void storeFailure(String realm, Layer layer, String reason, String cause) {
        Counter.builder("abuse_gate_store_failures")
                .description("Counter store calls that failed (reason: unavailable, or full at the store's bound), by layer "
                        + "and cause (the exception's class); each layer's failure mode decided the attempt")
                .tag("realm", realm)
                .tag("layer", layer.label())
                .tag("reason", reason)
                .tag("cause", cause)
                .register(Metrics.globalRegistry)
                .increment();
    }
}
