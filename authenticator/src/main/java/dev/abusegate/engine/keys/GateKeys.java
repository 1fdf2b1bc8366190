package dev.abusegate.engine.keys;

import dev.abusegate.engine.config.Layer;
import java.security.MessageDigest;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Derives the counter keys for an attempt. Keys start with the realm, so realms never share a counter.
 * Identifiers are normalized (trim, NFKC, lower case in the root locale, capped) and then hashed with
 * HMAC-SHA256 (the JDK's), cut to 128 bits, under a key derived once per realm from the realm's secret; an address
 * stays as its bits (IPv6 cut to its prefix), and so does an address with an identifier's keyed tag (layer
 * 2's pair) when the address fits in 64 bits. Key derivation allocates little and hashes once per
 * identifier: it runs on every login attempt.
 */
public final class GateKeys {

    /** Identifiers longer than this (in chars, after normalization) are cut. */
    public static final int MAX_IDENTIFIER_LENGTH = 255;
    /** Raw input beyond this is not even looked at: bounds the cost of normalizing hostile input. */
    static final int MAX_RAW_LENGTH = 4 * MAX_IDENTIFIER_LENGTH;

    private final SecretSource secrets;
    private final Map<String, RealmHasher> hashers = new ConcurrentHashMap<>();

    public GateKeys(SecretSource secrets) {
        this.secrets = secrets;
    }

    /** Trim, Unicode NFKC, lower case (root locale), capped. Null becomes the empty string. */
    public static String normalizeIdentifier(String raw) {
        if (raw == null) {
            return "";
        }
        // Skip leading whitespace (what String.trim drops, as Keycloak does before the user lookup) before
        // capping, so padding cannot push the real name out of the capped window.
        int start = 0;
        while (start < raw.length() && raw.charAt(start) <= ' ') {
            start++;
        }
        String s = raw.length() - start > MAX_RAW_LENGTH ? raw.substring(start, start + MAX_RAW_LENGTH) : raw.substring(start);
        s = s.trim();
        if (!Normalizer.isNormalized(s, Normalizer.Form.NFKC)) {
            s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        }
        s = s.toLowerCase(Locale.ROOT).trim();
        if (s.length() > MAX_IDENTIFIER_LENGTH) {
            int end = MAX_IDENTIFIER_LENGTH;
            if (Character.isHighSurrogate(s.charAt(end - 1))) {
                end--;
            }
            s = s.substring(0, end);
        }
        return s;
    }

    /**
     * {@link #normalizeIdentifier} in UTF-8 for the common case, an identifier in ASCII: every step but the
     * lower case leaves ASCII as it is (NFKC does not change it), so one pass does them all. Null when the
     * trimmed identifier has a character outside ASCII (then the general path runs).
     */
    static byte[] normalizedAscii(String raw) {
        if (raw == null) {
            return null;
        }
        int start = 0;
        while (start < raw.length() && raw.charAt(start) <= ' ') {
            start++;
        }
        int end = Math.min(raw.length(), start + MAX_RAW_LENGTH);
        while (end > start && raw.charAt(end - 1) <= ' ') {
            end--;
        }
        byte[] out = new byte[Math.min(end - start, MAX_IDENTIFIER_LENGTH)];
        for (int i = start; i < end; i++) {
            char c = raw.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            if (i - start < out.length) {
                out[i - start] = (byte) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
            }
        }
        return out;
    }

    public AttemptKeys forAttempt(String realm, String address, String identifier, int ipv6PrefixLength) {
        return forAttempt(realm, address, identifier, ipv6PrefixLength, 0);
    }

    /** Everything the layers need for one attempt, with its IPv6 network's key ({@code ipv6NetworkPrefixLength} 0: none). */
    public AttemptKeys forAttempt(Attempt attempt, int ipv6PrefixLength, int ipv6NetworkPrefixLength) {
        return forAttempt(attempt.realm(), attempt.address(), attempt.identifier(), ipv6PrefixLength, ipv6NetworkPrefixLength);
    }

    /**
     * As {@link #forAttempt(String, String, String, int)}, and for an IPv6 address cut to a longer prefix than
     * {@code ipv6NetworkPrefixLength} (0: none) the key of its network ({@link AttemptKeys#network()}): an address entry
     * too, of the network's shape, so it is never the same entry as an address's.
     */
    public AttemptKeys forAttempt(String realm, String address, String identifier, int ipv6PrefixLength, int ipv6NetworkPrefixLength) {
        RealmHasher h = hasher(realm);
        long[] id = h.identifier(identifier);
        AddressKeys.Parsed a = AddressKeys.parse(address, ipv6PrefixLength);
        CounterKey ip;
        CounterKey network = null;
        if (a != null) {
            ip = new CounterKey(h.tag, CounterKey.Kind.ADDRESS, a.shape(), a.hi(), a.lo());
            AddressKeys.Parsed n = ipv6NetworkPrefixLength == 0 ? null : AddressKeys.network(a, ipv6NetworkPrefixLength);
            if (n != null) {
                network = new CounterKey(h.tag, CounterKey.Kind.ADDRESS, n.shape(), n.hi(), n.lo());
            }
        } else {
            // Not an IP literal: keyed as itself (hashed, so the key stays short and printable), never as "everyone".
            String raw = address == null ? "" : address;
            if (raw.length() > MAX_RAW_LENGTH) {
                raw = raw.substring(0, MAX_RAW_LENGTH);
            }
            long[] t = h.hash("addr:" + raw);
            ip = h.key(CounterKey.Kind.ADDRESS, t[0], t[1]);
        }
        return new AttemptKeys(ip, network, pairKey(h, ip, id[0]), h.key(CounterKey.Kind.ACCOUNT, id[0], id[1]),
                new AttemptKeys.Identifier(id[0], id[1], h));
    }

    /** Layer 3's entry of an identifier (another login name of an account, say). */
    public CounterKey account(String realm, String identifier) {
        RealmHasher h = hasher(realm);
        long[] id = h.identifier(identifier);
        return h.key(CounterKey.Kind.ACCOUNT, id[0], id[1]);
    }

    /** The entry that remembers a captcha solution, for the first 16 bytes of its digest. */
    public static CounterKey used(String realm, byte[] digest) {
        return CounterKey.ofDigest(realm, CounterKey.Kind.USED, digest);
    }

    /** The keyed tag of an identifier (what device cookies bind to): never the identifier itself. */
    public String identifierTag(String realm, String identifier) {
        long[] id = hasher(realm).identifier(identifier);
        return CounterKey.base64Url(id[0], id[1]);
    }

    /** The IPv6 network the realm layer counts as one (IPv4: a /24). */
    public static final int CROWD_IPV6_PREFIX = 48;

    /** The high word of a password bucket's key ({@link Keys#passwordBucket}): "spray/v1". */
    private static final long SPRAY_DOMAIN = 0x73707261_792f7631L;

    /** Separates pair tags from every other use of the realm's key; the low byte takes the address shape. */
    private static final long PAIR_DOMAIN = 0x70616972_2f763100L; // "pair/v1" and a byte for the shape

    /**
     * Layer 2's key: the address with the identifier's keyed tag. When the address fits in 64 bits (IPv4, or
     * IPv6 cut to a prefix of at most /64) the key is the address itself and the tag's first 56 bits, with the
     * address's shape in the low byte: exact, and no hash to compute on every attempt. Two identifiers share
     * those 56 bits by chance once in 2^56. Otherwise (a longer prefix, or an address keyed as its hash) the
     * key is a keyed hash of all of it, on the tag's first 64 bits.
     */
    private static CounterKey pairKey(RealmHasher h, CounterKey ip, long idTag) {
        int shape = ip.shape();
        // IPv4 is the low word (the high one is 0); an IPv6 prefix of at most /64 the high word (the low one is 0)
        if (shape == CounterKey.IPV4 || shape >= CounterKey.IPV6 && shape <= CounterKey.IPV6 + 64) {
            return h.key(CounterKey.Kind.PAIR, shape == CounterKey.IPV4 ? ip.lo() : ip.hi(), idTag & ~0xFFL | shape);
        }
        long[] pair = h.hashWords(PAIR_DOMAIN | shape, ip.hi(), ip.lo(), idTag);
        return h.key(CounterKey.Kind.PAIR, pair[0], pair[1]);
    }

    private RealmHasher hasher(String realm) {
        byte[] secret = secrets.secretFor(realm);
        if (secret == null || secret.length == 0) {
            throw new IllegalStateException("no identifier-hashing secret for realm " + realm);
        }
        RealmHasher h = hashers.get(realm);
        if (h == null || h.source != secret && !MessageDigest.isEqual(h.secret, secret)) {
            h = new RealmHasher(realm, secret);
            hashers.put(realm, h);
        }
        return h;
    }
}
