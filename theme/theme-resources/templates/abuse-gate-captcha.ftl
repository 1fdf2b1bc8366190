<#-- Keycloak Abuse Gate: the captcha widget, included by abuse-gate-login.ftl on the captcha_required page. -->
<#assign captcha = abuseGate.captcha>
<div class="${properties.kcFormGroupClass!}" id="abuse-gate-captcha" data-provider="${captcha.provider}">
    <div class="${properties.kcFormGroupLabelClass!}">
        <span class="${properties.kcFormLabelTextClass!}" id="abuse-gate-captcha-label">${msg("abuseGateCaptchaLabel")}</span>
    </div>
    <#if abuseGate.captchaFailed!false>
        <p id="abuse-gate-captcha-error" class="${properties.kcInputErrorMessageClass!}" role="alert">${msg("abuseGateCaptchaWrong")}</p>
    </#if>
    <#if captcha.provider == "altcha">
        <script type="module" src="${url.resourcesPath}/abuse-gate/altcha.js"></script>
        <altcha-widget name="altcha" challengejson="${captcha.challengeJson}" language="${captcha.lang}"
                       aria-labelledby="abuse-gate-captcha-label"></altcha-widget>
    <#elseif captcha.provider == "turnstile">
        <div class="cf-turnstile" data-sitekey="${captcha.siteKey}" data-language="${captcha.lang}"></div>
    <#elseif captcha.provider == "hcaptcha">
        <div class="h-captcha" data-sitekey="${captcha.siteKey}"></div>
    <#elseif captcha.provider == "recaptcha">
        <div class="g-recaptcha" data-sitekey="${captcha.siteKey}"></div>
    </#if>
    <noscript><p id="abuse-gate-noscript">${msg("abuseGateNoScript")}</p></noscript>
</div>
