package dev.abusegate.engine;

import dev.abusegate.engine.keys.CounterKey;
import dev.abusegate.engine.keys.AttemptKeys;
import dev.abusegate.engine.store.AddressEntry;
import dev.abusegate.engine.store.LockoutEntry;
import dev.abusegate.engine.store.PairEntry;
import java.util.EnumSet;
import java.util.Set;

/** The admins' moment, outside any login: what the gate holds about a subject, and clearing it. */
final class SubjectView {

    /**
     * The subject an admin asks about: each part null when not asked.
     *
     * @param realm                   the realm's id
     * @param address                 the client address (null: not asked)
     * @param identifier              the typed name (null: not asked)
     * @param ipv6PrefixLength        the prefix an IPv6 address is counted at
     * @param ipv6NetworkPrefixLength the prefix of an IPv6 address's network (0: not asked)
     */
    record Subject(String realm, String address, String identifier, int ipv6PrefixLength, int ipv6NetworkPrefixLength) {
    }

    private final GateParts parts;

    SubjectView(GateParts parts) {
        this.parts = parts;
    }

    private AttemptKeys keys(Subject s) {
        return parts.keys().forAttempt(s.realm(), s.address(), s.identifier(), s.ipv6PrefixLength(), s.ipv6NetworkPrefixLength());
    }

    /** See {@link AbuseGate#state}. */
    SubjectState state(Subject s) {
        long now = parts.clock().millis();
        AttemptKeys k = keys(s);
        boolean address = s.address() != null;
        boolean identifier = s.identifier() != null;
        SubjectState.Network n = null;
        if (address && k.network() != null) {
            AddressEntry nv = AddressEntry.of(parts.store().read(k.network()));
            n = new SubjectState.Network(nv.attempts(now), nv.attemptsRemaining(now));
        }
        SubjectState.Address a = null;
        SubjectState.Identifier i = null;
        SubjectState.Pair p = null;
        AddressEntry av = address ? AddressEntry.of(parts.store().read(k.address())) : null;
        if (address) {
            a = new SubjectState.Address(av.attempts(now), av.attemptsRemaining(now), av.distinct(now), av.distinctRemaining(now));
        }
        if (identifier) {
            LockoutEntry v = LockoutEntry.of(parts.store().read(k.lockout()));
            i = new SubjectState.Identifier(v.taken(now), v.confirmed(now), v.failuresRemaining(now), v.lockRemaining(now),
                    v.lockRun(now));
        }
        if (address && identifier) {
            PairEntry v = PairEntry.of(parts.store().read(k.pair()));
            p = new SubjectState.Pair(v.attempts(now), av.hasIdentifier(k.member(), now), v.remaining(now));
        }
        return new SubjectState(a, n, i, p);
    }

    /** See {@link AbuseGate#clear}. */
    Set<SubjectState.Part> clear(Subject s) {
        AttemptKeys k = keys(s);
        Set<SubjectState.Part> cleared = EnumSet.noneOf(SubjectState.Part.class);
        if (s.address() != null) {
            removeAddressEntry(k.address());
            cleared.add(SubjectState.Part.ADDRESS);
            if (k.network() != null) {
                removeAddressEntry(k.network());
                cleared.add(SubjectState.Part.NETWORK);
            }
        }
        if (s.identifier() != null) {
            parts.store().remove(k.lockout());
            cleared.add(SubjectState.Part.IDENTIFIER);
        }
        if (s.address() != null && s.identifier() != null) {
            parts.store().remove(k.pair());
            cleared.add(SubjectState.Part.PAIR);
        }
        return cleared;
    }

    /** Removes an address's (or a network's) entry, and what this node holds of its block. */
    private void removeAddressEntry(CounterKey key) {
        parts.recentBlocks().ifPresent(rb -> rb.forget(key));
        parts.edgeHints().forget(key);
        parts.store().remove(key);
        // an attempt answered before the removal may have remembered it
        parts.recentBlocks().ifPresent(rb -> rb.forget(key));
        parts.edgeHints().forget(key);
    }
}
