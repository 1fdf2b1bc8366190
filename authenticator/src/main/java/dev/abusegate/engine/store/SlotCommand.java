package dev.abusegate.engine.store;

import java.util.Arrays;

/**
 * One command on one slot, as a clustered store sends it to the slot's owner: a {@link Change} for a subject
 * ({@link Slots#apply}), or the removal of the subject's exact entry ({@link Slots#remove}). It travels as bytes
 * (a type every Infinispan marshaller handles without a schema): {@code [realm, hi, lo, shape, kind << 32 | policy
 * << 16 | ways, ttl, change words...]}, the change's words in {@link StoreCodec}'s format (none for a removal).
 *
 * @param change null for a removal
 */
public record SlotCommand(Subject subject, Change change, long ttl, TableShape table) {

    private static final int HEADER = 6;
    private static final Slots.Policy[] POLICIES = Slots.Policy.values();

    /** The removal of {@code subject}'s exact entry. */
    public static SlotCommand removal(Subject subject) {
        return new SlotCommand(subject, null, 0, new TableShape(1, Slots.Policy.CHEAP));
    }

    /** The command as the bytes a store sends. */
    public byte[] toBytes() {
        long[] c = change == null ? new long[0] : StoreCodec.encode(change);
        long[] w = new long[HEADER + c.length];
        w[0] = subject.realm();
        w[1] = subject.hi();
        w[2] = subject.lo();
        w[3] = subject.shape();
        w[4] = (long) subject.kind() << 32 | (long) table.policy().ordinal() << 16 | table.ways();
        w[5] = ttl;
        System.arraycopy(c, 0, w, HEADER, c.length);
        return StoreCodec.toBytes(w);
    }

    /** The command in sent bytes; refuses a change of a format this node does not read ({@link StoreFormatException}). */
    public static SlotCommand fromBytes(byte[] bytes) {
        long[] w = StoreCodec.fromBytes(bytes);
        if (w == null || w.length < HEADER) {
            throw new StoreFormatException("not a slot command");
        }
        Subject s = new Subject(w[0], (int) (w[4] >>> 32), (int) w[3], w[1], w[2]);
        TableShape table = new TableShape((int) w[4] & 0xFFFF, POLICIES[(int) (w[4] >>> 16) & 0xFFFF]);
        Change change = w.length == HEADER ? null : StoreCodec.decode(Arrays.copyOfRange(w, HEADER, w.length));
        return new SlotCommand(s, change, w[5], table);
    }

    /** The slot after this command (null: nothing left); {@code slot} itself is never modified. */
    public long[] applyTo(long[] slot) {
        return change == null ? Slots.remove(slot, subject) : Slots.apply(slot, subject, change, ttl, table);
    }
}
