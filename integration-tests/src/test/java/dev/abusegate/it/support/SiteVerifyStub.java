package dev.abusegate.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A captcha vendor's siteverify on 127.0.0.1, recording requests; the token's prefix (ok-, bad-, slow-, html-) decides. */
public final class SiteVerifyStub implements AutoCloseable {

    /** Longer than the gate's 5 s verification timeout. */
    public static final long SLOW_MILLIS = 8_000;

    public record Received(String method, String contentType, Map<String, String> form) {
        public String token() {
            return form.get("response");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "siteverify-stub");
        t.setDaemon(true);
        return t;
    });
    private final List<Received> received = new CopyOnWriteArrayList<>();

    private SiteVerifyStub(HttpServer server) {
        this.server = server;
    }

    public static SiteVerifyStub start() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getByName(KeycloakServer.HOST), 0), 50);
            SiteVerifyStub stub = new SiteVerifyStub(s);
            s.createContext("/siteverify", stub::handle);
            s.setExecutor(stub.pool);
            s.start();
            return stub;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "http://" + KeycloakServer.HOST + ":" + server.getAddress().getPort() + "/siteverify";
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> requestsWithToken(String token) {
        return received.stream().filter(r -> token.equals(r.token())).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> form = Http.parseForm(body);
            received.add(new Received(ex.getRequestMethod(), ex.getRequestHeaders().getFirst("Content-Type"), form));
            String token = form.getOrDefault("response", "");
            if (token.startsWith("slow-")) {
                GateIt.sleep(SLOW_MILLIS);
            }
            boolean html = token.startsWith("html-");
            byte[] reply = (token.startsWith("ok-") ? "{\"success\":true,\"hostname\":\"127.0.0.1\"}"
                    : token.startsWith("slow-") ? "{\"success\":true}"
                    : html ? "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>upstream hiccup</p></body></html>"
                    : "{\"success\":false,\"error-codes\":[\"invalid-input-response\"]}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", html ? "text/html" : "application/json");
            try {
                ex.sendResponseHeaders(200, reply.length);
                ex.getResponseBody().write(reply);
            } catch (IOException gone) {
                // the caller gave up (timeout): nothing to answer
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
