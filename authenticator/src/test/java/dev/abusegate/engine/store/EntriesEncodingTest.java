package dev.abusegate.engine.store;

import dev.abusegate.engine.config.GateOptions;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The stored encodings of {@link Entries}: lossless within the ranges the gate writes. */
class EntriesEncodingTest {

    @Test
    void a_lockout_value_survives_packing_with_and_without_recent_wrong_passwords() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            int typos = r.nextInt(0, GateOptions.REMEMBERED_WRONG_PASSWORDS + 1);
            long[] v = new long[Entries.L_TYPOS + typos];
            v[0] = r.nextInt(0, 4);
            v[Entries.L_UNITS] = r.nextLong(0, 1L << 31);
            v[Entries.L_CONFIRMED] = r.nextLong(0, v[Entries.L_UNITS] + 1);
            v[Entries.L_EXP] = r.nextLong(0, 1L << 47);
            v[Entries.L_LOCKED_UNTIL] = r.nextLong(0, 1L << 47);
            v[Entries.L_RUN] = r.nextLong(0, 1 << 15);
            v[Entries.L_RUN_EXP] = r.nextLong(0, 1L << 47);
            if (typos > 0) {
                v[Entries.L_TYPOS_EXP] = r.nextLong(0, 1L << 47);
            }
            for (int t = 0; t < typos; t++) {
                v[Entries.L_TYPOS + t] = r.nextLong();
            }
            long[] packed = Entries.pack(v);
            assertThat(packed).hasSize(typos == 0 ? 5 : 6 + typos);
            assertThat(Entries.unpack(packed)).isEqualTo(v);
            long now = r.nextLong(0, 1L << 47);
            assertThat(Entries.units(packed, now)).isEqualTo(v[Entries.L_EXP] > now ? v[Entries.L_UNITS] : 0);
            assertThat(Entries.confirmed(packed, now)).isEqualTo(v[Entries.L_EXP] > now ? v[Entries.L_CONFIRMED] : 0);
            assertThat(Entries.lockRun(packed, now)).isEqualTo(v[Entries.L_RUN_EXP] > now ? v[Entries.L_RUN] : 0);
            assertThat(Entries.lockRemaining(packed, now)).isEqualTo(Math.max(0, v[Entries.L_LOCKED_UNTIL] - now));
        }
    }

    @Test
    void an_account_without_recent_wrong_passwords_is_five_words() {
        long[] v = Entries.apply(Entries.RESERVE, new long[] {1_000, 0, 10, Long.MAX_VALUE, 60_000}, true, null);
        assertThat(v).hasSize(5);
        assertThat(Entries.answer(v)).isEqualTo(Entries.ALLOW);
        assertThat(Entries.units(v, 1_000)).isEqualTo(1);
    }
}
