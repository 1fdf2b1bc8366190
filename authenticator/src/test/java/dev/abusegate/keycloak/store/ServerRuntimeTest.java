package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.MutableClock;
import dev.abusegate.engine.store.ReferenceCounterStore;
import dev.abusegate.keycloak.runtime.GateRuntime;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The server keeps one runtime. While the counter cache cannot be created, every request shares one stand-in (so its
 * budgets of store-failure events and warnings hold) and the cache is tried again at most once a minute, not on every
 * login.
 */
class ServerRuntimeTest {

    private final MutableClock clock = new MutableClock();
    private final ServerRuntime holder = new ServerRuntime(InfinispanGateStoreProviderFactory.CACHE_NAME, clock);
    private final AtomicInteger builds = new AtomicInteger();
    private volatile boolean cacheUp;

    private final Supplier<GateRuntime> build = () -> {
        builds.incrementAndGet();
        if (!cacheUp) {
            throw new IllegalStateException("cache manager refused the configuration");
        }
        return new GateRuntime(new ReferenceCounterStore(clock), 0);
    };

    @Test
    void a_working_cache_is_built_once_and_kept() {
        cacheUp = true;
        GateRuntime first = holder.get(build);
        clock.advance(Duration.ofHours(1));

        assertThat(holder.get(build)).isSameAs(first);
        assertThat(builds).hasValue(1);
    }

    @Test
    void without_a_cache_every_request_shares_one_stand_in_and_the_cache_is_tried_once_a_minute() {
        GateRuntime standIn = holder.get(build);
        for (int i = 0; i < 1_000; i++) {
            assertThat(holder.get(build)).isSameAs(standIn);
        }
        assertThat(builds).hasValue(1);
        assertThat(holder.get(build).storeFailureEvents()).isSameAs(standIn.storeFailureEvents());

        clock.advance(Duration.ofSeconds(59));
        holder.get(build);
        assertThat(builds).hasValue(1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(holder.get(build)).isSameAs(standIn);
        assertThat(builds).hasValue(2);
    }

    @Test
    void once_the_cache_can_be_created_the_real_runtime_replaces_the_stand_in_for_good() {
        GateRuntime standIn = holder.get(build);
        cacheUp = true;
        assertThat(holder.get(build)).isSameAs(standIn);

        clock.advance(Duration.ofMinutes(1));
        GateRuntime real = holder.get(build);
        cacheUp = false;
        clock.advance(Duration.ofMinutes(5));

        assertThat(real).isNotSameAs(standIn);
        assertThat(holder.get(build)).isSameAs(real);
        assertThat(builds).hasValue(2);
    }

    @Test
    void while_one_request_tries_the_cache_again_the_others_go_on_with_the_stand_in() throws Exception {
        GateRuntime standIn = holder.get(build);
        clock.advance(Duration.ofMinutes(1));
        CountDownLatch retrying = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Supplier<GateRuntime> slowFailure = () -> {
            builds.incrementAndGet();
            retrying.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("cache manager refused the configuration");
        };
        Thread retry = new Thread(() -> holder.get(slowFailure));
        retry.start();
        assertThat(retrying.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(holder.get(build)).isSameAs(standIn);
        release.countDown();
        retry.join(10_000);
        assertThat(builds).hasValue(2);
        assertThat(holder.get(build)).isSameAs(standIn);
    }
}
