<#--
  Keycloak Abuse Gate: the login page answered with HTTP 429 (blocked or captcha_required).
  Renders inside the realm's own login theme (template.ftl). The element #abuse-gate-status carries the
  stable, machine-readable code; the message never says which layer fired. abuseGate.passwordOnly drops the
  username field (identity-first password page, re-authentication), abuseGate.usernameOnly the password
  field (identity-first username page).
  A realm theme can override this template by shipping its own abuse-gate-login.ftl.
-->
<#import "template.ftl" as layout>
<@layout.registrationLayout displayMessage=false; section>
    <#if section = "header">
        ${msg("loginAccountTitle")}
    <#elseif section = "form">
        <div id="abuse-gate-status" data-code="${abuseGate.code}" role="alert" aria-live="assertive"
             class="${properties.kcAlertClass!'pf-v5-c-alert pf-m-inline'} pf-m-<#if abuseGate.code == 'blocked'>danger<#else>warning</#if>">
            <span class="${properties.kcAlertTitleClass!'pf-v5-c-alert__title'} kc-feedback-text">${msg(abuseGate.message)}</span>
        </div>
        <div id="kc-form">
          <div id="kc-form-wrapper">
            <form id="kc-form-login" class="${properties.kcFormClass!}" action="${url.loginAction}" method="post" novalidate="novalidate">
                <#if !abuseGate.passwordOnly>
                <div class="${properties.kcFormGroupClass!}">
                    <label for="username" class="${properties.kcFormLabelClass!}">
                        <span class="${properties.kcFormLabelTextClass!}"><#if !realm.loginWithEmailAllowed>${msg("username")}<#elseif !realm.registrationEmailAsUsername>${msg("usernameOrEmail")}<#else>${msg("email")}</#if></span>
                    </label>
                    <span class="${properties.kcInputClass!}">
                        <input id="username" name="username" value="${abuseGate.username}" type="text" autocomplete="username"
                               <#if abuseGate.username?has_content>aria-describedby="abuse-gate-status"<#else>autofocus</#if>/>
                    </span>
                </div>
                </#if>
                <#if !(abuseGate.usernameOnly!false)>
                <div class="${properties.kcFormGroupClass!}">
                    <label for="password" class="${properties.kcFormLabelClass!}">
                        <span class="${properties.kcFormLabelTextClass!}">${msg("password")}</span>
                    </label>
                    <span class="${properties.kcInputClass!}">
                        <input id="password" name="password" value="" type="password" autocomplete="current-password"
                               <#if abuseGate.passwordOnly || abuseGate.username?has_content>autofocus</#if>/>
                    </span>
                </div>
                </#if>
                <#if realm.rememberMe && !abuseGate.passwordOnly>
                <div class="${properties.kcFormGroupClass!}">
                    <div class="${properties.kcFormOptionsWrapperClass!}">
                        <label><input type="checkbox" id="rememberMe" name="rememberMe" <#if abuseGate.rememberMe>checked</#if>> ${msg("rememberMe")}</label>
                    </div>
                </div>
                </#if>
                <input type="hidden" id="id-hidden-input" name="credentialId" value=""/>
                <#if abuseGate.captcha??>
                    <#include "abuse-gate-captcha.ftl">
                </#if>
                <div class="${properties.kcFormGroupClass!}">
                    <div class="${properties.kcFormActionGroupClass!}">
                        <button class="${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" name="login" id="kc-login" type="submit">${msg("doLogIn")}</button>
                    </div>
                </div>
            </form>
          </div>
        </div>
    </#if>
</@layout.registrationLayout>
