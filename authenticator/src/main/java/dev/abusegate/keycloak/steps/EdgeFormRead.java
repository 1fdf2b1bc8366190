package dev.abusegate.keycloak.steps;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.core.BlockingOperationSupport;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.handlers.FormBodyHandler;

/**
 * Which requests the edge looks at, and their form, read only for those.
 *
 * <p>The edge's filter is a global RESTEasy Reactive request filter: it runs before every Keycloak resource method.
 * It reads nothing unless the request is a form POST ({@code application/x-www-form-urlencoded}) to a realm's token
 * endpoint ({@link Endpoint}): a check of the method, the path and the content type. For those, in a realm the edge
 * answers for ({@link EdgeRefusal}), it reads the form before Keycloak does, with the handler Keycloak itself puts before every POST method
 * ({@link FormBodyHandler}, keeping the raw body for a later reader, Keycloak's own settings): Keycloak's handler then
 * finds the form read and reads nothing more. Every other request (multipart uploads, admin calls, JSON) is left to
 * Keycloak untouched. (A filter marked {@code @WithFormRead} would have RESTEasy read the form of every request to
 * every resource before its filters, without keeping the raw body.)
 */
final class EdgeFormRead {

    /**
     * The endpoints the edge can answer: the token endpoint. (The login form's POST is not one: its answer depends on
     * the authentication session, see docs/operations.md, "Edge refusal".)
     */
    enum Endpoint {
        TOKEN(Pattern.compile("/?realms/[^/]+/protocol/openid-connect/token"));

        private final Pattern path;

        Endpoint(Pattern path) {
            this.path = path;
        }

        /** The endpoint of a form POST, or null for anything else; reads nothing. */
        static Endpoint of(ContainerRequestContext request) {
            if (!HttpMethod.POST.equals(request.getMethod())) {
                return null;
            }
            MediaType type = request.getMediaType();
            if (type == null || !MediaType.APPLICATION_FORM_URLENCODED_TYPE.isCompatible(type)) {
                return null;
            }
            String path = request.getUriInfo().getPath();
            for (Endpoint e : values()) {
                if (e.path.matcher(path).matches()) {
                    return e;
                }
            }
            return null;
        }
    }

    private static final Logger LOG = Logger.getLogger(EdgeFormRead.class);
    private static volatile FormBodyHandler handler;
    private static volatile boolean unavailable;

    private EdgeFormRead() {
    }

    /**
     * Reads the form of the current request, once, as Keycloak's own handler would; false when it cannot be read here
     * (not on a worker thread, no RESTEasy request), and the request goes to Keycloak as it came. A failure to read
     * (a body past Keycloak's limits) is thrown as Keycloak's handler would have thrown it.
     */
    static boolean read() {
        if (unavailable) {
            return false;
        }
        try {
            ResteasyReactiveRequestContext rr = CurrentRequestManager.get();
            if (rr == null) {
                return false;
            }
            if (rr.getFormData() == null) {
                if (!BlockingOperationSupport.isBlockingAllowed()) {
                    return false;
                }
                try {
                    handler(rr).handle(rr);
                } catch (Exception e) {
                    throw EdgeFormRead.<RuntimeException>unchanged(e);
                }
            }
            return rr.getFormData() != null;
        } catch (LinkageError e) {
            // RESTEasy Reactive's classes are not what this was built against (another Keycloak): linking fails before
            // anything is read, and the edge stays off on this node
            unavailable = true;
            LOG.warnf("Abuse gate: edge refusal off on this node, RESTEasy Reactive's form handler cannot be used (%s)",
                    e.getClass().getSimpleName());
            return false;
        }
    }

    /** The handler as Keycloak builds it for its POST methods, with the deployment's limits. */
    private static FormBodyHandler handler(ResteasyReactiveRequestContext rr) {
        FormBodyHandler h = handler;
        if (h == null) {
            h = new FormBodyHandler(true, () -> (Executor) Runnable::run, Set.of());
            h.configure(rr.getDeployment().getRuntimeConfiguration());
            handler = h;
        }
        return h;
    }

    /** Throws {@code e} as it is (a checked exception included), for RESTEasy's exception handling as without the edge. */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E unchanged(Exception e) throws E {
        throw (E) e;
    }
}
