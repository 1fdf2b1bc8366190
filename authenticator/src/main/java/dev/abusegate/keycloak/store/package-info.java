/**
 * Where the gate keeps its counters: the SPI {@code abuse-gate-store} and its Infinispan provider, whose factory
 * builds the server's one {@link dev.abusegate.keycloak.GateRuntime} and hands it to each request.
 */
package dev.abusegate.keycloak.store;
