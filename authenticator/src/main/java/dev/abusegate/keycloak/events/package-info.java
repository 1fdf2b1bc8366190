/** What operators see of the gate: Keycloak login events and Micrometer counters, never an identifier or an address. */
package dev.abusegate.keycloak.events;
