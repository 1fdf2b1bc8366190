package dev.abusegate.keycloak.runtime;

import java.util.concurrent.Semaphore;

/**
 * Where the gated steps' password checks wait their turn, first come first served: at most one check per CPU core at
 * a time, the concurrency Keycloak's own Argon2 hashing allows (its {@code cpuCores}, by default the cores). A check
 * would wait that long anyway, inside Keycloak's hashing; waiting here instead means that an attempt let through just
 * before its realm entered "under attack" is looked at again when its turn comes, before any lookup or hash, and
 * answered with the realm's captcha like every attempt after it (see {@code GatedAttempt#realmEnteredMeanwhile}).
 * Without it, every attempt already past the gate at that moment (up to Keycloak's worker threads) is hashed.
 */
public final class PasswordCheckQueue {

    /** A turn to check a password: closing it lets the next check in. */
    public interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /** The turn of a check that does not wait (it holds nothing). */
    public static final Turn NO_WAIT = () -> { };

    private final Semaphore turns;

    /** A queue letting {@code checks} password checks run at once. */
    public PasswordCheckQueue(int checks) {
        if (checks < 1) {
            throw new IllegalArgumentException("at least one check at a time, was " + checks);
        }
        this.turns = new Semaphore(checks, true);
    }

    /** Waits for a turn (first come, first served); the caller closes it when its check is done. */
    public Turn take() {
        turns.acquireUninterruptibly();
        return turns::release;
    }
}
