package dev.abusegate.engine.store;

/**
 * A change written in a format this node does not speak ({@link StoreCodec#FORMAT}): sent by a node of another
 * version during a rolling upgrade. It is refused, never misread; the layer's failure mode decides the attempt.
 */
public class StoreFormatException extends CounterStoreException {

    public StoreFormatException(String message) {
        super(message);
    }
}
