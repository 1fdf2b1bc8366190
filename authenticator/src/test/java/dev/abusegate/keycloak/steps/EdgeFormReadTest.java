package dev.abusegate.keycloak.steps;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which requests the edge looks at: a form POST to a realm's token endpoint, and nothing else. */
class EdgeFormReadTest {

    private static final MediaType FORM = new MediaType("application", "x-www-form-urlencoded", Map.of("charset", "UTF-8"));

    private static ContainerRequestContext request(String method, String path, MediaType type) {
        UriInfo uri = (UriInfo) Proxy.newProxyInstance(UriInfo.class.getClassLoader(), new Class<?>[] {UriInfo.class},
                (p, m, a) -> m.getName().equals("getPath") ? path : null);
        return (ContainerRequestContext) Proxy.newProxyInstance(ContainerRequestContext.class.getClassLoader(),
                new Class<?>[] {ContainerRequestContext.class}, (p, m, a) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getMediaType" -> type;
                    case "getUriInfo" -> uri;
                    default -> throw new AssertionError("the edge read " + m.getName());
                });
    }

    private static EdgeFormRead.Endpoint of(String method, String path, MediaType type) {
        return EdgeFormRead.Endpoint.of(request(method, path, type));
    }

    @Test
    void a_form_post_to_a_realms_token_endpoint_is_looked_at() {
        assertThat(of("POST", "/realms/acme/protocol/openid-connect/token", FORM)).isEqualTo(EdgeFormRead.Endpoint.TOKEN);
        assertThat(of("POST", "realms/acme/protocol/openid-connect/token", MediaType.APPLICATION_FORM_URLENCODED_TYPE))
                .isEqualTo(EdgeFormRead.Endpoint.TOKEN);
    }

    @Test
    void everything_else_is_left_to_keycloak_without_reading_it() {
        assertThat(of("GET", "/realms/acme/protocol/openid-connect/token", FORM)).isNull();
        assertThat(of("POST", "/realms/acme/protocol/openid-connect/token", null)).isNull();
        assertThat(of("POST", "/realms/acme/protocol/openid-connect/token", MediaType.APPLICATION_JSON_TYPE)).isNull();
        assertThat(of("POST", "/realms/acme/protocol/openid-connect/token", MediaType.MULTIPART_FORM_DATA_TYPE)).isNull();
        assertThat(of("POST", "/realms/acme/protocol/openid-connect/token/introspect", FORM)).isNull();
        assertThat(of("POST", "/realms/acme/login-actions/authenticate", FORM)).isNull();
        assertThat(of("POST", "/admin/realms/acme/clients/1/certificates/jwt.credential/upload-certificate",
                MediaType.MULTIPART_FORM_DATA_TYPE)).isNull();
        assertThat(of("POST", "/admin/realms/acme/protocol/openid-connect/token", FORM)).isNull();
    }
}
