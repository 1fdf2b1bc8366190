package dev.abusegate.keycloak.store;

import dev.abusegate.engine.CounterKey;

/**
 * How a LOCAL cache files an entry: the numbers that name it (the realm's 64-bit tag, the kind, the subject's
 * shape and its 128 bits), compared in place. A LOCAL cache never marshals its keys, so it needs no string;
 * this key is smaller than {@link CounterKey#storeKey()} (40 bytes against about 72) and comparing it reads no
 * second object. Clustered caches keep the string, which every node's marshaller knows.
 */
final class LocalKey {
    private final long realm;
    private final long hi;
    private final long lo;
    private final int kindAndShape;

    private LocalKey(long realm, long hi, long lo, int kindAndShape) {
        this.realm = realm;
        this.hi = hi;
        this.lo = lo;
        this.kindAndShape = kindAndShape;
    }

    static LocalKey of(CounterKey key) {
        return new LocalKey(key.realmTag(), key.hi(), key.lo(), key.kind().ordinal() << 8 | key.shape());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LocalKey)) {
            return false;
        }
        LocalKey k = (LocalKey) o;
        return hi == k.hi && lo == k.lo && realm == k.realm && kindAndShape == k.kindAndShape;
    }

    @Override
    public int hashCode() {
        long x = (hi * 0x9E3779B97F4A7C15L ^ lo) * 0xBF58476D1CE4E5B9L ^ realm + kindAndShape;
        return (int) (x ^ x >>> 32);
    }

    /** Names the entry without the subject (a key is never logged with what it counts). */
    @Override
    public String toString() {
        return "LocalKey[kind " + (kindAndShape >>> 8) + "]";
    }
}
