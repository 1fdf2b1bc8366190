package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one warning per topic per period (a topic: a realm and layer and cause, say), so that a store that fails
 * on every login leaves one WARN a minute, not one per attempt. Bounded: past {@code maxTopics} topics it forgets them
 * all (each may then warn once more), so no sender can grow it.
 */
public final class WarnLimiter {

    private final TimeSource clock;
    private final long periodMillis;
    private final int maxTopics;
    private final Map<String, AtomicLong> last = new ConcurrentHashMap<>();

    public WarnLimiter(TimeSource clock, long periodMillis, int maxTopics) {
        if (periodMillis <= 0 || maxTopics <= 0) {
            throw new IllegalArgumentException("periodMillis and maxTopics must be positive");
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.periodMillis = periodMillis;
        this.maxTopics = maxTopics;
    }

    /** Whether a warning about {@code topic} is due now; true at most once per period per topic, across threads. */
    public boolean due(String topic) {
        AtomicLong at = last.get(topic);
        if (at == null) {
            if (last.size() >= maxTopics) {
                last.clear();
            }
            at = last.computeIfAbsent(topic, t -> new AtomicLong(Long.MIN_VALUE));
        }
        long now = clock.millis();
        long prev = at.get();
        return (prev == Long.MIN_VALUE || now - prev >= periodMillis) && at.compareAndSet(prev, now);
    }
}
