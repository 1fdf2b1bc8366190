/**
 * Integration-test harness: a real Keycloak ({@link dev.abusegate.it.support.KeycloakServer}, the distribution as a
 * process or the official image), the test base class {@link dev.abusegate.it.support.ServerTest}, realms
 * ({@link dev.abusegate.it.support.RealmBuilder}), clients with X-Forwarded-For, and the gate's own views. How to use
 * it, with an example class: docs/integration-tests.md, "Writing an IT". Only 127.0.0.1 is contacted; use
 * documentation address ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) in X-Forwarded-For.
 */
package dev.abusegate.it.support;
