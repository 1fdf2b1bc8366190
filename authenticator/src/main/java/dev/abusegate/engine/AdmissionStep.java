package dev.abusegate.engine;

import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.keys.AttemptKeys;

/**
 * What each step of one attempt's admission works with.
 *
 * @param call    the store as this attempt uses it, with what went wrong
 * @param options the realm's options
 * @param keys    the attempt's keys
 * @param now     the attempt's time
 */
record AdmissionStep(StoreCall call, GateOptions options, AttemptKeys keys, long now) {
}
