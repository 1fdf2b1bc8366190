/**
 * The gate's decision, in plain Java (no Keycloak or Infinispan types): {@link dev.abusegate.engine.AbuseGate} runs
 * the four layers (and, when a realm turns it on, the fifth, realm-wide one) for an
 * {@link dev.abusegate.engine.Attempt} and settles it after the password check. Its parts: {@code config} (what can
 * be tuned), {@code keys} (what a subject is counted under, and the keyed hashes that name it), {@code store} (the
 * port the counters live behind and the changes applied to them), {@code realm} (the realm-wide layer: the realm's
 * failure tallies, shared between nodes, and when they mean "under attack").
 */
package dev.abusegate.engine;
