package dev.abusegate.engine.config;

/** What a layer does when the counter store cannot answer. */
public enum FailureMode {
    /** The layer passes; the outage is reported as {@code counter_store_unavailable}. */
    FAIL_OPEN,
    /** The attempt is blocked, indistinguishable from a real block. */
    FAIL_CLOSED
}
