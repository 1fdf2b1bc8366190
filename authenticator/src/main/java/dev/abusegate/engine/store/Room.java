package dev.abusegate.engine.store;

import static dev.abusegate.engine.store.SlotFormat.E_EXP;
import static dev.abusegate.engine.store.SlotFormat.E_META;
import static dev.abusegate.engine.store.SlotFormat.E_REALM;
import static dev.abusegate.engine.store.SlotFormat.E_VALUE;
import static dev.abusegate.engine.store.SlotFormat.kind;
import static dev.abusegate.engine.store.SlotFormat.length;
import static dev.abusegate.engine.store.SlotFormat.shared;
import static dev.abusegate.engine.store.SlotFormat.value;

/**
 * Who holds a full slot's exact entries, each of a realm, and which of them gives way: the per-realm accounting
 * of max-min fairness ({@link Slots}) and the choice of the entry that makes room.
 */
final class Room {

    private final SlotScan scan;
    private final long[] slot;
    /** Exact entries the newcomer's realm holds, the most any other realm holds, and that realm. */
    final int mine;
    final int most;
    final long mostRealm;

    Room(SlotScan scan, long realm) {
        this.scan = scan;
        this.slot = scan.slot;
        int m = 0;
        int best = 0;
        long bestRealm = 0;
        long bestExpiry = Long.MAX_VALUE;
        for (int i = 0; i < scan.n; i++) {
            int o = scan.offsets[i];
            if (shared(slot[o + E_META])) {
                continue;
            }
            long r = slot[o + E_REALM];
            if (r == realm) {
                m++;
                continue;
            }
            int c = 0;
            long first = Long.MAX_VALUE;
            for (int j = 0; j < scan.n; j++) {
                int p = scan.offsets[j];
                if (slot[p + E_REALM] == r && !shared(slot[p + E_META])) {
                    c++;
                    first = Math.min(first, slot[p + E_EXP]);
                }
            }
            // ties go to the realm whose first entry expires first, then the lower tag: every copy agrees
            if (c > best || c == best && (first < bestExpiry || first == bestExpiry && r < bestRealm)) {
                best = c;
                bestRealm = r;
                bestExpiry = first;
            }
        }
        this.mine = m;
        this.most = best;
        this.mostRealm = bestRealm;
    }

    /**
     * The exact entry realm {@code r} gives up: one worth at most one attempt if it has one (cheap table), else
     * the least protective one, and of those the one that expires first: one whose last answer neither blocked
     * nor asked for a captcha, else one in the captcha band, and a blocking entry only when the realm holds
     * nothing else here (a blocked subject keeps its block while its realm has anything else to give).
     */
    int victimOf(long r, Slots.Policy policy) {
        int best = policy == Slots.Policy.CHEAP ? replaceable(r) : -1;
        if (best >= 0) {
            return best;
        }
        for (int i = 0; i < scan.n; i++) {
            int o = scan.offsets[i];
            if (slot[o + E_REALM] != r || shared(slot[o + E_META])) {
                continue;
            }
            if (best < 0 || rank(o) < rank(best) || rank(o) == rank(best) && slot[o + E_EXP] < slot[best + E_EXP]) {
                best = o;
            }
        }
        return best;
    }

    /** How much an entry protects: 0 calm, 1 in the captcha band, 2 blocking (its last answer, either layer). */
    private int rank(int o) {
        if (length(slot[o + E_META]) == 0) {
            return 0;
        }
        long a = slot[o + E_VALUE];
        int worst = Math.max(LayerOutcome.of(a).ordinal(), LayerOutcome.of(a >>> 2).ordinal());
        return Math.max(0, worst - LayerOutcome.COUNTED.ordinal());
    }

    /** Realm {@code r}'s shared counter (the protective table has one per realm), or -1. */
    int sharedOf(long r) {
        for (int i = 0; i < scan.n; i++) {
            int o = scan.offsets[i];
            if (slot[o + E_REALM] == r && shared(slot[o + E_META])) {
                return o;
            }
        }
        return -1;
    }

    /**
     * Realm {@code r}'s exact entry that may make room and expires first, or -1: one whose loss gives its owner
     * back at most one attempt ({@link EntryCodec#worthOneAttempt}).
     */
    int replaceable(long r) {
        int best = -1;
        for (int i = 0; i < scan.n; i++) {
            int o = scan.offsets[i];
            long meta = slot[o + E_META];
            if (slot[o + E_REALM] == r && !shared(meta) && EntryCodec.of(kind(meta)).worthOneAttempt(value(slot, o), scan.now)
                    && (best < 0 || slot[o + E_EXP] < slot[best + E_EXP])) {
                best = o;
            }
        }
        return best;
    }
}
