package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
/**
 * What the gate holds about an address (and an IPv6 address's network), an identifier and their pair, for operators. Each part is null when
 * it was not asked for. Remaining times are milliseconds until that part expires (0: nothing).
 */
public record SubjectState(Address address, Network network, Identifier identifier, Pair pair) {

    /** The parts an operator can clear. */
    public enum Part { ADDRESS, NETWORK, IDENTIFIER, PAIR }

    /** Layers 1 and 4 of an address. */
    public record Address(long attempts, long attemptsRemainingMillis, int distinctIdentifiers, long distinctRemainingMillis) {
    }

    /** Layer 1 of an IPv6 address's network (its count against the network threshold). */
    public record Network(long attempts, long attemptsRemainingMillis) {
    }

    /**
     * Layer 3 of an identifier: {@code taken} is the budget taken, confirmed failures plus attempts let through
     * whose password is still being checked; {@code lockRun} counts locks in a row (progressive lockout).
     */
    public record Identifier(long taken, long failures, long failuresRemainingMillis, long lockRemainingMillis, long lockRun) {
        public boolean locked() {
            return lockRemainingMillis > 0;
        }
    }

    /** Layer 2 of an address and identifier, and whether layer 4 holds the identifier for the address. */
    public record Pair(long attempts, boolean identifierSeenFromAddress, long remainingMillis) {
    }
}
