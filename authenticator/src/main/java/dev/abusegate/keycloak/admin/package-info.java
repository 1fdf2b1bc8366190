/** The admin side: the REST resource (see and lift a block, coverage), the realm settings tab, the password-coverage check. */
package dev.abusegate.keycloak.admin;
