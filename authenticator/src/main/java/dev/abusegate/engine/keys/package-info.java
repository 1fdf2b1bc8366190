/**
 * What a subject is counted under: addresses as bits, identifiers and pairs as keyed 128-bit tags, device tokens,
 * and the one keyed hash they are all derived with. No raw identifier leaves this package.
 */
package dev.abusegate.engine.keys;
