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
        this(new InMemoryCounterStore());
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

    GateKeys.Keys keys(GateOptions options, String address, String identifier) {
        return gate.keys().forAttempt(attempt(address, identifier), options.ipv6PrefixLength());
    }

    long perIpCount(GateOptions o, String address) {
        return store.count(keys(o, address, "x").perIp(), clock.millis());
    }

    long pairCount(GateOptions o, String address, String identifier) {
        return store.count(keys(o, address, identifier).perIpAccount(), clock.millis());
    }

    long failures(GateOptions o, String identifier) {
        return store.count(keys(o, "192.0.2.1", identifier).failures(), clock.millis());
    }

    long lockRemaining(GateOptions o, String identifier) {
        return store.lockRemainingMillis(keys(o, "192.0.2.1", identifier).lock(), clock.millis());
    }

    int distinctIdentifiers(GateOptions o, String address) {
        GateKeys.Keys k = keys(o, address, "x");
        return store.distinct(k.identifiers(), k.member(), clock.millis()).size();
    }
}
