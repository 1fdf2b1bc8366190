package dev.abusegate.engine;

import java.nio.charset.StandardCharsets;

/** One gate on an in-memory (or given) store and a hand-moved clock, with short helpers. */
final class GateFixture {

    static final String REALM = "realm-a";
    static final SecretSource SECRETS = realm -> ("test-secret-for-" + realm).getBytes(StandardCharsets.UTF_8);

    final MutableClock clock = new MutableClock();
    final CounterStore store;
    final AbuseGate gate;

    GateFixture() {
        this.store = new ReferenceCounterStore(clock);
        this.gate = new AbuseGate(store, clock, SECRETS);
    }

    /** A gate on the given store, which should read {@link #clock} if it keeps time. */
    GateFixture(java.util.function.Function<TimeSource, CounterStore> store) {
        this.store = store.apply(clock);
        this.gate = new AbuseGate(this.store, clock, SECRETS);
    }

    GateFixture(CounterStore store) {
        this.store = store;
        this.gate = new AbuseGate(store, clock, SECRETS);
    }

    /** Everything off except the named layer, captcha off. */
    static GateOptions.Builder only(Layer layer, int threshold, long windowSeconds) {
        GateOptions.Builder b = GateOptions.builder().captchaEnabled(false);
        for (Layer l : Layer.values()) {
            if (l != layer) {
                b.disable(l);
            }
        }
        return b.layer(layer, threshold, windowSeconds);
    }

    static Attempt attempt(String address, String identifier) {
        return new Attempt(REALM, address, identifier, false);
    }

    static Attempt solved(String address, String identifier) {
        return new Attempt(REALM, address, identifier, true);
    }

    Decision evaluate(GateOptions options, String address, String identifier) {
        return gate.evaluate(options, attempt(address, identifier));
    }

    /** An attempt whose password check fails (when it gets that far). */
    Decision wrongPassword(GateOptions options, String address, String identifier) {
        Decision d = evaluate(options, address, identifier);
        if (d.allowed()) {
            gate.passwordFailed(d);
        }
        return d;
    }

    static final GateKeys KEYS = new GateKeys(SECRETS);

    GateKeys.Keys keys(GateOptions options, String address, String identifier) {
        return KEYS.forAttempt(attempt(address, identifier), options.ipv6PrefixLength());
    }

    private SubjectState state(GateOptions o, String address, String identifier) {
        return gate.state(REALM, address, identifier, o.ipv6PrefixLength());
    }

    long perIpCount(GateOptions o, String address) {
        return state(o, address, null).address().attempts();
    }

    long pairCount(GateOptions o, String address, String identifier) {
        return state(o, address, identifier).pair().attempts();
    }

    /** Layer 3's units: confirmed failures plus reservations of attempts still being checked. */
    long failures(GateOptions o, String identifier) {
        return state(o, null, identifier).identifier().units();
    }

    long lockRemaining(GateOptions o, String identifier) {
        return state(o, null, identifier).identifier().lockRemainingMillis();
    }

    int distinctIdentifiers(GateOptions o, String address) {
        return state(o, address, null).address().distinctIdentifiers();
    }
}
