package dev.abusegate.engine;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** Store decorators for tests: one that dies (for chosen keys), one that counts writes. */
final class TestStores {

    private TestStores() {
    }

    /** A store that throws on every call whose key matches; other keys go to a working in-memory store. */
    static final class DeadStore implements CounterStore {
        private final CounterStore delegate = new InMemoryCounterStore();
        private final Predicate<String> dead;
        final AtomicInteger failures = new AtomicInteger();

        DeadStore(Predicate<String> dead) {
            this.dead = dead;
        }

        static DeadStore everywhere() {
            return new DeadStore(k -> true);
        }

        static DeadStore forKeys(Set<String> keys) {
            return new DeadStore(keys::contains);
        }

        private void check(String key) {
            if (dead.test(key)) {
                failures.incrementAndGet();
                throw new CounterStoreException("store is down (test)");
            }
        }

        @Override
        public long count(String key, long nowMillis) {
            check(key);
            return delegate.count(key, nowMillis);
        }

        @Override
        public long increment(String key, long windowMillis, long nowMillis) {
            check(key);
            return delegate.increment(key, windowMillis, nowMillis);
        }

        @Override
        public void decrement(String key, long windowMillis, long nowMillis) {
            check(key);
            delegate.decrement(key, windowMillis, nowMillis);
        }

        @Override
        public DistinctView distinct(String key, long member, long nowMillis) {
            check(key);
            return delegate.distinct(key, member, nowMillis);
        }

        @Override
        public DistinctView addDistinct(String key, long member, int cap, long windowMillis, long nowMillis) {
            check(key);
            return delegate.addDistinct(key, member, cap, windowMillis, nowMillis);
        }

        @Override
        public void lock(String key, long durationMillis, long nowMillis) {
            check(key);
            delegate.lock(key, durationMillis, nowMillis);
        }

        @Override
        public long lockRemainingMillis(String key, long nowMillis) {
            check(key);
            return delegate.lockRemainingMillis(key, nowMillis);
        }

        @Override
        public void clear(String key) {
            check(key);
            delegate.clear(key);
        }
    }

    /** Counts every call that could change state, then passes it on. */
    static final class WriteCountingStore implements CounterStore {
        private final CounterStore delegate;
        final AtomicInteger writes = new AtomicInteger();

        WriteCountingStore(CounterStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public long count(String key, long nowMillis) {
            return delegate.count(key, nowMillis);
        }

        @Override
        public long increment(String key, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            return delegate.increment(key, windowMillis, nowMillis);
        }

        @Override
        public void decrement(String key, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            delegate.decrement(key, windowMillis, nowMillis);
        }

        @Override
        public DistinctView distinct(String key, long member, long nowMillis) {
            return delegate.distinct(key, member, nowMillis);
        }

        @Override
        public DistinctView addDistinct(String key, long member, int cap, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            return delegate.addDistinct(key, member, cap, windowMillis, nowMillis);
        }

        @Override
        public void lock(String key, long durationMillis, long nowMillis) {
            writes.incrementAndGet();
            delegate.lock(key, durationMillis, nowMillis);
        }

        @Override
        public long lockRemainingMillis(String key, long nowMillis) {
            return delegate.lockRemainingMillis(key, nowMillis);
        }

        @Override
        public void clear(String key) {
            writes.incrementAndGet();
            delegate.clear(key);
        }
    }
}
