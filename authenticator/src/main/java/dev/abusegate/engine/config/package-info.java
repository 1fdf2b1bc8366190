/** What the gate can be tuned with: each setting described once, the validated options, the layers' policies. */
package dev.abusegate.engine.config;
