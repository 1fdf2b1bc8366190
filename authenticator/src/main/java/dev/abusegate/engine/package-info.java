/**
 * The gate's decision, in plain Java (no Keycloak or Infinispan types), read along a login's timeline.
 * {@link dev.abusegate.engine.AbuseGate} is the one entry point; behind it, one class per moment:
 * <ol>
 *   <li>{@code Admission} (with {@code AdmissionCounts}): before any user lookup, layers 1, 2 and 4, the IPv6
 *       network and the realm layer, giving a {@link dev.abusegate.engine.Decision};</li>
 *   <li>{@code LockoutReservation}: layer 3's reservation, held in the decision's opaque
 *       {@link dev.abusegate.engine.Reservation};</li>
 *   <li>{@code PasswordSettlement}: after Keycloak's check, a failed, a succeeded or a not-verified attempt;</li>
 *   <li>{@code CaptchaRecords}: solved captchas, each usable once;</li>
 *   <li>{@code SubjectView}: what an admin sees of a subject, and clears.</li>
 * </ol>
 * Below them, packages that never import this one: {@code config} (what can be tuned, and the layers' names),
 * {@code keys} (what a subject is counted under, and the keyed hashes that name it), {@code store} (the port the
 * counters live behind and the changes applied to them), {@code realm} (the realm-wide layer: the realm's failure
 * tallies, shared between nodes, and when they mean "under attack") and {@code time} (the clock).
 */
package dev.abusegate.engine;
