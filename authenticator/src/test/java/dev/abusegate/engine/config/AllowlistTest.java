package dev.abusegate.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The allowlist accepts IPv4 and IPv6 addresses and CIDRs, rejects anything else naming the entry, and matches exactly. */
class AllowlistTest {

    @Test
    void invalid_cidrs_are_rejected_with_a_clear_message() {
        for (String bad : new String[] {"10.0.0.0/33", "300.1.1.1", "2001:db8::/129", "example.com", "10.0.0.0/x", "1.2.3.4/-1",
                "[2001:db8::]/32", "fe80::%eth0/10", "[::1]", "[1.2.3.4]/24"}) {
            assertThatThrownBy(() -> Allowlist.parse(bad)).as(bad)
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessageContaining("allowlist.cidrs").hasMessageContaining(bad.split("/")[0]);
        }
        assertThat(Allowlist.parse(" 10.0.0.0/8,192.168.1.1\n2001:db8::/32 ").contains("10.200.3.4")).isTrue();
        assertThat(Allowlist.parse("0.0.0.0/0").contains("198.51.100.1")).isTrue();
        assertThat(Allowlist.parse("0.0.0.0/0").contains("2001:db8::1")).as("an IPv4 range never matches IPv6").isFalse();
        assertThat(Allowlist.parse("10.0.0.0/8").contains("not an address")).isFalse();
        for (String form : new String[] {"::1", "[::1]", "::1%lo", " ::1 "}) {
            assertThat(Allowlist.parse("::1/128").contains(form)).as(form).isTrue();
        }
        for (String garbled : new String[] {"[[[::1]]]", " [ ::1 ] ", "[::1]%x", "[[[10.1.2.3]]]"}) {
            assertThat(Allowlist.parse("::1/128, 10.0.0.0/8").contains(garbled)).as(garbled).isFalse();
        }
    }
}
