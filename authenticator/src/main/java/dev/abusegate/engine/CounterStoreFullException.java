package dev.abusegate.engine;

/**
 * The store is at its bound and would have had to create an entry. The layer concerned follows its failure
 * mode, as for any other store failure, and the outage is reported as a capacity problem.
 */
public class CounterStoreFullException extends CounterStoreException {

    public CounterStoreFullException(String message) {
        super(message);
    }
}
