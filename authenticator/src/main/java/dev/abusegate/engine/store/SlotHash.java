package dev.abusegate.engine.store;

import dev.abusegate.engine.keys.CounterKey;

/**
 * Picks a key's slot in a bounded table ({@link Slots}): SipHash-2-4 of the key's numbers under a 128-bit table
 * key. Without the table key nobody can tell which keys share a slot, so a flood cannot be aimed at one subject's
 * slot; every node of a cluster uses the same table key, so every node picks the same slot.
 */
public final class SlotHash {

    /** SipHash's initial state under the table key: the key's two halves mixed with its four constants. */
    private final long[] start;

    public SlotHash(long k0, long k1) {
        start = new long[] {k0 ^ 0x736f6d6570736575L, k1 ^ 0x646f72616e646f6dL, k0 ^ 0x6c7967656e657261L,
                k1 ^ 0x7465646279746573L};
    }

    /** The slot of a key among {@code slots}, in {@code [0, slots)}. */
    public long slot(CounterKey key, long slots) {
        long h = hash(key.realmTag(), (long) key.kind().ordinal() << 8 | key.shape(), key.hi(), key.lo());
        return Long.remainderUnsigned(h, slots);
    }

    /** SipHash-2-4 of four words. */
    long hash(long m0, long m1, long m2, long m3) {
        long v0 = start[0];
        long v1 = start[1];
        long v2 = start[2];
        long v3 = start[3];
        long[] m = {m0, m1, m2, m3, 32L << 56};
        for (long w : m) {
            v3 ^= w;
            for (int r = 0; r < 2; r++) {
                v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
                v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
                v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
                v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            }
            v0 ^= w;
        }
        v2 ^= 0xff;
        for (int r = 0; r < 4; r++) {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
