package dev.abusegate.engine.realm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.Decision;
import dev.abusegate.engine.GateFixture;
import dev.abusegate.engine.MutableClock;
import dev.abusegate.engine.Outcome;
import dev.abusegate.engine.config.Allowlist;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The fifth layer's second look ({@link AbuseGate#realmEnteredMeanwhile}) at an attempt that was let through and is
 * still waiting for its password check: what admission exempted stays exempt, and every other attempt is asked for the
 * realm's captcha once the realm has entered meanwhile.
 */
class RealmSecondLookTest {

    private static final String REALM = "realm-a";

    private final MutableClock clock = new MutableClock();
    private final RealmWatch watch = new RealmWatch(new LocalRealmTallies(), clock, null);
    private final AbuseGate gate = new AbuseGate(new ReferenceCounterStore(clock), clock, GateFixture.SECRETS, 0, watch);
    private final GateOptions options = TestOptions.builder()
            .set(RealmSettings.ENABLED, true)
            .set(RealmSettings.THRESHOLD, 20)
            .set(RealmSettings.WINDOW_SECONDS, 60L)
            .set(RealmSettings.BASELINE_MULTIPLE, 0.0)
            .layer(Layer.ACCOUNT_LOCKOUT, 3, 900)
            .deviceCookie(true, 5, 90)
            .allowlist(Allowlist.parse("203.0.113.0/24"))
            .build();
    private int sprayed;

    private Decision attempt(String address, String user, String device, boolean solved) {
        return GateFixture.evaluate(gate, options, new Attempt(REALM, address, user, device), solved ? () -> true : null);
    }

    /** The realm enters "under attack": 20 wrong passwords, each from a /24 of its own, then a tick. */
    private void enter() {
        for (int i = 0; i < 20; i++) {
            int k = sprayed++;
            Decision d = attempt("10." + (k >> 8 & 255) + "." + (k & 255) + ".1", "user" + k, null, true);
            gate.passwordFailed(d, 0L, List.of());
        }
        clock.advanceMillis(RealmWatch.TICK_MILLIS);
        watch.tick();
        assertTrue(watch.underAttack(REALM));
    }

    private Decision secondLook(Decision admitted, Boolean solvesNow) {
        return gate.realmEnteredMeanwhile(options, REALM, admitted, solvesNow == null ? null : () -> solvesNow);
    }

    @Test
    void an_attempt_let_through_before_the_realm_entered_is_asked_for_the_realm_captcha_at_its_turn() {
        Decision early = attempt("192.0.2.1", "alice", null, false);
        assertTrue(early.allowed());
        assertNull(secondLook(early, null), "the realm is calm: the check goes ahead");

        enter();
        Decision late = secondLook(early, null);
        assertEquals(Outcome.CAPTCHA_REQUIRED, late.outcome());
        assertTrue(late.realmUnderAttack());
        assertNull(late.layer(), "no per-subject layer decided");
        assertEquals(Outcome.CAPTCHA_REQUIRED, secondLook(early, false).outcome(), "a solution that does not verify");
        assertNull(secondLook(early, true), "a solution that verifies now");
    }

    @Test
    void what_admission_exempted_stays_exempt() {
        Decision allowlisted = attempt("203.0.113.7", "heidi", null, false);
        Decision device = attempt("192.0.2.50", "grace", "device-1", false);
        Decision noRealmLayer = gate.evaluate(options, new Attempt(REALM, "192.0.2.90", "kim", null), null, false);
        enter();
        Decision solved = attempt("192.0.2.91", "lena", null, true);
        assertTrue(solved.allowed(), "passed the realm's captcha at admission");

        for (Decision d : List.of(allowlisted, device, noRealmLayer, solved)) {
            assertTrue(d.allowed());
            assertNull(secondLook(d, false), d.toString());
        }
    }

    @Test
    void a_solution_is_verified_only_when_the_answer_depends_on_it() {
        Decision early = attempt("192.0.2.2", "bob", null, false);
        AtomicInteger checks = new AtomicInteger();
        assertNull(gate.realmEnteredMeanwhile(options, REALM, early, () -> checks.incrementAndGet() > 0));
        assertEquals(0, checks.get(), "a calm realm spends no solution");
        enter();
        assertNull(gate.realmEnteredMeanwhile(options, REALM, early, () -> checks.incrementAndGet() > 0));
        assertEquals(1, checks.get());
    }

    @Test
    void a_refused_attempt_is_not_looked_at_again() {
        enter();
        Decision refused = attempt("192.0.2.3", "carol", null, false);
        assertEquals(Outcome.CAPTCHA_REQUIRED, refused.outcome());
        assertNull(secondLook(refused, null));
    }
}
