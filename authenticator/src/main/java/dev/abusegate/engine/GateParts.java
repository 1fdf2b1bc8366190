package dev.abusegate.engine;

import dev.abusegate.engine.time.TimeSource;
import dev.abusegate.engine.keys.GateKeys;
import dev.abusegate.engine.realm.RealmWatch;
import dev.abusegate.engine.store.CounterStore;
import java.util.Optional;

/**
 * What every moment of a login shares: the store, the clock, the keys, this node's recent blocks (absent when every
 * attempt goes to the store), this node's hints for the edge ({@link RecentBlocks#edgeHints()}) and the fifth,
 * realm-wide layer (absent when the gate runs without it).
 */
record GateParts(CounterStore store, TimeSource clock, GateKeys keys, Optional<RecentBlocks> recentBlocks,
                 RecentBlocks edgeHints, Optional<RealmWatch> realmWatch) {
}
