package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand. Thread-safe so concurrency tests can share it. */
public final class MutableClock implements TimeSource {

    private final AtomicLong now;

    public MutableClock(long startMillis) {
        this.now = new AtomicLong(startMillis);
    }

    public MutableClock() {
        this(1_800_000_000_000L);
    }

    @Override
    public long millis() {
        return now.get();
    }

    public void advance(Duration d) {
        now.addAndGet(d.toMillis());
    }

    public void advanceSeconds(long seconds) {
        now.addAndGet(seconds * 1000L);
    }

    public void advanceMillis(long millis) {
        now.addAndGet(millis);
    }
}
