package dev.abusegate.engine.store;

/** Tests' shorthand for the changes whose parts the store groups: every part in one call, in the order it encodes. */
public final class TestChanges {

    private TestChanges() {
    }

    public static Change.Fail fail(long now, long threshold, long windowMillis, long lockBaseMillis, double progressiveFactor,
                                   long lockMaxMillis, long passwordTag, boolean rememberTypos, boolean reserved,
                                   boolean shared) {
        return new Change.Fail(now, new Change.Fail.LockRule(threshold, windowMillis, lockBaseMillis, progressiveFactor,
                lockMaxMillis), passwordTag, new Change.Fail.Counted(rememberTypos, reserved, shared));
    }

    public static Change.UndoAddress undoAddress(long now, boolean attempt, boolean removeMember, long member,
                                                 long attemptsExpiry, long idsExpiry) {
        return new Change.UndoAddress(now, new Change.UndoAddress.Given(attempt, removeMember, member), attemptsExpiry,
                idsExpiry);
    }
}
