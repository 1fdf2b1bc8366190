/**
 * What the gate can be tuned with: each setting described once (key, default, bounds, help text, parser), the
 * reader of saved configurations, the validated options and the layers' policies.
 */
package dev.abusegate.engine.config;
