package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.TestOptions;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.keys.SecretSource;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.nio.charset.StandardCharsets;

/** One gate on an in-memory (or given) store and a hand-moved clock, with short helpers. */
public final class GateFixture {

    public static final String REALM = "realm-a";
    public static final SecretSource SECRETS = realm -> ("test-secret-for-" + realm).getBytes(StandardCharsets.UTF_8);

    public final MutableClock clock = new MutableClock();
    final CounterStore store;
    public final AbuseGate gate;

    public GateFixture() {
        this.store = new ReferenceCounterStore(clock);
        this.gate = new AbuseGate(store, clock, SECRETS, 0);
    }

    /** A gate on the given store, which should read {@link #clock} if it keeps time. */
    public GateFixture(java.util.function.Function<TimeSource, CounterStore> store) {
        this.store = store.apply(clock);
        this.gate = new AbuseGate(this.store, clock, SECRETS, 0);
    }

    public GateFixture(CounterStore store) {
        this.store = store;
        this.gate = new AbuseGate(store, clock, SECRETS, 0);
    }

    /** Everything off except the named layer, captcha off. */
    public static TestOptions only(Layer layer, int threshold, long windowSeconds) {
        TestOptions b = TestOptions.builder().captchaEnabled(false);
        for (Layer l : Layer.values()) {
            if (l != layer) {
                b.disable(l);
            }
        }
        return b.layer(layer, threshold, windowSeconds);
    }

    static Attempt attempt(String address, String identifier) {
        return new Attempt(REALM, address, identifier, null);
    }

    /** A captcha check that finds a valid solution. */
    public static final java.util.function.BooleanSupplier SOLVED = () -> true;

    /** Decides one attempt as a single-page form does: every layer, the realm-wide one included. */
    public static Decision evaluate(AbuseGate gate, GateOptions options, Attempt attempt,
                                    java.util.function.BooleanSupplier captchaCheck) {
        return gate.evaluate(options, attempt, captchaCheck, true);
    }

    /** What the gate holds about an address, an identifier and their pair, without an IPv6 network's count. */
    public static SubjectState state(AbuseGate gate, String realm, String address, String identifier, int ipv6PrefixLength) {
        return gate.state(realm, address, identifier, ipv6PrefixLength, 0);
    }

    public Decision evaluate(GateOptions options, String address, String identifier) {
        return evaluate(gate, options, attempt(address, identifier), null);
    }

    /** An attempt whose password check fails (when it gets that far). */
    public Decision wrongPassword(GateOptions options, String address, String identifier) {
        Decision d = evaluate(options, address, identifier);
        if (d.allowed()) {
            gate.passwordFailed(d, 0L, java.util.List.of());
        }
        return d;
    }

    static final GateKeys KEYS = new GateKeys(SECRETS);

    public AttemptKeys keys(GateOptions options, String address, String identifier) {
        return KEYS.forAttempt(attempt(address, identifier), options.ipv6PrefixLength(), options.ipv6NetworkPrefixCounted());
    }

    private SubjectState state(GateOptions o, String address, String identifier) {
        return state(gate, REALM, address, identifier, o.ipv6PrefixLength());
    }

    long perIpCount(GateOptions o, String address) {
        return state(o, address, null).address().attempts();
    }

    long pairCount(GateOptions o, String address, String identifier) {
        return state(o, address, identifier).pair().attempts();
    }

    /** Layer 3's budget taken: confirmed failures plus reservations of attempts still being checked. */
    long failures(GateOptions o, String identifier) {
        return state(o, null, identifier).identifier().taken();
    }

    long lockRemaining(GateOptions o, String identifier) {
        return state(o, null, identifier).identifier().lockRemainingMillis();
    }

    int distinctIdentifiers(GateOptions o, String address) {
        return state(o, address, null).address().distinctIdentifiers();
    }
}
