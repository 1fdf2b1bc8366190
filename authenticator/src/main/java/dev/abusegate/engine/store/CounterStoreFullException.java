package dev.abusegate.engine.store;

/**
 * The store had no room for a new entry and could not count it on a shared counter: a used-captcha record when
 * its table is full (the solution then counts as unsolved), or a store that answers "no entry" where a change
 * must create one. The store has not failed; callers treat it toward caution.
 */
public class CounterStoreFullException extends CounterStoreException {

    public CounterStoreFullException(String message) {
        super(message);
    }
}
