/**
 * What the server keeps for its life ({@link dev.abusegate.keycloak.runtime.GateRuntime}): built once by the store's
 * provider factory and handed, through the factories of the steps and of the admin resource, to what they create.
 */
package dev.abusegate.keycloak.runtime;
