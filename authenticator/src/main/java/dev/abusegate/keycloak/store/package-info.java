/**
 * Where the gate keeps its counters: the SPI {@code abuse-gate-store} and its Infinispan provider, whose factory
 * builds the server's one {@link dev.abusegate.keycloak.runtime.GateRuntime} and hands it to the factories that ask for it.
 */
package dev.abusegate.keycloak.store;
