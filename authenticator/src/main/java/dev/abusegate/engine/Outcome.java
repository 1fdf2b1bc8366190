package dev.abusegate.engine;

/**
 * What the gate answers for one login attempt. One word per idea: an <em>outcome</em> is an answer (this one the
 * gate's for an attempt; {@link dev.abusegate.engine.store.LayerOutcome} one layer's for one store change;
 * {@link dev.abusegate.engine.store.FailureOutcome} a wrong password's), and a {@link Decision} is the gate's
 * outcome with its reasons (the layer that decided, the layers that failed or were degraded, what settlement needs).
 */
public enum Outcome {
    /** The attempt may go on to the password check. */
    ALLOW("allow"),
    /** The attempt is in the captcha band and carried no valid solution. Nothing was counted. */
    CAPTCHA_REQUIRED("captcha_required"),
    /** A layer is past its threshold, or failed closed. */
    BLOCKED("blocked");

    private final String code;

    Outcome(String code) {
        this.code = code;
    }

    /** The stable, machine-readable code shown to clients ({@code blocked}, {@code captcha_required}). */
    public String code() {
        return code;
    }
}
