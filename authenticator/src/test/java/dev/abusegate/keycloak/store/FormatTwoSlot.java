package dev.abusegate.keycloak.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: a slot as release 1.0.0 wrote it (format 2), word for word, without the store's own code. Copied
 * from that release's writers (Slots.apply's layout, LockoutEntry.encode, AddressEntry.encode,
 * StoreCodec.toBytes), reduced to what the upgrade test writes, so that a change of today's writers cannot change
 * what the test calls "the previous format".
 */
final class FormatTwoSlot {

    private static final long FORMAT = 2;
    private final long realm;
    private final List<long[]> entries = new ArrayList<>();

    FormatTwoSlot(long realm) {
        this.realm = realm;
    }

    /** An account's entry: {@code [answer, taken << 32 | confirmed, expiry, lockedUntil, run << 48 | runExpiry]}. */
    FormatTwoSlot lockout(long[] subject, long[] counts, long expiry) {
        long taken = counts[0];
        long confirmed = counts[1];
        long lockedUntil = counts[2];
        return entry(subject, expiry, new long[] {0, taken << 32 | confirmed & 0xFFFF_FFFFL, expiry, lockedUntil, 0});
    }

    /** An address's entry without identifiers: {@code [answer, attempts, attemptsExpiry, idsExpiry, 0, 0]}. */
    FormatTwoSlot address(long[] subject, long attempts, long expiry) {
        return entry(subject, expiry, new long[] {1 | 1 << 5, attempts, expiry, 0, 0, 0});
    }

    /** {@code subject} is {@code [kind, shape, hi, lo]}; an entry is {@code [realm, meta, hi, lo, expiry, value...]}. */
    private FormatTwoSlot entry(long[] subject, long expiry, long[] value) {
        long meta = subject[0] << 40 | (subject[1] & 0xff) << 32 | value.length;
        long[] e = new long[5 + value.length];
        e[0] = realm;
        e[1] = meta;
        e[2] = subject[2];
        e[3] = subject[3];
        e[4] = expiry;
        System.arraycopy(value, 0, e, 5, value.length);
        entries.add(e);
        return this;
    }

    /** The slot's words: {@code [format << 32 | realms << 24 | held << 16 | result, latestExpiry, entry...]}. */
    long[] words() {
        int size = 2;
        long latest = 0;
        for (long[] e : entries) {
            size += e.length;
            latest = Math.max(latest, e[4]);
        }
        long[] out = new long[size];
        int w = 2;
        int last = 0;
        for (long[] e : entries) {
            System.arraycopy(e, 0, out, w, e.length);
            last = w;
            w += e.length;
        }
        out[0] = FORMAT << 32 | 1L << 24 | (long) entries.size() << 16 | last;
        out[1] = latest;
        return out;
    }

    /** The slot as a clustered cache holds it: its words big-endian. */
    byte[] bytes() {
        long[] v = words();
        byte[] out = new byte[v.length * 8];
        for (int i = 0; i < v.length; i++) {
            long x = v[i];
            for (int j = 7; j >= 0; j--) {
                out[i * 8 + j] = (byte) x;
                x >>>= 8;
            }
        }
        return out;
    }
}
