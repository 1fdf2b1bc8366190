package dev.abusegate.engine.realm;

import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.config.GateOptions;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The fifth, realm-wide layer, "realm under attack": it counts each realm's failed password checks (unknown
 * usernames included) of attempts the four per-subject layers let through, and the distinct networks they came from
 * (an IPv4 /24, an IPv6 /48, as keyed tags). An attempt it turns away for want of a captcha is not counted: only a
 * checked password counts, so that one sender can neither switch the realm on nor hold it for free.
 *
 * <p>A failure pays a {@link LongAdder} increment into this node's tally (per realm, per bucket of {@value
 * #BUCKET_MILLIS} ms) and an update of the realm's few most recent networks (at most {@code realm.minNetworks} of
 * them); a login pays a volatile read of the realm's state. Everything else happens in {@link #tick()}, which
 * the owner runs once a second off the login path: it publishes this node's tally (one key per realm and node, see
 * {@link RealmTallies}), reads the other nodes', sums the buckets of the window, counts the distinct networks in it
 * and decides:
 * <ul>
 *   <li>the entry level is {@code realm.threshold}, or, with {@code realm.baselineMultiple} above 0, that multiple
 *       of the realm's baseline when it is higher (the baseline: the window's count, averaged with a time constant of
 *       an hour, learned only while not under attack);</li>
 *   <li>the realm enters when the window's count reaches the entry level and its failures came from at least
 *       {@code realm.minNetworks} distinct networks; it leaves when the count falls below half of the level it entered at
 *       (so it does not flap), or when the window's failures come from fewer networks than that (so that one address,
 *       or one network, holds nothing).</li>
 * </ul>
 * The networks are exact up to {@code realm.minNetworks}: each node keeps the most recent that many distinct networks
 * of its failures with the bucket each was last seen in (so a node that saw that many in the window has them all in
 * the window, and one that saw fewer has all of those), and the tick counts the distinct ones in the window over the
 * nodes' lists. A realm's memory is its buckets and that list, whatever is sent to it.
 * Entering does not wait for the next tick once the crowd is there: a tick that found the networks leaves the realm
 * the headroom its count had to the entry level, and the failure on this node that uses it up enters the realm on
 * this node at once (one atomic decrement per failure; the one failure that reaches zero records the change, as the
 * tick would). Before a tick has found the crowd, a failure enters on this node's own count and networks when they
 * alone reach the level and the crowd (never sooner than the tick would: they are part of its count). An attack on
 * this node alone is met with the failure that reaches the level, not up to a tick later; the other nodes' failures
 * since the tick count at the next one.
 * A realm with the layer off shares and keeps nothing. A tally that cannot be published or read fails open: the realm is decided on what this node has, and the failure
 * is reported to the owner; a tick never throws.
 */
public final class RealmWatch {

    /** The granularity of the window. */
    public static final long BUCKET_MILLIS = 10_000;
    /** How often the owner should run {@link #tick()}. */
    public static final long TICK_MILLIS = 1_000;
    /** The time constant of the baseline. */
    static final long BASELINE_MILLIS = 3_600_000;

    /**
     * The most changes of a realm's state held for {@link #takeChange} (even, so that the ones held still start with
     * the right kind): when more are unreported, the oldest are no longer reported.
     */
    public static final int MAX_PENDING_CHANGES = 8;

    /** A change of a realm's state, reported once to whoever takes it (see {@link #takeChange}). */
    public enum Change { ENTERED, LEFT }

    /**
     * What this node holds about a realm.
     *
     * @param enabled     the layer is on for the realm (as of the last attempt decided in it)
     * @param underAttack the realm is under attack
     * @param count       the window's count at the last tick, summed over the nodes, plus this node's failures since
     * @param networks    the distinct networks of the window's failures at the last tick, counted up to {@code
     *                    realm.minNetworks}
     * @param entryLevel  the count at which it enters now; while under attack, the level it entered at
     * @param baseline    the learned baseline (a count per window)
     * @param sinceMillis when the state last changed (0: never on this node)
     */
    public record State(boolean enabled, boolean underAttack, Window window, long sinceMillis) {

        /** The window's figures: {@code count}, {@code networks}, {@code entryLevel} and {@code baseline} above. */
        public record Window(long count, int networks, long entryLevel, double baseline) {
        }

        public long count() {
            return window.count();
        }

        public int networks() {
            return window.networks();
        }

        public long entryLevel() {
            return window.entryLevel();
        }

        public double baseline() {
            return window.baseline();
        }
    }

    private final RealmTallies tallies;
    private final TimeSource clock;
    private final Consumer<RuntimeException> onTallyFailure;
    private final Map<String, RealmCount> realms = new ConcurrentHashMap<>();

    /** {@code onTallyFailure} hears of a tally that could not be published or read (the tick failed open). */
    public RealmWatch(RealmTallies tallies, TimeSource clock, Consumer<RuntimeException> onTallyFailure) {
        this.tallies = Objects.requireNonNull(tallies, "tallies");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.onTallyFailure = onTallyFailure == null ? e -> { } : onTallyFailure;
    }

    /**
     * Counts one failed password check in the realm, from the network {@code network} (its keyed tag, see {@code
     * AttemptKeys#crowdNetwork}); {@code minNetworks} is the realm's {@code realm.minNetworks} (how many recent
     * networks it keeps).
     */
    public void failed(String realm, long network, int minNetworks) {
        realm(realm).count(clock.millis(), network, minNetworks);
    }

    /**
     * Whether the realm is under attack for an attempt decided with {@code options} (which become the realm's
     * settings for the next tick). Never throws; costs two map reads.
     */
    public boolean underAttack(String realm, GateOptions options) {
        RealmCount r = realm(realm);
        if (r.options != options) {
            r.options = options;
        }
        return r.on() && options.get(RealmSettings.ENABLED);
    }

    /** Whether the realm is under attack on this node. */
    public boolean underAttack(String realm) {
        RealmCount r = realms.get(realm);
        return r != null && r.on();
    }

    /**
     * The realm's oldest change of state on this node not yet taken, or null: each change is taken once, by one
     * caller, and the changes in the order they happened (a realm that entered and left between two calls gives
     * {@link Change#ENTERED}, then {@link Change#LEFT}, then null). Call it until it gives null. At most {@value
     * #MAX_PENDING_CHANGES} changes are held: of a longer run of changes nobody took (a node that sees a realm flap
     * on the other nodes' counts with no login of its own), only the last {@value #MAX_PENDING_CHANGES} are given.
     * Holds no memory per change: the changes alternate, starting with {@link Change#ENTERED}, so their number says
     * which each is.
     */
    public Change takeChange(String realm) {
        RealmCount r = realms.get(realm);
        if (r == null) {
            return null;
        }
        for (;;) {
            long made = r.changes;
            long taken = r.taken.get();
            if (taken >= made) {
                return null;
            }
            long next = Math.max(taken, made - MAX_PENDING_CHANGES) + 1; // the n-th change (from 1): ENTERED when odd
            if (r.taken.compareAndSet(taken, next)) {
                return (next & 1) == 1 ? Change.ENTERED : Change.LEFT;
            }
        }
    }

    /** What this node holds about the realm. */
    public State state(String realm) {
        RealmCount r = realms.get(realm);
        if (r == null) {
            return new State(false, false, new State.Window(0, 0, 0, 0), 0);
        }
        GateOptions o = r.options;
        boolean decided = r.on;
        // the tick's count plus this node's failures since
        State.Window window = new State.Window(r.count + r.sinceTick.sum(), r.networkCount,
                decided ? r.entryLevel : entryLevel(o, r.baseline), r.baseline);
        return new State(o != null && o.get(RealmSettings.ENABLED), r.on(), window, r.since);
    }

    /** Publishes, reads and decides every realm this node knows. Run once a second; never throws. */
    public void tick() {
        long now = clock.millis();
        for (Map.Entry<String, RealmCount> e : realms.entrySet()) {
            try {
                e.getValue().sync(e.getKey(), now);
            } catch (RuntimeException ex) {
                onTallyFailure.accept(ex);
            }
        }
    }

    private RealmCount realm(String realm) {
        RealmCount r = realms.get(realm);
        return r != null ? r : realms.computeIfAbsent(realm, k -> new RealmCount(tallies, onTallyFailure));
    }

    static long entryLevel(GateOptions o, double baseline) {
        if (o == null) {
            return Long.MAX_VALUE;
        }
        long level = o.get(RealmSettings.THRESHOLD);
        double multiple = o.get(RealmSettings.BASELINE_MULTIPLE);
        return multiple > 0 ? Math.max(level, (long) Math.ceil(multiple * baseline)) : level;
    }

    /** The first word of a tally in its published form (see {@link TallyForm}). */
    static final long FORMAT = TallyForm.FORMAT;
}
