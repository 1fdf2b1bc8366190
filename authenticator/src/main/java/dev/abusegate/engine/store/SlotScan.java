package dev.abusegate.engine.store;

import static dev.abusegate.engine.store.SlotFormat.E_EXP;
import static dev.abusegate.engine.store.SlotFormat.E_META;
import static dev.abusegate.engine.store.SlotFormat.HEADER;
import static dev.abusegate.engine.store.SlotFormat.after;
import static dev.abusegate.engine.store.SlotFormat.same;
import static dev.abusegate.engine.store.SlotFormat.shared;

import java.util.Arrays;

/**
 * A readable slot's live entries as of a change's time, seen from one subject: where its exact entry and its
 * realm's shared counter are, how many live entries of each sort the slot holds, and whether any expired.
 */
final class SlotScan {

    final long[] slot;
    final long now;
    int[] offsets;
    int n;
    int exact = -1;
    int sharedAt = -1;
    int exactLive;
    int sharedLive;
    boolean dropped;

    /** {@code slot} as {@link SlotFormat#readable} returned it (null: none); {@code sharedKind} of the subject's realm. */
    SlotScan(long[] slot, Subject s, int sharedKind, int ways, long now) {
        this.slot = slot;
        this.now = now;
        this.offsets = new int[slot == null ? 0 : 2 * ways + 4];
        if (slot == null) {
            return;
        }
        for (int o = HEADER; o < slot.length; o = after(slot, o)) {
            if (slot[o + E_EXP] <= now) {
                dropped = true;
                continue;
            }
            if (n == offsets.length) {
                offsets = Arrays.copyOf(offsets, n * 2);
            }
            offsets[n++] = o;
            if (shared(slot[o + E_META])) {
                sharedLive++;
                if (SlotFormat.sameShared(slot, o, s.realm(), sharedKind)) {
                    sharedAt = o;
                }
            } else {
                exactLive++;
                if (same(slot, o, s)) {
                    exact = o;
                }
            }
        }
    }
}
