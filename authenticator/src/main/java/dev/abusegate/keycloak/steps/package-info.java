/**
 * The gated flow steps: Keycloak's own password steps with the gate in front. Every step has one shape: a per-request
 * {@link dev.abusegate.keycloak.steps.GatedAttempt} and the step's hooks ({@link dev.abusegate.keycloak.steps.GatedForm}
 * for login forms, {@link dev.abusegate.keycloak.steps.GatedHttpBasicStep} for HTTP Basic). Provider ids are public
 * interface: never change one.
 *
 * <p>A new gated step is its class with those hooks and its factory (a form's extends
 * {@link dev.abusegate.keycloak.steps.GatedFormFactory}; a step that reads the request is its own), listed in
 * {@code META-INF/services/org.keycloak.authentication.AuthenticatorFactory}, as Keycloak registers any step. The
 * factory names the Keycloak password step it stands in for
 * ({@link dev.abusegate.keycloak.steps.GatedStepFactory#replacedPasswordStep()}), and the realm's password coverage
 * reads that from every registered gated step.
 */
package dev.abusegate.keycloak.steps;
