package dev.abusegate.keycloak.steps;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.AuthenticationProcessor;
import org.keycloak.protocol.saml.profile.ecp.authenticator.HttpBasicAuthenticator;
import org.keycloak.protocol.saml.profile.ecp.authenticator.HttpBasicAuthenticatorFactory;
import org.keycloak.protocol.saml.profile.util.Soap;

/**
 * "HTTP Basic Authentication (abuse gate)": Keycloak's HTTP Basic step (the SAML ECP flow's only step) with the gate
 * in front. A gate answer is HTTP 429 with {@code Retry-After} and a SOAP fault, as Keycloak's ECP endpoint answers
 * a request it cannot process: fault code {@code Client}, the "too many sign-in attempts" text as the fault string,
 * and {@code blocked} or {@code captcha_required} as its detail.
 */
public class AbuseGateHttpBasic extends GatedHttpBasicStep {

    /** 21 characters: Keycloak stores provider ids in a 36-character column. */
    public static final String ID = "abuse-gate-http-basic";

    public AbuseGateHttpBasic() {
        super(ID, "HTTP Basic Authentication (abuse gate)",
                "Keycloak's HTTP Basic step (the 'saml ecp' flow), with the four-layer abuse gate checked on the header's username "
                        + "before the user lookup and the password hash; gate answers are HTTP 429 with Retry-After and a SOAP fault.",
                new HttpBasicAuthenticator(), HttpBasicAuthenticatorFactory.PROVIDER_ID);
    }

    @Override
    protected Response tooManyAttempts(AuthenticationFlowContext context, Response.ResponseBuilder status429, String code, String message) {
        // ECP requests are passive: Keycloak replaces any challenge by a "passive login required" SAML answer unless
        // the step marks it as one to forward as it is (as the identity-provider redirector does).
        context.getAuthenticationSession().setAuthNote(AuthenticationProcessor.FORWARDED_PASSIVE_LOGIN, "true");
        Response fault = Soap.createFault().code("Client").reason(message).detail(code).build();
        return status429.type(MediaType.TEXT_XML_TYPE).entity(fault.getEntity()).build();
    }

    /** Keycloak's own answer; on the passive ECP endpoint Keycloak turns it into its SAML error answer, as for a wrong password. */
    @Override
    protected Response wrongCredentials(AuthenticationFlowContext context) {
        return Response.status(Response.Status.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + context.getRealm().getName() + "\"")
                .build();
    }
}
