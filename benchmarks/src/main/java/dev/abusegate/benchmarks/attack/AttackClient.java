package dev.abusegate.benchmarks.attack;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The attacker: an open-loop load generator in a JVM of its own (so that its CPU is measured apart from
 * Keycloak's and from the real users'). Attempts leave on a fixed schedule at the offered rate whatever the
 * answers; an attempt due while {@code maxInflight} are unanswered is dropped (counted, not sent), and one sent
 * more than 50 ms after its time is counted late.
 *
 * <p>Every attempt is a wrong password for a fresh username that no account has ({@code atk-<phase>-<n>}).
 * Shapes: {@code one} (one IPv4 address), {@code spread} (a new IPv4 address every 4 attempts, so each address
 * stays below every per-address threshold of the gate's defaults), {@code v6} (one IPv6 /48, each attempt from
 * another /64 in it). Each phase has address ranges of its own (see {@link #address}).
 *
 * <p>Endpoints: {@code token} (the password grant, one POST per attempt) and {@code form} (the browser login
 * form): one GET of the login page opens a login session, then every answer's form action (the wrong-password
 * page and the gate's 429 page both carry one) is the next attempt's POST in that session; idle sessions are
 * reused by the next attempt whatever its address, and a new one is opened (GET + POST) when none is idle.
 *
 * <p>Protocol on stdin/stdout, one line each: {@code attack <base> <realm> <token|form> <one|spread|v6> <rate/s>
 * <seconds> <phase> <maxInflight> <drainSeconds>} answers {@code result key=value ...} once every attempt is
 * answered or the drain time is over; {@code quit} ends the process.
 */
public final class AttackClient {

    static final long LATE_NS = 50_000_000L;
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = Web.client();

    public static void main(String[] args) throws Exception {
        AttackClient c = new AttackClient();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("ready");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] a = line.trim().split(" ");
            if (a[0].equals("quit")) {
                break;
            }
            if (a[0].equals("attack")) {
                Counts r = c.attack(a[1], a[2], a[3], a[4], Double.parseDouble(a[5]), Double.parseDouble(a[6]),
                        Integer.parseInt(a[7]), Integer.parseInt(a[8]), Double.parseDouble(a[9]));
                System.out.println("result " + r);
                System.out.flush();
            }
        }
        System.exit(0);
    }

    /** The client address of attempt n of a phase. */
    static String address(String shape, int phase, long n) {
        switch (shape) {
            case "one":
                return "198.18." + phase + ".1";
            case "spread": {
                // consecutive addresses in different /24s (256 of them), as a botnet's are: the realm-wide layer
                // counts networks, and needs realm.minNetworks of them
                long k = n / 4 + 1;
                return "10." + phase + "." + (k & 255) + "." + ((k >> 8) & 255);
            }
            case "v6":
                return "2001:db8:" + Integer.toHexString(phase) + ":" + Long.toHexString(n & 0xffff) + "::1";
            default:
                throw new IllegalArgumentException("shape " + shape);
        }
    }

    /** Whether {@code ip} is an address of phase {@code phase} of {@code shape} ({@link #address}); idle: none is. */
    static boolean ofPhase(String shape, int phase, String ip) {
        if (ip == null) {
            return false;
        }
        return switch (shape) {
            case "one" -> ip.equals("198.18." + phase + ".1");
            case "spread" -> ip.startsWith("10." + phase + ".");
            case "v6" -> ip.startsWith("2001:db8:" + Integer.toHexString(phase) + ":");
            default -> false;
        };
    }

    static final class Counts {
        final LongAdder sent = new LongAdder();
        final LongAdder dropped = new LongAdder();
        final LongAdder late = new LongAdder();
        final LongAdder gets = new LongAdder();
        final LongAdder invalid = new LongAdder();
        final LongAdder blocked = new LongAdder();
        final LongAdder captcha = new LongAdder();
        final LongAdder success = new LongAdder();
        final LongAdder other = new LongAdder();
        final LongAdder errors = new LongAdder();
        volatile long unanswered;
        volatile long maxLagMs;
        volatile double sendSeconds;
        volatile String sample = "-";

        @Override
        public String toString() {
            return "sent=" + sent + " dropped=" + dropped + " late=" + late + " maxLagMs=" + maxLagMs + " gets=" + gets
                    + " invalid=" + invalid + " blocked=" + blocked + " captcha=" + captcha + " success=" + success + " other="
                    + other + " errors=" + errors + " unanswered=" + unanswered + " sendSeconds=" + String.format("%.3f", sendSeconds)
                    + " sample=" + sample.replaceAll("\\s+", "_");
        }
    }

    /** A login session of the form attack: its cookies and the action URL of its latest form. */
    static final class Session {
        final Map<String, String> cookies = Web.jar();
        String action;
    }

    Counts attack(String base, String realm, String endpoint, String shape, double rate, double seconds, int phase, int maxInflight,
            double drainSeconds) throws InterruptedException {
        Counts c = new Counts();
        AtomicInteger inflight = new AtomicInteger();
        ConcurrentLinkedQueue<Session> idle = new ConcurrentLinkedQueue<>();
        long total = Math.round(rate * seconds);
        long t0 = System.nanoTime() + 10_000_000L;
        long maxLag = 0;
        for (long i = 0; i < total; i++) {
            long due = t0 + (long) (i * 1e9 / rate);
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
            }
            long lag = now - due;
            maxLag = Math.max(maxLag, lag);
            if (lag > LATE_NS) {
                c.late.increment();
            }
            if (inflight.get() >= maxInflight) {
                c.dropped.increment();
                continue;
            }
            inflight.incrementAndGet();
            c.sent.increment();
            String address = address(shape, phase, i);
            String user = "atk-" + phase + "-" + i;
            String password = "wrong-" + i;
            CompletableFuture<String> f = endpoint.equals("token") ? token(base, realm, address, user, password)
                    : form(base, realm, address, user, password, idle, c);
            f.whenComplete((outcome, e) -> {
                if (e != null) {
                    c.errors.increment();
                    c.sample = String.valueOf(e.getCause() != null ? e.getCause() : e);
                } else {
                    count(c, outcome);
                }
                inflight.decrementAndGet();
            });
        }
        c.sendSeconds = (System.nanoTime() - t0) / 1e9;
        c.maxLagMs = maxLag / 1_000_000L;
        long drainUntil = System.nanoTime() + (long) (drainSeconds * 1e9);
        while (inflight.get() > 0 && System.nanoTime() < drainUntil) {
            Thread.sleep(20);
        }
        c.unanswered = inflight.get();
        return c;
    }

    static void count(Counts c, String outcome) {
        switch (outcome) {
            case "invalid" -> c.invalid.increment();
            case "blocked" -> c.blocked.increment();
            case "captcha_required" -> c.captcha.increment();
            case "success" -> c.success.increment();
            default -> {
                c.other.increment();
                c.sample = outcome;
            }
        }
    }

    CompletableFuture<String> token(String base, String realm, String address, String user, String password) {
        return http.sendAsync(Web.passwordGrant(base, realm, address, user, password, TIMEOUT), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> tokenOutcome(r.statusCode(), r.body()));
    }

    /** nginx's own 429 page ({@code limit_req_status 429}, footer "nginx/<version>"): the proxy refused before Keycloak. */
    static boolean proxyRefusal(int status, String body) {
        return status == 429 && body.contains("<center>nginx");
    }

    static String tokenOutcome(int status, String body) {
        if (proxyRefusal(status, body)) {
            return "blocked";
        }
        if (status == 429) {
            return body.contains("\"captcha_required\"") ? "captcha_required" : body.contains("\"blocked\"") ? "blocked" : "429?";
        }
        if ((status == 400 || status == 401) && body.contains("invalid_grant")) {
            return "invalid";
        }
        if (status == 200 && body.contains("access_token")) {
            return "success";
        }
        return "HTTP" + status;
    }

    CompletableFuture<String> form(String base, String realm, String address, String user, String password,
            ConcurrentLinkedQueue<Session> idle, Counts c) {
        Session s = idle.poll();
        CompletableFuture<Session> ready;
        if (s != null) {
            ready = CompletableFuture.completedFuture(s);
        } else {
            c.gets.increment();
            ready = http.sendAsync(Web.loginPage(base, realm, address, TIMEOUT), HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
                Session n = new Session();
                Web.keepCookies(n.cookies, r.headers());
                n.action = Web.action(r.body());
                if (r.statusCode() != 200 || n.action == null) {
                    throw new IllegalStateException("login page: HTTP " + r.statusCode());
                }
                return n;
            });
        }
        return ready.thenCompose(sess -> http.sendAsync(Web.formPost(sess.action, sess.cookies, address, user, password, TIMEOUT),
                HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
                    String body = r.body();
                    String outcome = formOutcome(r.statusCode(), body);
                    Web.keepCookies(sess.cookies, r.headers());
                    String next = Web.action(body);
                    if (next != null && !outcome.equals("success")) {
                        sess.action = next;
                        idle.offer(sess);
                    } else if (proxyRefusal(r.statusCode(), body)) {
                        idle.offer(sess); // nginx refused before Keycloak: the session and its action are still good
                    }
                    return outcome;
                }));
    }

    static String formOutcome(int status, String body) {
        if (proxyRefusal(status, body)) {
            return "blocked";
        }
        if (status == 429) {
            return body.contains("data-code=\"captcha_required\"") ? "captcha_required"
                    : body.contains("data-code=\"blocked\"") ? "blocked" : "429?";
        }
        if (status == 200 && body.contains("id=\"input-error")) {
            return "invalid";
        }
        if (status == 302) {
            return "HTTP302";
        }
        return "HTTP" + status;
    }
}
