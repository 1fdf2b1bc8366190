package dev.abusegate.keycloak.steps;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.List;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.protocol.docker.DockerAuthenticator;
import org.keycloak.representations.docker.DockerAccess;
import org.keycloak.representations.docker.DockerError;
import org.keycloak.representations.docker.DockerErrorResponseToken;
import org.keycloak.util.JsonSerialization;

/**
 * "Docker Authenticator (abuse gate)": Keycloak's docker HTTP Basic step (the "docker auth" flow, docker protocol
 * feature) with the gate in front. A gate answer is HTTP 429 with {@code Retry-After} and the docker registry token
 * endpoint's error body, as Keycloak's own step answers wrong credentials:
 * {@code {"errors":[{"code":"TOOMANYREQUESTS","message":"…","detail":[…]}]}} (the registry API's code for 429).
 */
public class AbuseGateDockerHttpBasic extends GatedHttpBasicStep {

    /** 28 characters: Keycloak stores provider ids in a 36-character column. */
    public static final String ID = "abuse-gate-docker-http-basic";
    /** The docker registry API's error code for HTTP 429. */
    static final String TOO_MANY_REQUESTS = "TOOMANYREQUESTS";

    public AbuseGateDockerHttpBasic() {
        super(ID, "Docker Authenticator (abuse gate)",
                "Keycloak's docker HTTP Basic step (the 'docker auth' flow), with the four-layer abuse gate checked on the header's "
                        + "username before the user lookup and the password hash; gate answers are HTTP 429 with Retry-After and the docker "
                        + "registry's error JSON.", new DockerAuthenticator(), DockerAuthenticator.ID);
    }

    @Override
    protected Response tooManyAttempts(AuthenticationFlowContext context, Response.ResponseBuilder status429, String code, String message) {
        return status429.type(MediaType.APPLICATION_JSON_TYPE).entity(errors(context, TOO_MANY_REQUESTS, message)).build();
    }

    @Override
    protected Response wrongCredentials(AuthenticationFlowContext context) {
        return Response.status(Response.Status.UNAUTHORIZED)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(errors(context, "UNAUTHORIZED", "Invalid username or password."))
                .build();
    }

    /** The registry's error body, with the requested scope as its detail (as Keycloak's docker step gives it). */
    private static String errors(AuthenticationFlowContext context, String code, String message) {
        String scope = context.getAuthenticationSession().getClientNote("scope");
        List<DockerAccess> detail = scope == null ? List.of() : List.of(new DockerAccess(scope));
        try {
            return JsonSerialization.writeValueAsString(new DockerErrorResponseToken(List.of(new DockerError(code, message, detail))));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
