package dev.abusegate.engine.keys;

/**
 * Supplies the secret that identifiers are hashed with, per realm. Identifiers are never stored in
 * the clear: every key that names one uses a keyed hash, so a dump of the counter store cannot be
 * reversed with a dictionary without this secret. All nodes of a cluster must see the same secret.
 *
 * <p>The gate derives its hashing key from the secret once and asks again on every attempt. Returning the
 * same array again is the cheap way to say "unchanged"; a changed secret must come in a new array (or
 * at least with different contents), never as the old array changed in place.
 */
@FunctionalInterface
public interface SecretSource {
    byte[] secretFor(String realm);
}
