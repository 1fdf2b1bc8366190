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
        private final Predicate<CounterKey> dead;
        final AtomicInteger failures = new AtomicInteger();

        DeadStore(Predicate<CounterKey> dead) {
            this.dead = dead;
        }

        static DeadStore everywhere() {
            return new DeadStore(k -> true);
        }

        static DeadStore forKeys(Set<CounterKey> keys) {
            return new DeadStore(keys::contains);
        }

        private void check(CounterKey key) {
            if (dead.test(key)) {
                failures.incrementAndGet();
                throw new CounterStoreException("store is down (test)");
            }
        }

        @Override
        public long count(CounterKey key, long nowMillis) {
            check(key);
            return delegate.count(key, nowMillis);
        }

        @Override
        public long increment(CounterKey key, long windowMillis, long nowMillis) {
            check(key);
            return delegate.increment(key, windowMillis, nowMillis);
        }

        @Override
        public void decrement(CounterKey key, long windowMillis, long nowMillis) {
            check(key);
            delegate.decrement(key, windowMillis, nowMillis);
        }

        @Override
        public long confirm(CounterKey key, long windowMillis, long nowMillis) {
            check(key);
            return delegate.confirm(key, windowMillis, nowMillis);
        }

        @Override
        public void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis) {
            check(key);
            delegate.release(key, unconfirmed, windowMillis, nowMillis);
        }

        @Override
        public DistinctView distinct(CounterKey key, long member, long nowMillis) {
            check(key);
            return delegate.distinct(key, member, nowMillis);
        }

        @Override
        public DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis) {
            check(key);
            return delegate.addDistinct(key, member, cap, windowMillis, nowMillis);
        }

        @Override
        public void lock(CounterKey key, long durationMillis, long nowMillis) {
            check(key);
            delegate.lock(key, durationMillis, nowMillis);
        }

        @Override
        public long lockRemainingMillis(CounterKey key, long nowMillis) {
            check(key);
            return delegate.lockRemainingMillis(key, nowMillis);
        }

        @Override
        public void clear(CounterKey key) {
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
        public long count(CounterKey key, long nowMillis) {
            return delegate.count(key, nowMillis);
        }

        @Override
        public long increment(CounterKey key, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            return delegate.increment(key, windowMillis, nowMillis);
        }

        @Override
        public void decrement(CounterKey key, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            delegate.decrement(key, windowMillis, nowMillis);
        }

        @Override
        public long confirm(CounterKey key, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            return delegate.confirm(key, windowMillis, nowMillis);
        }

        @Override
        public void release(CounterKey key, long unconfirmed, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            delegate.release(key, unconfirmed, windowMillis, nowMillis);
        }

        @Override
        public DistinctView distinct(CounterKey key, long member, long nowMillis) {
            return delegate.distinct(key, member, nowMillis);
        }

        @Override
        public DistinctView addDistinct(CounterKey key, long member, int cap, long windowMillis, long nowMillis) {
            writes.incrementAndGet();
            return delegate.addDistinct(key, member, cap, windowMillis, nowMillis);
        }

        @Override
        public void lock(CounterKey key, long durationMillis, long nowMillis) {
            writes.incrementAndGet();
            delegate.lock(key, durationMillis, nowMillis);
        }

        @Override
        public long lockRemainingMillis(CounterKey key, long nowMillis) {
            return delegate.lockRemainingMillis(key, nowMillis);
        }

        @Override
        public void clear(CounterKey key) {
            writes.incrementAndGet();
            delegate.clear(key);
        }
    }
}
