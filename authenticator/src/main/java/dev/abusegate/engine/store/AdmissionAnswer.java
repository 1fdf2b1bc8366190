package dev.abusegate.engine.store;

/**
 * What an admission change ({@link Change.AdmitAddress}, {@link Change.AdmitPair}, {@link Change.Reserve})
 * answered, read from the value the store handed back.
 *
 * @param outcome         the counter's layer: 1 for an address, 2 for a pair, 3 for a reservation
 * @param identifiers     layer 4 (an address only; {@link LayerOutcome#OFF} otherwise)
 * @param identifierAdded layer 4's identifier was added by this change (an undo removes it again)
 * @param counted         the change counted (layers 1 and 4 count together or not at all)
 * @param shared          counted on a shared counter: the store had no room for the subject ({@link Slots})
 */
public record AdmissionAnswer(LayerOutcome outcome, LayerOutcome identifiers, boolean identifierAdded, boolean counted,
                              boolean shared) {

    /** The answer in a value the store handed back; null (no entry) is read as nothing answered. */
    public static AdmissionAnswer of(long[] value) {
        long a = value == null ? 0 : value[0];
        return new AdmissionAnswer(LayerOutcome.of(a), LayerOutcome.of(a >>> 2), (a & Answers.ADDED) != 0,
                (a & Answers.COUNTED) != 0, (a & Answers.SHARED) != 0);
    }
}
