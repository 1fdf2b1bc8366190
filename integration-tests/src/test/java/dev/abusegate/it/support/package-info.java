/**
 * The IT harness: {@link dev.abusegate.it.support.KeycloakServer}, {@link dev.abusegate.it.support.ServerTest}, realms,
 * clients and the gate's views; only 127.0.0.1 is contacted (docs/integration-tests.md, "Writing an IT").
 */
package dev.abusegate.it.support;
