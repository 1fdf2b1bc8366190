package dev.abusegate.keycloak.admin;

import dev.abusegate.keycloak.store.GateStoreProviderFactory;
import org.jboss.logging.Logger;
import org.keycloak.Config;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.RealmModel;
import org.keycloak.models.utils.KeycloakModelUtils;
import org.keycloak.models.utils.PostMigrationEvent;
import org.keycloak.services.resources.admin.AdminEventBuilder;
import org.keycloak.services.resources.admin.ext.AdminRealmResourceProvider;
import org.keycloak.services.resources.admin.ext.AdminRealmResourceProviderFactory;
import org.keycloak.services.resources.admin.fgap.AdminPermissionEvaluator;

/**
 * Mounts {@link GateAdminResource} at {@code /admin/realms/{realm}/abuse-gate}, and at start-up logs a WARN for each realm
 * whose bound flows still check passwords with an ungated step ({@link PasswordCoverage}).
 */
public class GateAdminResourceProviderFactory implements AdminRealmResourceProviderFactory, AdminRealmResourceProvider {

    public static final String ID = "abuse-gate";
    private static final Logger LOG = Logger.getLogger(GateAdminResourceProviderFactory.class);

    @Override
    public AdminRealmResourceProvider create(KeycloakSession session) {
        return this;
    }

    @Override
    public Object getResource(KeycloakSession session, RealmModel realm, AdminPermissionEvaluator auth, AdminEventBuilder adminEvent) {
        return new GateAdminResource(session, realm, auth, adminEvent, GateStoreProviderFactory.of(session.getKeycloakSessionFactory())
                .runtime(session));
    }

    @Override
    public void init(Config.Scope config) {
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        // Once the server is up (realms imported, migrated): say which realms still check passwords ungated.
        factory.register(event -> {
            if (event instanceof PostMigrationEvent) {
                try {
                    KeycloakModelUtils.runJobInTransaction(factory, session -> PasswordCoverage.warnAll(session,
                            GateStoreProviderFactory.of(factory).runtime(session)));
                } catch (RuntimeException e) {
                    // never a reason not to start: the report is also on the admin API
                    LOG.warnf("Abuse gate: could not check which flows are gated (%s)", e.getClass().getSimpleName());
                }
            }
        });
    }

    @Override
    public void close() {
    }

    @Override
    public String getId() {
        return ID;
    }
}
