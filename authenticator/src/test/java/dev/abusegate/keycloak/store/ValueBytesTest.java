package dev.abusegate.keycloak.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abusegate.engine.store.StoreCodec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A value as Infinispan stores it ({@code byte[]}) and as the gate reads it ({@code long[]}): lossless both ways. */
class ValueBytesTest {

    @Test
    void longs_and_bytes_round_trip_for_every_length_and_bit_pattern() {
        SplittableRandom r = new SplittableRandom(5);
        for (int n = 0; n < 40; n++) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = i % 3 == 0 ? -1L << r.nextInt(64) : r.nextLong();
            }
            byte[] b = StoreCodec.toBytes(v);
            assertThat(b).hasSize(8 * n);
            assertThat(StoreCodec.fromBytes(b)).isEqualTo(v);
        }
        assertThat(StoreCodec.toBytes(null)).isNull();
        assertThat(StoreCodec.fromBytes(null)).isNull();
    }
}
