package dev.abusegate.engine.time;

/** The gate's clock, in milliseconds. Tests pass one they can move. */
@FunctionalInterface
public interface TimeSource {
    long millis();

    TimeSource SYSTEM = System::currentTimeMillis;
}
