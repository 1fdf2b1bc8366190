package dev.abusegate.engine.store;

import java.util.Arrays;

/**
 * The layout of a slot ({@code long[]}): {@code [format << 32 | realms << 24 | held << 16 | result, latestExpiry,
 * entry...]}, each entry {@code [realmTag, meta, hi, lo, expiry, value...]} with {@code meta = shared << 62 | kind
 * << 40 | shape << 32 | valueLength}. {@code format} is {@link Versions#CURRENT} when written; a slot is read when
 * its format is in {@link Versions}' range ({@link #readable}), else as absent. {@code result} is the offset of the
 * entry that holds the writing change's answer (0: none); {@code held} and {@code realms} are the writing realm's
 * exact entries in the slot and the realms holding any ({@link Slots#shareUse}).
 */
final class SlotFormat {

    static final int RESULT = 0;
    static final int LATEST = 1;
    static final int HEADER = 2;
    static final int E_REALM = 0;
    static final int E_META = 1;
    static final int E_HI = 2;
    static final int E_LO = 3;
    static final int E_EXP = 4;
    static final int E_VALUE = 5;
    static final long FORMAT_WORD = (long) Versions.CURRENT << 32;
    private static final long SHARED_META = 1L << 62;

    private SlotFormat() {
    }

    /** The format a slot was written in (0: a slot that carries no format number). */
    static int format(long[] slot) {
        return (int) (slot[RESULT] >>> 32);
    }

    /**
     * The slot as this node reads it: itself when of the current format, converted when of an older readable one,
     * null when there is none or it is of a format outside the range (read as absent, never misread).
     */
    static long[] readable(long[] slot) {
        if (slot == null || !Versions.readable(format(slot))) {
            return null;
        }
        // Each readable older format gets its conversion here; today the range holds the current format alone.
        return slot;
    }

    /** Whether a stored slot is of a format this node cannot read (null is no slot: false). */
    static boolean unreadable(long[] slot) {
        return slot != null && readable(slot) == null;
    }

    static int resultOffset(long[] slot) {
        return (int) slot[RESULT] & 0xFFFF;
    }

    static long meta(boolean shared, int kind, int shape, int length) {
        return (shared ? SHARED_META : 0) | (long) kind << 40 | (long) (shape & 0xff) << 32 | length;
    }

    static int length(long meta) {
        return (int) meta;
    }

    static boolean shared(long meta) {
        return (meta & SHARED_META) != 0;
    }

    static int kind(long meta) {
        return (int) (meta >>> 40) & 0xff;
    }

    /** The offset of the entry after the one at {@code o}. */
    static int after(long[] s, int o) {
        return o + E_VALUE + length(s[o + E_META]);
    }

    /** Whether the entry at {@code o} is realm {@code realm}'s shared counter of {@code kind}. */
    static boolean sameShared(long[] s, int o, long realm, int kind) {
        return shared(s[o + E_META]) && s[o + E_REALM] == realm && s[o + E_HI] == 0 && s[o + E_LO] == 0
                && (s[o + E_META] & ~0xFFFF_FFFFL) == (meta(true, kind, 0, 0) & ~0xFFFF_FFFFL);
    }

    /** Whether the entry at {@code o} is {@code subject}'s exact entry. */
    static boolean same(long[] s, int o, Subject subject) {
        return !shared(s[o + E_META]) && s[o + E_HI] == subject.hi() && s[o + E_LO] == subject.lo()
                && s[o + E_REALM] == subject.realm()
                && (s[o + E_META] & ~0xFFFF_FFFFL) == (meta(false, subject.kind(), subject.shape(), 0) & ~0xFFFF_FFFFL);
    }

    /** The value of the entry at {@code o} (a copy), or null for {@code o < 0}. */
    static long[] value(long[] slot, int o) {
        if (o < 0) {
            return null;
        }
        int len = length(slot[o + E_META]);
        return Arrays.copyOfRange(slot, o + E_VALUE, o + E_VALUE + len);
    }
}
