package dev.abusegate.it.support;

import java.net.http.HttpClient;

/** What both backends share: a client for the server's own endpoints, the admin client and the metrics fetch. */
abstract class KeycloakServerBase implements KeycloakServer {

    /** For the server's own endpoints (readiness, metrics); never follows a redirect. */
    protected final HttpClient http = Http.client();
    /** Its own lock: a backend's close() may hold the server's monitor while it stops. */
    private final Object adminLock = new Object();
    private AdminClient admin;

    /** Admin REST client logged in as the bootstrap admin of master (one per server, thread-safe). */
    @Override
    public AdminClient admin() {
        synchronized (adminLock) {
            if (admin == null) {
                admin = new AdminClient(baseUrl(), ADMIN_USERNAME, ADMIN_PASSWORD);
            }
            return admin;
        }
    }

    /** The Prometheus text of the management port's {@code /metrics}. */
    @Override
    public String metrics() {
        return Metrics.fetch(http, managementUrl() + "/metrics");
    }
}
