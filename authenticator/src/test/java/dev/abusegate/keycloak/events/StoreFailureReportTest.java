package dev.abusegate.keycloak.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.Outages;
import dev.abusegate.engine.store.CounterStoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a store failure shows an operator: the failure metric labelled with the cause's class (a bounded label, never a
 * message), and the event detail {@value GateEvents#DETAIL_CAUSE} with the class and the message, no subject in it.
 */
class StoreFailureReportTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void register() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void unregister() {
        Metrics.removeRegistry(registry);
        registry.close();
    }

    @Test
    void the_failure_metric_is_labelled_with_the_causes_class() {
        Outages.Outage o = new Outages.Outage(Layer.PER_IP,
                new CompletionException(new CounterStoreException("change failed", new IllegalStateException("cache stopped"))));
        GateMetrics.storeFailure("metrics-realm", o.layer(), GateEvents.REASON_DOWN, o.causeName());
        GateMetrics.storeFailure("metrics-realm", o.layer(), GateEvents.REASON_DOWN, o.causeName());
        Counter c = registry.find("abuse_gate_store_failures").tags("realm", "metrics-realm", "layer", "per_ip",
                "reason", "unavailable", "cause", "IllegalStateException").counter();
        assertThat(c).isNotNull();
        assertThat(c.count()).isEqualTo(2.0);
    }

    @Test
    void the_event_detail_holds_the_class_and_a_message_without_a_subject() {
        Outages.Outage o = new Outages.Outage(Layer.ACCOUNT_LOCKOUT,
                new CounterStoreException("change failed", new IllegalStateException("no owner for bob@example.org at 192.0.2.9")));
        assertThat(GateEvents.causeText(o)).isEqualTo("IllegalStateException: no owner for ? at ?");
        assertThat(GateEvents.causeText(new Outages.Outage(Layer.PER_IP, new IllegalStateException())))
                .isEqualTo("IllegalStateException");
    }
}
