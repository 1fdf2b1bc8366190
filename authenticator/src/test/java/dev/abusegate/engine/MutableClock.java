package dev.abusegate.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand. Thread-safe so concurrency tests can share it. */
final class MutableClock implements TimeSource {

    private final AtomicLong now;

    MutableClock(long startMillis) {
        this.now = new AtomicLong(startMillis);
    }

    MutableClock() {
        this(1_800_000_000_000L);
    }

    @Override
    public long millis() {
        return now.get();
    }

    void advance(Duration d) {
        now.addAndGet(d.toMillis());
    }

    void advanceSeconds(long seconds) {
        now.addAndGet(seconds * 1000L);
    }

    void advanceMillis(long millis) {
        now.addAndGet(millis);
    }
}
