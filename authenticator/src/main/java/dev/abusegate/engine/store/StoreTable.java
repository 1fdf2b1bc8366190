package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;
import java.util.Arrays;
import java.util.List;

/**
 * The tables of a bounded store, each a fixed table of slots ({@link Slots}) with a bound of its own, so that what
 * fills one table never takes room from another. Which table holds a kind of entry, how the table makes room, and
 * where its bound comes from are decided here, once, for every store.
 */
public enum StoreTable {
    /** Addresses (layers 1 and 4) and pairs (layer 2): what anyone creates at will. */
    CHEAP("cheap", Slots.Policy.CHEAP, false),
    /** Failures and locks (layer 3) and device budgets: never replaced. */
    PROTECTIVE("protective", Slots.Policy.PROTECTIVE, true),
    /** Used captcha solutions: never replaced, no shared counter. */
    USED("used", Slots.Policy.USED, true),
    /**
     * The password-spray layer's buckets: written only after a failed password check. A bucket that failed for one
     * account may make room; a flood of distinct buckets fills this table alone.
     */
    SPRAY("spray", Slots.Policy.CHEAP, true);

    /** The used-captcha and spray tables each get this share of the protective bound. */
    public static final int SHARE_OF_PROTECTIVE = 4;
    /** The tables' names as a metric gives them, in {@link #ordinal()} order. */
    public static final List<String> NAMES = Arrays.stream(values()).map(StoreTable::label).toList();

    private static final StoreTable[] BY_KIND = new StoreTable[CounterKey.Kind.values().length];

    static {
        BY_KIND[CounterKey.Kind.ADDRESS.ordinal()] = CHEAP;
        BY_KIND[CounterKey.Kind.PAIR.ordinal()] = CHEAP;
        BY_KIND[CounterKey.Kind.ACCOUNT.ordinal()] = PROTECTIVE;
        BY_KIND[CounterKey.Kind.DEVICE.ordinal()] = PROTECTIVE;
        BY_KIND[CounterKey.Kind.USED.ordinal()] = USED;
        BY_KIND[CounterKey.Kind.BUCKET.ordinal()] = SPRAY;
    }

    private final String label;
    private final Slots.Policy policy;
    private final boolean paid;

    StoreTable(String label, Slots.Policy policy, boolean paid) {
        this.label = label;
        this.policy = policy;
        this.paid = paid;
    }

    /** The table that holds entries of {@code kind}. */
    public static StoreTable of(CounterKey.Kind kind) {
        return BY_KIND[kind.ordinal()];
    }

    /** The table's name in a metric's {@code table} label. */
    public String label() {
        return label;
    }

    /** What may make room in the table. */
    public Slots.Policy policy() {
        return policy;
    }

    /**
     * Whether the table lives with what protects accounts (the store's protective cache, sized by its protective
     * bound): its entries grow only with work someone paid for (a password hash, a solved captcha).
     */
    public boolean paid() {
        return paid;
    }

    /** The table's bound in exact entries, from the store's two bounds. */
    public long bound(long maxCheap, long maxProtective) {
        return switch (this) {
            case CHEAP -> maxCheap;
            case PROTECTIVE -> maxProtective;
            case USED, SPRAY -> Math.max(Slots.WAYS, maxProtective / SHARE_OF_PROTECTIVE);
        };
    }

    /** The table's shape: its ways per slot and its policy, for a bound from {@link #bound}. */
    public TableShape shape(long bound) {
        return TableShape.of(bound, policy);
    }
}
