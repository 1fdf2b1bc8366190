package dev.abusegate.keycloak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.keycloak.provider.ProviderConfigProperty;

/** The admin console's two forms are made from the descriptors, with Keycloak's typed property kinds. */
class SettingPropertiesTest {

    private static ProviderConfigProperty find(List<ProviderConfigProperty> list, String name) {
        return list.stream().filter(p -> p.getName().equals(name) || p.getName().equals(SettingProperties.formName(name)))
                .findFirst().orElseThrow();
    }

    @Test
    void the_realm_tab_is_typed_and_shows_the_defaults() {
        List<ProviderConfigProperty> realm = SettingProperties.realm();
        assertThat(realm).hasSameSizeAs(SettingProperties.settings());
        assertThat(find(realm, "perIp.threshold").getType()).isEqualTo(ProviderConfigProperty.INTEGER_TYPE);
        assertThat(find(realm, "perIp.threshold").getDefaultValue()).isEqualTo("100");
        assertThat(find(realm, "perIp.threshold").getHelpText()).contains("Valid: 1 to 2147483647.").endsWith("Default 100.");
        assertThat(find(realm, "perIp.enabled").getType()).isEqualTo(ProviderConfigProperty.BOOLEAN_TYPE);
        assertThat(find(realm, "perIp.failureMode").getType()).isEqualTo(ProviderConfigProperty.LIST_TYPE);
        assertThat(find(realm, "perIp.failureMode").getOptions()).containsExactly("FAIL_OPEN", "FAIL_CLOSED");
        assertThat(find(realm, "captcha.provider").getOptions()).containsExactly("altcha", "turnstile", "hcaptcha", "recaptcha");
        ProviderConfigProperty secret = find(realm, "captcha.secret");
        assertThat(secret.getType()).isEqualTo(ProviderConfigProperty.PASSWORD);
        assertThat(secret.isSecret()).isTrue();
        assertThat(secret.getDefaultValue()).isNull();
        assertThat(realm).allSatisfy(p -> assertThat(p.getHelpText()).isNotBlank());
    }

    @Test
    void a_steps_form_starts_empty_so_the_realm_decides_until_a_key_is_set() {
        List<ProviderConfigProperty> step = GateConfig.properties();
        assertThat(step).extracting(ProviderConfigProperty::getName)
                .containsExactlyElementsOf(SettingProperties.settings().stream().map(dev.abusegate.engine.config.Setting::key).toList());
        assertThat(SettingProperties.realm()).extracting(ProviderConfigProperty::getName)
                .as("the tab declares the console's form names").contains("perIp\uD83C\uDF7Athreshold");
        assertThat(step).allSatisfy(p -> {
            assertThat(p.getDefaultValue()).isIn(null, SettingProperties.INHERIT);
            assertThat(p.getHelpText()).contains("Realm settings > Abuse gate");
        });
        assertThat(find(step, "perIp.enabled").getType()).isEqualTo(ProviderConfigProperty.LIST_TYPE);
        assertThat(find(step, "perIp.enabled").getOptions()).containsExactly("inherit", "true", "false");
        assertThat(find(step, "perIp.threshold").getType()).isEqualTo(ProviderConfigProperty.INTEGER_TYPE);
        assertThat(find(step, "captcha.secret").isSecret()).isTrue();
    }
}
