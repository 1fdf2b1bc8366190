package dev.abusegate.keycloak.admin;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import dev.abusegate.engine.config.Setting;
import dev.abusegate.keycloak.GateConfig;
import dev.abusegate.keycloak.SettingProperties;
import dev.abusegate.keycloak.StatelessFactory;
import org.keycloak.common.util.MultivaluedHashMap;
import org.keycloak.component.ComponentModel;
import org.keycloak.component.ComponentValidationException;
import org.keycloak.http.HttpRequest;
import org.keycloak.models.KeycloakUriInfo;
import org.keycloak.models.ModelException;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.services.ui.extend.UiTabProvider;
import org.keycloak.services.ui.extend.UiTabProviderFactory;

/**
 * The "Abuse gate" tab under Realm settings: the realm's gate configuration, stored as a realm component
 * (so realm export and import carry it). Every gated step of the realm uses it; a step's own saved keys
 * override it key by key (see {@link GateConfig}). Keycloak shows extension tabs only with the
 * {@code declarative-ui} feature (experimental in 26.7.3) enabled.
 * <p>
 * Unlike a step's configuration, this one is checked when saved: a value the gate cannot use is refused
 * with a message naming the key and the valid values.
 */
public class AbuseGateRealmTabFactory implements UiTabProviderFactory<ComponentModel>, StatelessFactory<UiTabProvider> {

    /** The provider id; also the tab's title key in the admin console (see the theme messages). */
    public static final String ID = GateConfig.REALM_COMPONENT_ID;
    /** The last path segment of the tab: {@code /#/<realm>/realm-settings/abuse-gate}. */
    public static final String TAB = "abuse-gate";

    /** Where the tab points operators for the realm's coverage (the declarative UI shows no per-realm live data). */
    static final String COVERAGE_HELP = "Coverage: GET /admin/realms/{realm}/abuse-gate/coverage says for every binding "
            + "of this realm (browser, direct grant, reset credentials, registration, docker, each identity provider's first "
            + "and post broker login flow, each client's flow overrides, SAML ECP) whether it still checks passwords with an "
            + "ungated Keycloak step, and which gated step to use instead; a WARN at server start names the ungated ones.";

    /** Where the tab points operators for the realm's "under attack" state (the realm.* keys below configure it). */
    static final String REALM_STATE_HELP = "Realm under attack: whether this realm is under attack now, its window's count and "
            + "entry level are answered by GET /admin/realms/{realm}/abuse-gate/realm-under-attack and by the gauge "
            + "abuse_gate_realm_under_attack.";

    @Override
    public String getId() {
        return ID;
    }

    /** The realm settings route; {@code :tab?} so the tab shows on {@code /realm-settings} without a tab too. */
    @Override
    public String getPath() {
        return "/:realm/realm-settings/:tab?";
    }

    @Override
    public Map<String, String> getParams() {
        Map<String, String> params = new HashMap<>();
        params.put("tab", TAB);
        return params;
    }

    @Override
    public String getHelpText() {
        return "The realm's abuse gate settings, used by every gated flow step of the realm. A step's own configuration "
                + "overrides them key by key. " + COVERAGE_HELP + " " + REALM_STATE_HELP;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return SettingProperties.realm();
    }

    /**
     * The documented key names ({@code perIp.threshold}), which the console does not render. Keycloak 26.7.3's
     * {@code RepresentationToModel.updateComponent} skips the keys of a PUT the factory does not declare (its config
     * properties and these), and {@code ModelToRepresentation} shows back only declared keys (masking secret ones):
     * declared here, a PUT, a GET and a partial export carry the documented names too.
     */
    @Override
    public List<ProviderConfigProperty> getCommonProviderConfigProperties() {
        return SettingProperties.realmKeys();
    }

    @Override
    public void validateConfiguration(KeycloakSession session, RealmModel realm, ComponentModel model)
            throws ComponentValidationException {
        boolean another = realm.getComponentsStream(realm.getId(), GateConfig.REALM_COMPONENT_TYPE)
                .anyMatch(c -> ID.equals(c.getProviderId()) && !c.getId().equals(model.getId()));
        if (another) {
            throw refusal(session, "The realm already has an abuse gate configuration; update that one");
        }
        normalize(realm, model);
        Map<String, String> config = new HashMap<>();
        model.getConfig().forEach((k, v) -> {
            if (v != null && !v.isEmpty() && v.get(0) != null) {
                config.put(k, v.get(0));
            }
        });
        List<String> problems = GateConfig.problems(config);
        if (!problems.isEmpty()) {
            throw refusal(session, "Invalid abuse gate settings: " + String.join("; ", problems));
        }
    }

    /**
     * How a refused configuration is reported. The components endpoints answer a {@link ComponentValidationException}
     * with 400 and its message, but a realm import ({@code POST /admin/realms}) answers it with 500
     * {@code unknown_error}; there Keycloak answers a {@link ModelException} with 400 and its message.
     */
    private static RuntimeException refusal(KeycloakSession session, String message) {
        return importingRealm(session) ? new ModelException(message) : new ComponentValidationException(message);
    }

    /** Whether this request is a realm import through the admin API ({@code POST /admin/realms}). */
    static boolean importingRealm(KeycloakSession session) {
        try {
            HttpRequest request = session.getContext().getHttpRequest();
            KeycloakUriInfo uri = session.getContext().getUri();
            return request != null && uri != null && "POST".equals(request.getHttpMethod())
                    && uri.getPath() != null && uri.getPath().replaceAll("/+$", "").endsWith("/admin/realms");
        } catch (RuntimeException e) {
            return false; // no HTTP request (an import at start-up): the component exception is what its log shows
        }
    }

    /**
     * Keeps each key under its own name and under the admin console's form name. The console (26.7.3)
     * names a form field {@code perIp🍺threshold} for a property {@code perIp.threshold}, saves a tab's
     * form under those names and loads it from the declared names only, so the tab declares the form
     * names. Each key is stored under both, with one value: the one set, changed or cleared in this save (the
     * console's name first), else the stored one. The gate, realm JSON and the README use the documented
     * names; Keycloak shows both back, secrets masked.
     */
    static void normalize(RealmModel realm, ComponentModel model) {
        if (model.getConfig() == null) {
            model.setConfig(new MultivaluedHashMap<>());
        }
        MultivaluedHashMap<String, String> cfg = model.getConfig();
        ComponentModel old = model.getId() == null ? null : realm.getComponent(model.getId());
        MultivaluedHashMap<String, String> before = old == null || old.getConfig() == null ? new MultivaluedHashMap<>() : old.getConfig();
        for (Setting s : SettingProperties.settings()) {
            String key = s.key();
            String form = SettingProperties.formName(key);
            // a masked secret (Keycloak's '**********') stands for the stored value
            String value = masked(cfg.getFirst(key)) ? before.getFirst(key) : cfg.getFirst(key);
            String formValue = masked(cfg.getFirst(form)) ? before.getFirst(form) : cfg.getFirst(form);
            String chosen;
            if (!Objects.equals(formValue, before.getFirst(form))) {
                chosen = formValue; // set, changed or cleared under the console's name in this save
            } else if (!Objects.equals(value, before.getFirst(key))) {
                chosen = value; // set, changed or cleared under the documented name
            } else {
                chosen = value != null ? value : formValue;
            }
            if (chosen == null) {
                cfg.remove(key);
                cfg.remove(form);
            } else {
                cfg.putSingle(key, chosen);
                cfg.putSingle(form, chosen);
            }
        }
    }

    private static boolean masked(String v) {
        return v != null && GateConfig.MASK.equals(v.trim());
    }
}
