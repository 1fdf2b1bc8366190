package dev.abusegate.keycloak.store;

import dev.abusegate.engine.store.SlotCommand;
import dev.abusegate.engine.store.StoreCodec;

/**
 * What a clustered slot's owner runs for a {@link SlotCommand}: the stored slot's bytes in, the new slot's bytes
 * out (null: nothing left). The function sent to the owner captures only the command's bytes.
 */
final class ClusterSlots {

    private ClusterSlots() {
    }

    /** The slot after {@code command}, as bytes; {@code old} is the stored value (a byte[], or null). */
    static byte[] run(byte[] command, Object old) {
        long[] before = UnreadableSlots.onOwner(StoreCodec.fromBytes((byte[]) old));
        return StoreCodec.toBytes(SlotCommand.fromBytes(command).applyTo(before));
    }
}
