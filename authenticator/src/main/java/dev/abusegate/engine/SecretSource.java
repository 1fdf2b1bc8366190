package dev.abusegate.engine;

/**
 * Supplies the secret that identifiers are hashed with, per realm. Identifiers are never stored in
 * the clear: every key that names one uses a keyed hash, so a dump of the counter store cannot be
 * reversed with a dictionary without this secret. All nodes of a cluster must see the same secret.
 */
@FunctionalInterface
public interface SecretSource {
    byte[] secretFor(String realm);
}
