package dev.abusegate.engine.store;

import static dev.abusegate.engine.store.SlotFormat.value;

/**
 * Where one change lands in its slot, decided inside the slot's atomic compute ({@link Slots#apply}): on the
 * subject's exact entry, on a new one (in room that was free or made), on its realm's shared counter, or nowhere
 * (homeless), and which entry of the slot gives way. {@link SlotWriter} builds the slot it describes.
 */
final class Placement {

    final SlotScan scan;
    final Subject subject;
    final Change change;
    final long ttl;
    final TableShape table;
    final EntryCodec<?> codec;
    /** The entry the change replaces or rewrites (-1: none). */
    int target = -1;
    /** The change's value (null: nothing kept for the subject). */
    long[] next;
    boolean onShared;
    boolean homeless;
    /**
     * Another realm's entry that gave way to the newcomer is folded into that realm's shared counter: either into
     * the one it has ({@code foldInto}, rewritten with {@code merged}) or as a new one ({@code movedOut}).
     */
    int foldInto = -1;
    long[] merged;
    boolean movedOut;

    private Placement(SlotScan scan, Subject subject, Change change, long ttl, TableShape table) {
        this.scan = scan;
        this.subject = subject;
        this.change = change;
        this.ttl = ttl;
        this.table = table;
        this.codec = EntryCodec.of(subject.kind());
    }

    /** Where {@code change} of {@code subject} lands in {@code slot} (read as {@link SlotFormat#readable} returns it). */
    static Placement of(long[] slot, Subject subject, Change change, long ttl, TableShape table) {
        int sharedKind = EntryCodec.of(subject.kind()).sharedKind();
        SlotScan scan = new SlotScan(slot, subject, sharedKind, table.ways(), change.now());
        Placement p = new Placement(scan, subject, change, ttl, table);
        p.decide();
        if (p.onShared && p.next != null) {
            p.next = p.homeless ? p.codec.homeless(change, p.next) : p.codec.onShared(change, p.next);
        }
        return p;
    }

    int sharedKind() {
        return codec.sharedKind();
    }

    private void decide() {
        long[] slot = scan.slot;
        Slots.Policy policy = table.policy();
        if (policy != Slots.Policy.USED && change.settlesShared()) {
            // the attempt was counted on the realm's shared counter: it is settled there, never on an exact entry
            onShared = true;
            target = scan.sharedAt;
            // a right password on a shared count clears nobody's failures: it only gives its reservation back
            Change settle = change instanceof Change.Succeed ? new Change.GiveBack(change.now(), true) : change;
            next = settle.next(false, value(slot, scan.sharedAt));
        } else if (scan.exact >= 0) {
            target = scan.exact;
            next = change.next(true, value(slot, scan.exact));
        } else {
            next = change.next(true, null);
            if (next != null && scan.sharedAt >= 0 && policy != Slots.Policy.USED) {
                // While the realm's shared counter of this kind is live, a newcomer is counted there even if room
                // has come free: it may have been counted there before, and a fresh exact count would forget that.
                onShared = true;
                target = scan.sharedAt;
                next = change.next(true, value(slot, scan.sharedAt));
            } else if (next != null && scan.exactLive >= table.ways()) {
                makeRoom(policy);
            }
        }
    }

    /** A newcomer in a full slot: another realm's entry gives way, one of its own, or it goes to a shared counter. */
    private void makeRoom(Slots.Policy policy) {
        Room room = new Room(scan, subject.realm());
        if (room.mine < room.most) {
            // max-min fairness: a realm holding fewer entries here than the most present one takes the place of
            // one of that realm's entries (that realm is over its share: it alone gives way)
            target = room.victimOf(room.mostRealm, policy);
            if (policy == Slots.Policy.PROTECTIVE) {
                // a protective entry is never dropped while its realm has a shared counter or there is room for
                // one: its count goes there, over-counted, never lost
                foldInto = room.sharedOf(room.mostRealm);
                if (foldInto >= 0) {
                    int kind = SlotFormat.kind(scan.slot[target + SlotFormat.E_META]);
                    merged = EntryCodec.of(kind).merge(value(scan.slot, foldInto), value(scan.slot, target), scan.now);
                } else {
                    movedOut = scan.sharedLive < table.ways();
                }
            }
        } else if (policy == Slots.Policy.USED) {
            next = null; // a realm at its share is refused before another realm is
        } else {
            int own = policy == Slots.Policy.CHEAP ? room.replaceable(subject.realm()) : -1;
            if (own >= 0) {
                target = own; // replaced: the entry was worth at most one attempt to its owner
            } else {
                onShared = true;
                // the realm's own shared counter, if the slot's room for shared counters has a place
                homeless = scan.sharedLive >= table.ways();
            }
        }
    }
}
