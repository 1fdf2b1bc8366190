package dev.abusegate.engine.store;

import static dev.abusegate.engine.store.SlotFormat.E_EXP;
import static dev.abusegate.engine.store.SlotFormat.E_HI;
import static dev.abusegate.engine.store.SlotFormat.E_LO;
import static dev.abusegate.engine.store.SlotFormat.E_META;
import static dev.abusegate.engine.store.SlotFormat.E_REALM;
import static dev.abusegate.engine.store.SlotFormat.E_VALUE;
import static dev.abusegate.engine.store.SlotFormat.FORMAT_WORD;
import static dev.abusegate.engine.store.SlotFormat.HEADER;
import static dev.abusegate.engine.store.SlotFormat.LATEST;
import static dev.abusegate.engine.store.SlotFormat.RESULT;
import static dev.abusegate.engine.store.SlotFormat.after;
import static dev.abusegate.engine.store.SlotFormat.kind;
import static dev.abusegate.engine.store.SlotFormat.length;
import static dev.abusegate.engine.store.SlotFormat.meta;
import static dev.abusegate.engine.store.SlotFormat.resultOffset;
import static dev.abusegate.engine.store.SlotFormat.shared;

/**
 * Writes the slot a {@link Placement} describes, always in the current format ({@link Versions#CURRENT}): every
 * live entry but the target (one folded into rewritten), then the entry moved out to its realm's shared counter,
 * then the target's new value, which the result word points at.
 */
final class SlotWriter {

    private SlotWriter() {
    }

    static long[] write(Placement p) {
        SlotScan scan = p.scan;
        long[] slot = scan.slot;
        if (p.target < 0 && p.next == null && !scan.dropped) {
            // nothing changes but the result
            if (slot == null || resultOffset(slot) == 0) {
                return slot;
            }
            long[] same = slot.clone();
            same[RESULT] = FORMAT_WORD;
            return same;
        }
        int size = size(p);
        if (size == HEADER) {
            return null;
        }
        long[] out = new long[size];
        long latest = 0;
        int w = HEADER;
        for (int i = 0; i < scan.n; i++) {
            int o = scan.offsets[i];
            if (o == p.target) {
                continue;
            }
            if (o == p.foldInto) {
                System.arraycopy(slot, o, out, w, E_VALUE);
                out[w + E_META] = meta(true, kind(slot[o + E_META]), 0, p.merged.length);
                out[w + E_EXP] = Math.max(slot[o + E_EXP], slot[p.target + E_EXP]);
                System.arraycopy(p.merged, 0, out, w + E_VALUE, p.merged.length);
            } else {
                System.arraycopy(slot, o, out, w, E_VALUE + length(slot[o + E_META]));
            }
            latest = Math.max(latest, out[w + E_EXP]);
            w = after(out, w);
        }
        if (p.movedOut) {
            int len = length(slot[p.target + E_META]);
            System.arraycopy(slot, p.target, out, w, E_VALUE + len);
            out[w + E_META] = meta(true, EntryCodec.of(kind(slot[p.target + E_META])).sharedKind(), 0, len);
            out[w + E_HI] = 0;
            out[w + E_LO] = 0;
            latest = Math.max(latest, out[w + E_EXP]);
            w += E_VALUE + len;
        }
        out[RESULT] = FORMAT_WORD;
        if (p.next != null) {
            latest = Math.max(latest, writeNext(p, out, w));
        }
        out[LATEST] = latest;
        return withShare(out, p.subject.realm(), scan.now);
    }

    private static int size(Placement p) {
        long[] slot = p.scan.slot;
        int size = HEADER;
        for (int i = 0; i < p.scan.n; i++) {
            int o = p.scan.offsets[i];
            if (o != p.target) {
                size += E_VALUE + (o == p.foldInto ? p.merged.length : length(slot[o + E_META]));
            }
        }
        if (p.movedOut) {
            size += E_VALUE + length(slot[p.target + E_META]);
        }
        if (p.next != null) {
            size += E_VALUE + p.next.length;
        }
        return size;
    }

    /** Writes the change's value at {@code w} and returns how long it keeps the slot (0 for a homeless answer). */
    private static long writeNext(Placement p, long[] out, int w) {
        Subject s = p.subject;
        long[] next = p.next;
        boolean sh = p.onShared;
        long now = p.scan.now;
        out[RESULT] = FORMAT_WORD | w;
        out[w + E_REALM] = s.realm();
        out[w + E_META] = sh ? meta(true, p.sharedKind(), 0, next.length) : meta(false, s.kind(), s.shape(), next.length);
        out[w + E_HI] = sh ? 0 : s.hi();
        out[w + E_LO] = sh ? 0 : s.lo();
        long old = p.target >= 0 && p.target == (sh ? p.scan.sharedAt : p.scan.exact) ? p.scan.slot[p.target + E_EXP] : 0;
        // a shared counter lives as long as the longest change it counted (it is every sharer's count); a
        // homeless answer is written expired: it carries the answer back and the next change drops it
        long exp = p.homeless ? now : sh ? Math.max(old, now + p.ttl) : now + p.ttl;
        out[w + E_EXP] = exp;
        System.arraycopy(next, 0, out, w + E_VALUE, next.length);
        return p.homeless ? 0 : exp;
    }

    /**
     * The slot with the writing realm's share of it in the result word: the exact entries it holds and the realms
     * holding any ({@link Slots#shareUse}). Read by the store for its metric, never by a decision.
     */
    private static long[] withShare(long[] out, long realm, long now) {
        int held = 0;
        int realms = 0;
        for (int o = HEADER; o < out.length; o = after(out, o)) {
            if (shared(out[o + E_META]) || out[o + E_EXP] <= now) {
                continue;
            }
            long r = out[o + E_REALM];
            held += r == realm ? 1 : 0;
            boolean first = true;
            for (int q = HEADER; q < o && first; q = after(out, q)) {
                first = shared(out[q + E_META]) || out[q + E_EXP] <= now || out[q + E_REALM] != r;
            }
            realms += first ? 1 : 0;
        }
        out[RESULT] |= (long) Math.min(held, 0xff) << 16 | (long) Math.min(realms, 0xff) << 24;
        return out;
    }
}
