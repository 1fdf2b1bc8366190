package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.config.LayerPolicy;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.store.AdmissionAnswer;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStoreFullException;
import dev.abusegate.engine.store.LayerOutcome;
import dev.abusegate.engine.store.Limit;
import java.util.concurrent.CompletableFuture;

/**
 * Admission's first step: the address's change (layers 1 and 4), for an IPv6 address its network's (layer 1 again)
 * and the pair's (layer 2), sent together (one round trip), read, and given back when the answer is a captcha.
 */
final class AdmissionCounts {

    /**
     * One subject's changes during the attempt: its last answer, and whether it holds an exact count to give back.
     * The one place of the rule for a count on a shared counter (the store at its bound): the layer is degraded, and
     * the count is never given back (a shared count only ever over-counts; the store never lets it block, see
     * {@code Slots}).
     */
    private static final class Subject {
        private LayerOutcome outcome = LayerOutcome.OFF;
        private LayerOutcome identifiers = LayerOutcome.OFF;
        /** Whether its last change failed (its outcome is then the layers' failure modes). */
        private boolean failed;
        private boolean added;
        private boolean exactCount;

        void read(AdmissionAnswer answer, boolean counted, StoreCall call, LayerPolicy... layers) {
            outcome = answer.outcome();
            identifiers = answer.identifiers();
            failed = false;
            if (answer.shared()) {
                for (LayerPolicy p : layers) {
                    call.degrade(p);
                }
            } else {
                added |= answer.identifierAdded();
                exactCount |= counted;
            }
        }

        void fail(RuntimeException e, StoreCall call, LayerPolicy layer, LayerPolicy identifiersLayer) {
            failed = true;
            outcome = layer == null ? LayerOutcome.OFF : call.failed(layer, e);
            identifiers = identifiersLayer == null ? LayerOutcome.OFF : call.failed(identifiersLayer, e);
        }

        boolean inBand() {
            return outcome == LayerOutcome.BAND || identifiers == LayerOutcome.BAND;
        }
    }

    private final StoreCall call;
    private final GateOptions o;
    private final AttemptKeys k;
    private final AddressPolicies p;
    private final long now;
    private final Subject address = new Subject();
    private final Subject network = new Subject();
    private final Subject pair = new Subject();

    AdmissionCounts(AdmissionStep step, AddressPolicies p) {
        this.call = step.call();
        this.o = step.options();
        this.k = step.keys();
        this.now = step.now();
        this.p = p;
    }

    /** Sends the changes together (one round trip) and reads their answers. */
    void run(boolean solved) {
        send(p.addressUsed(), p.network() != null, p.pair() != null, solved);
    }

    private void send(boolean doAddress, boolean doNetwork, boolean doPair, boolean solved) {
        CompletableFuture<long[]> fa = doAddress ? call.start(k.address(),
                new Change.AdmitAddress(now, solved, Limits.limit(o, p.perIp()), Limits.limit(o, p.identifiers()), k.member()),
                p.addressWindow()) : null;
        // the network's entry is an address entry counting layer 1 only (no identifiers)
        CompletableFuture<long[]> fn = doNetwork ? call.start(k.network(),
                new Change.AdmitAddress(now, solved, Limits.limit(o, p.network()), Limit.OFF, k.member()),
                p.network().windowMillis()) : null;
        CompletableFuture<long[]> fp = doPair ? call.start(k.pair(), new Change.AdmitPair(now, solved, Limits.limit(o, p.pair())),
                p.pair().windowMillis()) : null;
        if (fa != null) {
            try {
                AdmissionAnswer answer = admitted(fa, "address");
                address.read(answer, answer.counted(), call, p.perIp(), p.identifiers());
            } catch (RuntimeException e) {
                address.fail(e, call, p.perIp(), p.identifiers());
            }
        }
        if (fn != null) {
            try {
                AdmissionAnswer answer = admitted(fn, "network");
                network.read(answer, answer.counted(), call, p.network());
            } catch (RuntimeException e) {
                network.fail(e, call, p.network(), null);
            }
        }
        if (fp != null) {
            try {
                AdmissionAnswer answer = admitted(fp, "pair");
                // a pair's answer has no counted mark: it counted when it passed
                pair.read(answer, answer.outcome() == LayerOutcome.COUNTED, call, p.pair());
            } catch (RuntimeException e) {
                pair.fail(e, call, p.pair(), null);
            }
        }
    }

    /** The answer of an admission change; a store with no room for the subject (no entry) throws. */
    private static AdmissionAnswer admitted(CompletableFuture<long[]> f, String subject) {
        long[] v = f.join();
        if (v == null) {
            throw new CounterStoreFullException("no room for a new " + subject);
        }
        return AdmissionAnswer.of(v);
    }

    /** Whether the address's own count (not a failure mode) blocked it on layer 1. */
    boolean addressBlockedByCount() {
        return address.outcome == LayerOutcome.BLOCKED && !address.failed;
    }

    /** Whether the address's own count of distinct names (not a failure mode) blocked it on layer 4. */
    boolean identifiersBlockedByCount() {
        return address.identifiers == LayerOutcome.BLOCKED && !address.failed;
    }

    /** Whether the network's own count (not a failure mode) blocked it on layer 1. */
    boolean networkBlockedByCount() {
        return network.outcome == LayerOutcome.BLOCKED && !network.failed;
    }

    /** Whether the address's entry (layer 1 or 4) or its network's answered in the captcha band. */
    boolean addressInBand() {
        return address.inBand() || network.inBand();
    }

    /** The layer that blocks the attempt, or null. */
    Layer blocked() {
        if (address.outcome.blocks() || network.outcome.blocks()) {
            return Layer.PER_IP;
        }
        if (pair.outcome.blocks()) {
            return Layer.PER_IP_ACCOUNT;
        }
        if (address.identifiers.blocks()) {
            return Layer.CREDENTIAL_STUFFING;
        }
        return null;
    }

    boolean inBand() {
        return address.inBand() || network.inBand() || pair.inBand();
    }

    /** The layer that asks for the captcha (the first in the band). */
    Layer bandLayer() {
        return address.outcome == LayerOutcome.BAND || network.outcome == LayerOutcome.BAND ? Layer.PER_IP
                : pair.outcome == LayerOutcome.BAND ? Layer.PER_IP_ACCOUNT : Layer.CREDENTIAL_STUFFING;
    }

    /** Counts, with a solved captcha, the entries whose change answered BAND (and counted nothing). */
    void rerunBand() {
        send(address.inBand(), network.inBand(), pair.inBand(), true);
    }

    /** A blocked attempt counts where it was in the band, too (it needs no captcha to be counted). */
    void countBand() {
        if (inBand()) {
            rerunBand();
        }
    }

    /** A captcha answer counts nothing: gives back the exact counts the changes made. */
    void undo() {
        LayerPolicy p1 = p.perIp();
        LayerPolicy p4 = p.identifiers();
        LayerPolicy pN = p.network();
        CompletableFuture<long[]> fa = p.addressUsed() && address.exactCount
                ? call.start(k.address(), new Change.UndoAddress(now, new Change.UndoAddress.Given(p1 != null, address.added,
                k.member()), p1 == null ? 0 : now + p1.windowMillis(), p4 == null ? 0 : now + p4.windowMillis()), p.addressWindow())
                : null;
        CompletableFuture<long[]> fn = network.exactCount
                ? call.start(k.network(), new Change.UndoAddress(now, new Change.UndoAddress.Given(true, false, k.member()),
                now + pN.windowMillis(), 0),
                pN.windowMillis())
                : null;
        CompletableFuture<long[]> fp = pair.exactCount
                ? call.start(k.pair(), new Change.UndoPair(now, now + p.pair().windowMillis()), p.pair().windowMillis())
                : null;
        if (fa != null) {
            call.join(fa, p1 != null ? p1 : p4);
        }
        if (fn != null) {
            call.join(fn, pN);
        }
        if (fp != null) {
            call.join(fp, p.pair());
        }
    }
}
