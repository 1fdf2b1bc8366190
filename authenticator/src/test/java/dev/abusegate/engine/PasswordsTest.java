package dev.abusegate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordsTest {

    @Test
    void null_empty_and_whitespace_only_passwords_are_missing() {
        assertThat(Passwords.missing(null)).isTrue();
        assertThat(Passwords.missing("")).isTrue();
        assertThat(Passwords.missing(" ")).isTrue();
        assertThat(Passwords.missing("   ")).isTrue();
        assertThat(Passwords.missing("\t\r\n ")).isTrue();
        assertThat(Passwords.missing("\u0000\u001f")).as("control characters, as Keycloak's trim-based rule sees them").isTrue();
    }

    @Test
    void a_password_with_any_other_character_is_present() {
        assertThat(Passwords.missing("a")).isFalse();
        assertThat(Passwords.missing("  a  ")).as("spaces around a password do not make it missing").isFalse();
        assertThat(Passwords.missing("0")).isFalse();
        assertThat(Passwords.missing("\u2003")).as("an em space is a character Keycloak accepts in a password").isFalse();
        assertThat(Passwords.missing("\u00a0")).as("a no-break space too").isFalse();
    }
}
