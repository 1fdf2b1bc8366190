package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.store.CounterStoreException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An outage keeps its layer and its cause: the innermost exception's class for a metric label, and its message, cut
 * and with nothing that could name a subject, for an operator's event.
 */
class OutagesTest {

    @Test
    void the_cause_is_the_innermost_exception() {
        RuntimeException wrapped = new CompletionException(new CounterStoreException("change failed",
                new IllegalStateException(new TimeoutException("ISPN000476: Timed out waiting for responses"))));
        Outages.Outage o = new Outages.Outage(Layer.PER_IP, wrapped);
        assertThat(o.layer()).isEqualTo(Layer.PER_IP);
        assertThat(o.causeName()).isEqualTo("TimeoutException");
        assertThat(o.causeMessage()).isEqualTo("ISPN000476: Timed out waiting for responses");
    }

    @Test
    void a_message_names_no_address_email_or_key() {
        Outages.Outage o = new Outages.Outage(Layer.ACCOUNT_LOCKOUT, new CounterStoreException(
                "failed for realm/ip/203.0.113.7 from 198.51.100.4:7800 user alice@example.com at 2001:db8::1 ok"));
        assertThat(o.causeMessage()).doesNotContain("203.0.113.7", "198.51.100.4", "alice", "example.com", "2001:db8")
                .startsWith("failed for ? from ? user ? at ? ok");
    }

    @Test
    void a_long_message_is_cut_and_kept_on_one_line() {
        String m = new Outages.Outage(Layer.PER_IP, new CounterStoreException("x\n".repeat(500))).causeMessage();
        assertThat(m).hasSizeLessThanOrEqualTo(Outages.MAX_MESSAGE).doesNotContain("\n");
        assertThat(new Outages.Outage(Layer.PER_IP, new CounterStoreException(null)).causeMessage()).isEmpty();
    }

    @Test
    void a_failed_store_call_is_recorded_with_its_cause() {
        GateFixture f = new GateFixture(TestStores.DeadStore.everywhere());
        Decision d = f.evaluate(GateOptions.defaults(), "192.0.2.1", "alice");
        // every per-subject layer; the password-spray layer runs only for an attempt with a password
        assertThat(d.outages().outages()).extracting(Outages.Outage::layer)
                .containsExactlyInAnyOrderElementsOf(java.util.EnumSet.complementOf(java.util.EnumSet.of(Layer.PASSWORD_SPRAY)));
        assertThat(d.outages().outages()).allSatisfy(o -> {
            assertThat(o.causeName()).isEqualTo("CounterStoreException");
            assertThat(o.causeMessage()).isEqualTo("store is down (test)");
        });
        Outages settled = f.gate.passwordFailed(d, 0L, java.util.List.of());
        assertThat(settled.unavailable()).isEmpty(); // layer 3 failed open: nothing reserved, nothing to settle
    }
}
