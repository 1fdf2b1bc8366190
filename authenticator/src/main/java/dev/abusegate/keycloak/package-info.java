/**
 * The Keycloak side of the gate: adapts Keycloak's forms, events, Infinispan and themes to the engine
 * ({@code dev.abusegate.engine}). This package holds the pieces the whole server shares: the realms' derived keys ({@link
 * dev.abusegate.keycloak.RealmSecrets}), the settings ({@link dev.abusegate.keycloak.GateConfig}) and the limiter of
 * warnings ({@link dev.abusegate.keycloak.Warnings}). The rooms:
 * <ul>
 *   <li>{@code steps}: the gated flow steps and their one shape ({@link dev.abusegate.keycloak.steps.GatedAttempt});
 *       a new gated step goes here;</li>
 *   <li>{@code answer}: what a client is answered (the 429 page and JSON, the missing-password answer, texts);</li>
 *   <li>{@code events}: what operators see (login events, metrics);</li>
 *   <li>{@code captcha}: the captcha integration (verification, widget, budgets);</li>
 *   <li>{@code admin}: the admin REST resource, the realm tab and the password-coverage check;</li>
 *   <li>{@code runtime}: what the server keeps for its life ({@link dev.abusegate.keycloak.runtime.GateRuntime}),
 *       built once by the store's factory and handed by the factories of the steps and of the admin resource to
 *       what they create;</li>
 *   <li>{@code store}: the counter store SPI and its Infinispan provider, whose factory owns the runtime.</li>
 * </ul>
 */
package dev.abusegate.keycloak;
