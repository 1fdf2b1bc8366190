package dev.abusegate.engine.config;

/** A gate option has a value the gate cannot work with. {@link #key()} names the configuration key. */
public class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String key;

    public InvalidOptionException(String key, String message) {
        super(key + ": " + message);
        this.key = key;
    }

    /** The configuration key at fault, e.g. {@code perIp.threshold}. */
    public String key() {
        return key;
    }
}
