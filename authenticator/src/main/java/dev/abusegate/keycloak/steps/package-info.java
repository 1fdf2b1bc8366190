/**
 * The gated flow steps: Keycloak's own password steps with the gate in front. Every step has one shape: a per-request
 * {@link dev.abusegate.keycloak.steps.GatedAttempt} and the step's hooks ({@link dev.abusegate.keycloak.steps.GatedForm}
 * for login forms, {@link dev.abusegate.keycloak.steps.GatedHttpBasicStep} for HTTP Basic). Provider ids are public
 * interface: never change one.
 */
package dev.abusegate.keycloak.steps;
