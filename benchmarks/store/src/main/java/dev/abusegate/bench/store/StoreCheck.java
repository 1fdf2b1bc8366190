package dev.abusegate.bench.store;

import dev.abusegate.engine.CounterStore;
import dev.abusegate.engine.CounterStore.DistinctView;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Checks InfinispanCounterStore's distinct sets against a TreeSet model on a real LOCAL cache, including
 * entries in the older representation (a one-member set as a 16-hex String), so a change to how sets are
 * stored can be shown to answer exactly as before; then its counters and their confirmed units against a
 * two-number model, starting from counters as older versions wrote them (a plain count), and the stored
 * form of each. Exits non-zero on
 * the first mismatch.
 */
public final class StoreCheck {

    public static void main(String[] args) {
        HeapPerKey.quietLogs();
        Random rnd = new Random(42);
        int checks = 0;
        try (StoreFixture fx = new StoreFixture(100_000)) {
            CounterStore store = fx.store;
            for (int trial = 0; trial < 2000; trial++) {
                dev.abusegate.engine.CounterKey key = dev.abusegate.engine.CounterKey.of("realm", dev.abusegate.engine.CounterKey.Kind.IDS, 0, trial);
                TreeSet<Long> model = new TreeSet<>(Long::compareUnsigned);
                int cap = 1 + rnd.nextInt(5);
                long[] pool = new long[4 + rnd.nextInt(4)];
                for (int i = 0; i < pool.length; i++) {
                    pool[i] = rnd.nextLong();
                }
                if (trial % 3 == 0) { // an entry as older versions wrote it: one member as a 16-hex String
                    fx.cache.put(key.toString(), hex(pool[0]), 60, TimeUnit.SECONDS);
                    model.add(pool[0]);
                }
                for (int step = 0; step < 12; step++) {
                    long m = pool[rnd.nextInt(pool.length)];
                    DistinctView before = store.distinct(key, m, 0);
                    check(before.size() == model.size() && before.contains() == model.contains(m), "distinct", key, model, before);
                    boolean added = model.contains(m) || model.size() < cap;
                    if (!model.contains(m) && model.size() < cap) {
                        model.add(m);
                    }
                    DistinctView after = store.addDistinct(key, m, cap, 60_000, 0);
                    check(after.size() == model.size() && after.contains() == added, "addDistinct", key, model, after);
                    checks += 2;
                }
                for (long m : pool) {
                    DistinctView v = store.distinct(key, m, 0);
                    check(v.size() == model.size() && v.contains() == model.contains(m), "final distinct", key, model, v);
                    checks++;
                }
            }
            checks += checkCounters(store, fx, rnd);
            List<Object> kinds = new ArrayList<>();
            fx.cache.values().forEach(v -> kinds.add(v.getClass().getSimpleName()));
            System.out.printf("StoreCheck: %d checks passed; stored values: %d Long, %d String%n", checks,
                    kinds.stream().filter("Long"::equals).count(), kinds.stream().filter("String"::equals).count());
        }
    }

    /** increment, decrement, confirm, count and clear on counters, against {units, confirmed}. */
    static int checkCounters(CounterStore store, StoreFixture fx, Random rnd) {
        int checks = 0;
        for (int trial = 0; trial < 2000; trial++) {
            dev.abusegate.engine.CounterKey key = dev.abusegate.engine.CounterKey.of("realm", dev.abusegate.engine.CounterKey.Kind.FAIL, 1, trial);
            long units = 0;
            long confirmed = 0;
            if (trial % 3 == 0) { // a counter as older versions wrote it: the plain count
                units = 1 + rnd.nextInt(5);
                fx.cache.put(key.toString(), units, 60, TimeUnit.SECONDS);
            }
            for (int step = 0; step < 20; step++) {
                String where = "counter step " + step + " " + key + " model " + units + "/" + confirmed;
                switch (rnd.nextInt(6)) {
                    case 0, 1 -> {
                        units++;
                        long got = store.increment(key, 60_000, 0);
                        check(got == units, where + ": increment answered " + got);
                    }
                    case 2 -> {
                        store.decrement(key, 60_000, 0);
                        units = Math.max(0, units - 1);
                        confirmed = units == 0 ? 0 : Math.min(confirmed, units);
                    }
                    case 3 -> {
                        confirmed = units == 0 ? 0 : Math.min(confirmed + 1, units);
                        long got = store.confirm(key, 60_000, 0);
                        check(got == confirmed, where + ": confirm answered " + got);
                    }
                    case 4 -> {
                        long unconfirmed = rnd.nextInt(2);
                        store.release(key, unconfirmed, 60_000, 0);
                        units = Math.max(0, units - confirmed - unconfirmed);
                        confirmed = 0;
                    }
                    default -> {
                        if (rnd.nextInt(4) == 0) {
                            store.clear(key);
                            units = 0;
                            confirmed = 0;
                        }
                    }
                }
                long count = store.count(key, 0);
                check(count == units, where + ": count answered " + count);
                Object stored = fx.cache.get(key.toString());
                Object expected = units == 0 ? null : confirmed == 0 ? (Object) units : (Object) (-(units * (units + 1) / 2 + confirmed));
                check(java.util.Objects.equals(stored, expected), where + ": stored " + stored);
                checks += 3;
            }
        }
        // a confirmation refreshes the entry's lifespan like any write
        dev.abusegate.engine.CounterKey key = dev.abusegate.engine.CounterKey.of("realm", dev.abusegate.engine.CounterKey.Kind.FAIL, 2, 0);
        store.increment(key, 5_000, 0);
        store.confirm(key, 60_000, 0);
        check(store.remainingMillis(key, 0) > 30_000, "confirm did not refresh the lifespan: " + store.remainingMillis(key, 0));
        // what a node of the previous version reads as the count of a counter with a confirmed unit: below
        // any threshold; and a failed login's entry (one unit, confirmed) is a cached boxed Long
        Object v = fx.cache.get(key.toString());
        check(v instanceof Long && (Long) v < 0, "a counter with a confirmed unit reads as negative: " + v);
        dev.abusegate.engine.CounterKey one = dev.abusegate.engine.CounterKey.of("realm", dev.abusegate.engine.CounterKey.Kind.FAIL, 3, 0);
        store.increment(one, 60_000, 0);
        store.confirm(one, 60_000, 0);
        check(fx.cache.get(one.toString()) == Long.valueOf(-2), "one confirmed unit is the cached Long -2: " + fx.cache.get(one.toString()));
        return checks + 3;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("MISMATCH " + what);
            System.exit(1);
        }
    }

    /** The 16-hex-digit member form InfinispanCounterStore has always used inside set Strings. */
    static String hex(long member) {
        String h = Long.toHexString(member);
        return "0000000000000000".substring(h.length()) + h;
    }

    static void check(boolean ok, String what, dev.abusegate.engine.CounterKey key, TreeSet<Long> model, DistinctView got) {
        if (!ok) {
            System.out.println("MISMATCH " + what + " " + key + ": model size " + model.size() + ", got " + got);
            System.exit(1);
        }
    }
}
