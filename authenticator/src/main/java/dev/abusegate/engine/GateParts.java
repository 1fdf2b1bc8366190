package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.store.CounterStore;
import java.util.Optional;

/**
 * What every moment of a login shares: the store, the clock, the keys, what this node remembers of layer 1's blocks
 * and of the addresses worth asking about at the edge ({@link NodeBlocks}), and the fifth, realm-wide layer (absent
 * when the gate runs without it).
 */
record GateParts(CounterStore store, TimeSource clock, GateKeys keys, NodeBlocks blocks, Optional<RealmWatch> realmWatch) {

    /**
     * This node's memory of layer 1's blocks, and its hints for the edge.
     *
     * @param held  the blocks answered without a store change (absent when every attempt goes to the store)
     * @param hints the hints for the edge ({@link RecentBlocks#edgeHints()})
     */
    record NodeBlocks(Optional<RecentBlocks> held, RecentBlocks hints) {
    }

    /** This node's recent blocks, answered without a store change; absent when every attempt goes to the store. */
    Optional<RecentBlocks> recentBlocks() {
        return blocks.held();
    }

    /** This node's hints for the edge ({@link RecentBlocks#edgeHints()}). */
    RecentBlocks edgeHints() {
        return blocks.hints();
    }
}
