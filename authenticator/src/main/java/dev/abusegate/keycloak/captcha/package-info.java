/** The captcha integration with Keycloak: verifying solutions within budgets, the widget, ALTCHA challenges. */
package dev.abusegate.keycloak.captcha;
