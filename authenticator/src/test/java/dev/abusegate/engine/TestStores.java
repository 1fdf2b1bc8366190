package dev.abusegate.engine;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** Store decorators for tests: one that dies (for chosen keys), one that counts writes. */
final class TestStores {

    private TestStores() {
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

    /** Counts every change whose value differs from what was stored, then passes it on. */
    static final class WriteCountingStore implements CounterStore {
        private final CounterStore delegate;
        final AtomicInteger writes = new AtomicInteger();
        /** Every call, changing or not: round trips in a cluster. */
        final AtomicInteger calls = new AtomicInteger();

        WriteCountingStore(CounterStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public CompletableFuture<long[]> apply(CounterKey key, Change change, long ttlMillis) {
            calls.incrementAndGet();
            long[] before = delegate.read(key);
            return delegate.apply(key, change, ttlMillis).thenApply(after -> {
                if (!sameState(before, after)) {
                    writes.incrementAndGet();
                }
                return after;
            });
        }

        /** Equal apart from slot 0, the answer of the last change. */
        private static boolean sameState(long[] a, long[] b) {
            if (a == null || b == null) {
                return a == b;
            }
            if (a.length != b.length) {
                return false;
            }
            for (int i = 1; i < a.length; i++) {
                if (a[i] != b[i]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public long[] read(CounterKey key) {
            return delegate.read(key);
        }

        @Override
        public void remove(CounterKey key) {
            writes.incrementAndGet();
            delegate.remove(key);
        }
    }
}
