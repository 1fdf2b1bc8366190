/**
 * The Keycloak side of the gate: adapts Keycloak's forms, events, Infinispan and themes to the engine
 * ({@code dev.abusegate.engine}). This package holds what the whole server shares: {@link dev.abusegate.keycloak.GateRuntime}
 * (built once by the store's factory, handed to every request), the realms' derived keys ({@link
 * dev.abusegate.keycloak.RealmSecrets}) and the settings ({@link dev.abusegate.keycloak.GateConfig}). The rooms:
 * <ul>
 *   <li>{@code steps}: the gated flow steps and their one shape ({@link dev.abusegate.keycloak.steps.GatedAttempt});
 *       a new gated step goes here;</li>
 *   <li>{@code answer}: what a client is answered (the 429 page and JSON, the missing-password answer, texts);</li>
 *   <li>{@code events}: what operators see (login events, metrics);</li>
 *   <li>{@code captcha}: the captcha integration (verification, widget, budgets);</li>
 *   <li>{@code admin}: the admin REST resource, the realm tab and the password-coverage check;</li>
 *   <li>{@code store}: the counter store SPI and its Infinispan provider.</li>
 * </ul>
 */
package dev.abusegate.keycloak;
