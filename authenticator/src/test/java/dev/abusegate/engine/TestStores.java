package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.store.Change;
import dev.abusegate.engine.store.CounterStore;
import dev.abusegate.engine.store.CounterStoreException;
import dev.abusegate.engine.store.ReferenceCounterStore;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** A store decorator for tests: one that dies (for chosen keys). */
final class TestStores {

    private TestStores() {
    }

    /** Hands every call to {@code delegate}; subclasses override what they watch or change. */
    abstract static class Forwarding implements CounterStore {
        final CounterStore delegate;

        Forwarding(CounterStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            return delegate.apply(key, change, ttlMillis);
        }

        @Override
        public long[] read(CounterKey key) {
            return delegate.read(key);
        }

        @Override
        public CompletableFuture<long[]> peek(CounterKey key) {
            return delegate.peek(key);
        }

        @Override
        public void remove(CounterKey key) {
            delegate.remove(key);
        }
    }

    /** A store that fails on every call whose key matches; other keys go to a working reference store. */
    static final class DeadStore implements CounterStore {
        private final CounterStore delegate;
        private final Predicate<CounterKey> dead;
        final AtomicInteger failures = new AtomicInteger();

        DeadStore(Predicate<CounterKey> dead) {
            this(dead, new ReferenceCounterStore(TimeSource.SYSTEM));
        }

        DeadStore(Predicate<CounterKey> dead, CounterStore delegate) {
            this.dead = dead;
            this.delegate = delegate;
        }

        static DeadStore everywhere() {
            return new DeadStore(k -> true);
        }

        static DeadStore forKeys(Set<CounterKey> keys) {
            return new DeadStore(keys::contains);
        }

        private boolean down(CounterKey key) {
            if (dead.test(key)) {
                failures.incrementAndGet();
                return true;
            }
            return false;
        }

        @Override
        public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            return down(key) ? CompletableFuture.failedFuture(new CounterStoreException("store is down (test)"))
                    : delegate.apply(key, change, ttlMillis);
        }

        @Override
        public long[] read(CounterKey key) {
            if (down(key)) {
                throw new CounterStoreException("store is down (test)");
            }
            return delegate.read(key);
        }

        @Override
        public void remove(CounterKey key) {
            if (down(key)) {
                throw new CounterStoreException("store is down (test)");
            }
            delegate.remove(key);
        }
    }
}
