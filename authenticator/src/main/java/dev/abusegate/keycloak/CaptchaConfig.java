package dev.abusegate.keycloak;

import java.util.Collections;
import java.util.List;
import org.keycloak.provider.ProviderConfigProperty;

/** Captcha provider settings (the captcha issue fills these in). */
final class CaptchaConfig {
    private CaptchaConfig() {
    }

    static List<ProviderConfigProperty> properties() {
        return Collections.emptyList();
    }
}
