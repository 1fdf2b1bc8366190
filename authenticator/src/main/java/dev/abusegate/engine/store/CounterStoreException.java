package dev.abusegate.engine.store;

/** Thrown by a {@link CounterStore} that cannot answer. The store never decides; the layer's policy does. */
public class CounterStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CounterStoreException(String message) {
        super(message);
    }

    public CounterStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
