package dev.abusegate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.it.support.BrowserLogin;
import dev.abusegate.it.support.BrowserLogin.LoginResult;
import dev.abusegate.it.support.GateIt;
import dev.abusegate.it.support.RealmBuilder;
import dev.abusegate.it.support.ServerTest;
import dev.abusegate.it.support.TokenClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bots send in parallel: twenty simultaneous wrong guesses for one account from one address, in a realm whose
 * only layer is per address + account (threshold 10, captcha band from 5). Exactly five reach Keycloak's password
 * check; the other fifteen are asked for a captcha, none blocked, on the token endpoint and on the login form.
 */
class CaptchaBandEdgeIT extends ServerTest {

    private static final int REQUESTS = 20;
    private static final int BAND_START = 5;
    private static final Map<String, String> CONFIG = GateIt.quietConfig(
            "perIpAccount.threshold", "10",
            "captcha.enabled", "true",
            "captcha.factor", "0.5");

    private static String realm;

    @BeforeAll
    static void realm() {
        realm = admin.importRealm(RealmBuilder.named(RealmBuilder.uniqueName("band-edge"))
                .user("alice", "alice-Secret-1")
                .user("bob", "bob-Secret-1")
                .gatedBrowserFlow(GateIt.USERNAME_PASSWORD_FORM, CONFIG)
                .gatedDirectGrantFlow("abuse-gate-direct-grant", CONFIG));
    }

    @AfterAll
    static void deleteRealm() {
        if (admin != null && realm != null) {
            admin.deleteRealm(realm);
        }
    }

    @Test
    void twenty_simultaneous_token_requests_let_exactly_the_band_start_reach_the_password_check() throws Exception {
        TokenClient tokens = new TokenClient(server.baseUrl());
        List<TokenClient.TokenResponse> answers = together(REQUESTS, i -> tokens.passwordGrant(realm, "alice", "wrong-" + i, null,
                "203.0.113.210"));
        assertThat(answers).filteredOn(TokenClient.TokenResponse::isKeycloakInvalidGrant).hasSize(BAND_START);
        assertThat(answers).filteredOn(r -> r.status() == 429 && r.body().contains("captcha_required")).hasSize(REQUESTS - BAND_START);
        assertThat(GateIt.stateNumber(GateIt.state(admin, realm, "203.0.113.210", "alice"), "pair", "attempts")).isEqualTo(BAND_START);
    }

    @Test
    void twenty_simultaneous_form_posts_let_exactly_the_band_start_reach_the_password_check() throws Exception {
        String address = "203.0.113.211";
        List<BrowserLogin> browsers = new ArrayList<>();
        List<BrowserLogin.LoginPage> pages = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            BrowserLogin b = server.newBrowser();
            BrowserLogin.LoginPage p = b.openLoginPage(realm, address);
            p.requireFormAction();
            browsers.add(b);
            pages.add(p);
        }
        List<LoginResult> results = together(REQUESTS, i -> browsers.get(i).submit(pages.get(i), "bob", "wrong-" + i, address, Map.of()));
        assertThat(results).filteredOn(r -> r.status() == 200 && r.gateCode().isEmpty() && r.keycloakError().isPresent())
                .as("reached the password check").hasSize(BAND_START);
        assertThat(results).filteredOn(r -> r.status() == 429 && r.gateCode().filter("captcha_required"::equals).isPresent())
                .as("asked for a captcha").hasSize(REQUESTS - BAND_START);
        assertThat(GateIt.stateNumber(GateIt.state(admin, realm, address, "bob"), "pair", "attempts")).isEqualTo(BAND_START);
    }

    interface Call<T> {
        T run(int i) throws Exception;
    }

    /** Runs {@code n} calls released together and returns their results. */
    private static <T> List<T> together(int n, Call<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.run(index);
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(180, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
