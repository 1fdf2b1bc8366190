package dev.abusegate.engine;

import java.util.function.BooleanSupplier;

/** An attempt's captcha solution: verified once, and only when the answer depends on it. */
final class LazyCaptcha {

    private boolean solved;
    private BooleanSupplier check;

    /** {@code check} verifies the solution; null: no solution came with the attempt. */
    LazyCaptcha(BooleanSupplier check) {
        this.check = check;
    }

    /** Whether the solution was verified so far, without verifying it. */
    boolean solved() {
        return solved;
    }

    /** Verifies the solution (at most once) and says whether it holds. */
    boolean check() {
        if (!solved && check != null) {
            BooleanSupplier c = check;
            check = null;
            solved = c.getAsBoolean();
        }
        return solved;
    }
}
