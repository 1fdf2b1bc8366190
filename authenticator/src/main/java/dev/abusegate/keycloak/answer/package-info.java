/** What a client is answered when the gate, not Keycloak, decides: the 429 page and JSON, the missing-password answer. */
package dev.abusegate.keycloak.answer;
