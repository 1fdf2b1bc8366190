package dev.abusegate.engine.keys;

import java.util.Objects;

/**
 * The keys of one attempt. {@link #member()} is the identifier's 64-bit tag in the distinct set,
 * {@link #identifierTag()} its keyed 128-bit tag.
 */
public final class AttemptKeys {

    /** Separates the realm layer's network tags from every other use of the realm's key; the low byte takes the shape. */
    private static final long CROWD_DOMAIN = 0x63726f77_642f7600L; // "crowd/v" and a byte for the shape
    /** The high word of a password bucket's key ({@link #passwordBucket}): "spray/v1". */
    private static final long SPRAY_DOMAIN = 0x73707261_792f7631L;

    private final CounterKey address;
    private final CounterKey network;
    private final CounterKey pair;
    private final CounterKey lockout;
    private final boolean device;
    private final Identifier id;

    /** The identifier's keyed 128-bit tag, and the realm's hasher that made it (for the keys derived later). */
    record Identifier(long hi, long lo, RealmHasher hasher) {
    }

    AttemptKeys(CounterKey address, CounterKey network, CounterKey pair, CounterKey lockout, Identifier id) {
        this.address = address;
        this.network = network;
        this.pair = pair;
        this.lockout = lockout;
        this.device = false;
        this.id = id;
    }

    /** {@code keys} with layer 3 counted against a device's own entry. */
    private AttemptKeys(AttemptKeys keys, CounterKey deviceLockout) {
        this.address = keys.address;
        this.network = keys.network;
        this.pair = keys.pair;
        this.lockout = deviceLockout;
        this.device = true;
        this.id = keys.id;
    }

    /** Layers 1 and 4: the address's entry. */
    public CounterKey address() {
        return address;
    }

    /** Layer 1 for an IPv6 address: its network's entry; null for IPv4, or when networks are not counted. */
    public CounterKey network() {
        return network;
    }

    /** Layer 2: the address and identifier's entry. */
    public CounterKey pair() {
        return pair;
    }

    /** Layer 3: the identifier's entry, or a known device's own one (see {@link #forDevice}). */
    public CounterKey lockout() {
        return lockout;
    }

    /**
     * The keyed 64-bit tag of the address's network as the realm layer counts networks: an IPv4 address's /24, an
     * IPv6 address's /48 (or its own prefix when that is shorter). Every address that is not an IP literal has the
     * same tag, so text that is no address never makes a network of its own. Never the address itself: a keyed
     * hash under the realm's key, the same on every node.
     */
    public long crowdNetwork() {
        int shape = address.shape();
        long hi;
        long lo;
        if (shape == CounterKey.IPV4) {
            hi = 0;
            lo = address.lo() & ~0xFFL;
        } else if (shape >= CounterKey.IPV6) {
            AddressKeys.Parsed n = AddressKeys.network(new AddressKeys.Parsed(shape, address.hi(), address.lo()), GateKeys.CROWD_IPV6_PREFIX);
            hi = n == null ? address.hi() : n.hi();
            lo = n == null ? address.lo() : n.lo();
            shape = n == null ? shape : n.shape();
        } else {
            shape = CounterKey.OPAQUE;
            hi = 0;
            lo = 0;
        }
        return id.hasher().hashWords(CROWD_DOMAIN | shape, hi, lo)[0];
    }

    /**
     * The password-spray layer's entry of a password bucket in this realm: an address entry whose subject is the
     * bucket (at most 20 bits) under a fixed word, of the keyed shape, so it is never an address's entry.
     */
    public CounterKey passwordBucket(long bucket) {
        return id.hasher().key(CounterKey.Kind.BUCKET, SPRAY_DOMAIN, bucket);
    }

    /** Whether layer 3 counts against a device's own budget. */
    public boolean device() {
        return device;
    }

    /** The identifier's member in layer 4's set. */
    public long member() {
        return id.hi();
    }

    /** The identifier's keyed 128-bit tag, base64url: never the identifier itself. */
    public String identifierTag() {
        return CounterKey.base64Url(id.hi(), id.lo());
    }

    /**
     * Layer 3 counted against a device's own budget instead of the account's shared one: one budget per
     * device, whichever of the account's names is typed.
     */
    public AttemptKeys forDevice(String deviceId) {
        long[] t = id.hasher().hash("device:" + deviceId);
        return new AttemptKeys(this, id.hasher().key(CounterKey.Kind.DEVICE, t[0], t[1]));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AttemptKeys)) {
            return false;
        }
        AttemptKeys k = (AttemptKeys) o;
        return id.hi() == k.id.hi() && id.lo() == k.id.lo() && address.equals(k.address) && Objects.equals(network, k.network)
                && pair.equals(k.pair) && lockout.equals(k.lockout);
    }

    @Override
    public int hashCode() {
        return pair.hashCode() * 31 + lockout.hashCode();
    }

    @Override
    public String toString() {
        return "AttemptKeys[" + address + (network == null ? "" : ", " + network) + ", " + pair + ", " + lockout + "]";
    }
}
