package dev.abusegate.it;

import static dev.abusegate.it.support.GateIt.quietConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import dev.abusegate.it.support.TokenClient.TokenResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Password checks take turns per address on a real Keycloak: a burst of wrong passwords from one address, each let
 * through by the gate (thresholds far above it) and each costing a hash, is already waiting when a real user from
 * another address logs in. What the user observes is how many of the burst's answers come before their own: with
 * first-come-first-served turns, nearly the whole burst; with turns per address, the checks already running, at most
 * one more of the burst's, and those the other cores finish during the user's own check.
 */
class PasswordCheckTurnsIT extends ServerTest {

    private static final String USER = "carol";
    private static final String PASSWORD = "carol-Secret-1";

    @Test
    void a_real_user_waits_for_a_few_checks_of_another_addresses_burst_not_for_the_whole_burst() throws Exception {
        // the realm layer off: the turns are shared whether it is on or off
        String realm = importRealm(RealmBuilder.unique("turns").user(USER, PASSWORD)
                .gatedDirectGrantFlow("abuse-gate-direct-grant",
                        quietConfig("realm.enabled", "false", "passwordSpray.enabled", "false")));
        TokenClient tokens = new TokenClient(server.baseUrl());
        assertThat(tokens.passwordGrant(realm, USER, PASSWORD, null, "10.41.0.1").status()).as("warm-up").isEqualTo(200);

        int cores = Runtime.getRuntime().availableProcessors();
        int burst = 16 * cores;
        AtomicInteger answered = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(burst);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> attack = new ArrayList<>();
        try {
            for (int i = 0; i < burst; i++) {
                int k = i;
                attack.add(pool.submit(() -> {
                    go.await();
                    // an unknown name costs Keycloak's dummy hash, as a known one costs its hash
                    TokenResponse r = tokens.passwordGrant(realm, "nobody-" + k, "guess-" + k, null, "10.41.1.1");
                    assertThat(r.status()).as(r.toString()).isIn(400, 401);
                    return answered.incrementAndGet();
                }));
            }
            go.countDown();
            Thread.sleep(150); // the burst is past the gate, its checks running or waiting their turn
            int atSend = answered.get();
            TokenResponse login = tokens.passwordGrant(realm, USER, PASSWORD, null, "10.41.2.1");
            int during = answered.get() - atSend;
            for (Future<Integer> f : attack) {
                f.get(120, TimeUnit.SECONDS);
            }
            System.out.printf("PasswordCheckTurnsIT: a burst of %d, %d answered before the real user's login was sent, %d while it"
                    + " ran (%d cores)%n", burst, atSend, during, cores);
            assertThat(login.status()).as(login.toString()).isEqualTo(200);
            assertThat(burst - atSend).as("burst checks still waiting when the real user came (else the test measures nothing)")
                    .isGreaterThanOrEqualTo(8 * cores);
            // turns per address: the checks running when the user came, one more of the burst at most, and those on the
            // other cores during the user's own check; first come first served would make the user wait for all of it
            assertThat(during).as("burst answers while the real user's login ran").isLessThanOrEqualTo(3 * cores + 1);
        } finally {
            pool.shutdownNow();
        }
    }
}
