package dev.abusegate.it;

import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent attempts from one address: the gate lets exactly the threshold through to Keycloak's
 * password check, no more, however the requests interleave.
 */
class BrowserGateExactnessIT extends ServerTest {

    private static final int BROWSERS = 40;
    private static final int THRESHOLD = 10;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static String realm;

    /** One realm for the class (the tests share its counters by design); runs after the shared server is up. */
    @BeforeAll
    static void realm() {
        realm = admin.importRealm(RealmBuilder.unique("exact")
                .user("alice", "alice-Secret-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, quietConfig("perIp.threshold", String.valueOf(THRESHOLD))));
    }

    @AfterAll
    static void deleteRealm() {
        if (admin != null && realm != null) {
            admin.deleteRealm(realm);
        }
    }

    @Test
    void forty_simultaneous_posts_from_one_address_let_exactly_the_threshold_reach_the_password_check() throws Exception {
        String address = "203.0.113.200";
        ExecutorService pool = Executors.newFixedThreadPool(BROWSERS);
        try {
            // 40 separate browsers, each with its own login page (authentication session) fetched first
            List<Future<BrowserLogin.LoginResult>> pageFutures = new ArrayList<>();
            List<BrowserLogin> browsers = new ArrayList<>();
            for (int i = 0; i < BROWSERS; i++) {
                BrowserLogin b = server.newBrowser();
                browsers.add(b);
                pageFutures.add(pool.submit(() -> b.openLoginPage(realm, address)));
            }
            List<BrowserLogin.LoginResult> pages = new ArrayList<>();
            for (Future<BrowserLogin.LoginResult> f : pageFutures) {
                BrowserLogin.LoginResult p = f.get(120, TimeUnit.SECONDS);
                p.requireFormAction();
                pages.add(p);
            }

            // then all POSTs released together
            CountDownLatch ready = new CountDownLatch(BROWSERS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<LoginResult>> results = new ArrayList<>();
            for (int i = 0; i < BROWSERS; i++) {
                BrowserLogin b = browsers.get(i);
                BrowserLogin.LoginResult p = pages.get(i);
                results.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return b.submit(p, "alice", "wrong-password", address, java.util.Map.of());
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();

            int passed = 0;
            int blocked = 0;
            List<String> other = new ArrayList<>();
            for (Future<LoginResult> f : results) {
                LoginResult r = f.get(180, TimeUnit.SECONDS);
                if (r.status() == 429 && r.gateCode().filter("blocked"::equals).isPresent()) {
                    blocked++;
                } else if (r.status() == 200 && r.gateCode().isEmpty() && r.keycloakError().isPresent()) {
                    passed++; // reached Keycloak's password check, which said no
                } else {
                    other.add(r.toString());
                }
            }
            assertThat(other).isEmpty();
            assertThat(passed).isEqualTo(THRESHOLD);
            assertThat(blocked).isEqualTo(BROWSERS - THRESHOLD);
        } finally {
            pool.shutdownNow();
        }

        // Keycloak itself saw exactly the threshold of password failures
        GateIt.await("10 invalid_user_credentials events", WAIT,
                () -> admin.eventsWithError(realm, "LOGIN_ERROR", "invalid_user_credentials").size() >= THRESHOLD
                        && admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked").size() >= BROWSERS - THRESHOLD);
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "invalid_user_credentials")).hasSize(THRESHOLD);
        assertThat(admin.eventsWithError(realm, "LOGIN_ERROR", "abuse_gate_blocked")).hasSize(BROWSERS - THRESHOLD);
        assertThat(GateIt.stateNumber(admin.gateState(realm, address, null), "address", "attempts")).isEqualTo(BROWSERS);
    }
}
