package dev.abusegate.engine;

import dev.abusegate.engine.config.Layer;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What went wrong with the store during one engine call: the layers whose store failed, each with the exception
 * that failed it ({@link Outage}), and the layers counted on a shared counter because the store was at its bound
 * (degraded, not failed). A value: it never changes once made.
 */
public final class Outages {

    /** Nothing failed and nothing was degraded. */
    public static final Outages NONE = new Outages(Map.of(), Set.of());

    /** The longest message an outage keeps (longer ones are cut). */
    public static final int MAX_MESSAGE = 200;

    /**
     * One layer whose store failed, and why.
     *
     * @param layer the layer that followed its failure mode
     * @param cause the exception the store call failed with
     */
    public record Outage(Layer layer, RuntimeException cause) {

        /**
         * The exception that says why: the innermost cause of {@link #cause()} (a store wraps what failed under it),
         * as Java names its class (simple name): a bounded set of names, fit for a metric label.
         */
        public String causeName() {
            return root(cause).getClass().getSimpleName();
        }

        /**
         * The innermost cause's message, cut to {@value #MAX_MESSAGE} characters, with anything that could name a
         * subject taken out (an address, an e-mail, a key's text form): a message is written by code we do not own.
         */
        public String causeMessage() {
            return scrub(root(cause).getMessage());
        }
    }

    private static final Pattern SUBJECT_LIKE = Pattern.compile(
            "\\S*@\\S*" // an e-mail, or anything with an @
            + "|\\S*\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\S*" // an IPv4 address, alone or in a key's or node's text
            + "|\\S*[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,}\\S*" // an IPv6 address
            + "|\\S+/\\S+/\\S+"); // a key's text form (realm/kind/subject)

    private final Map<Layer, Outage> failed;
    private final Set<Layer> degraded;

    Outages(Map<Layer, Outage> failed, Set<Layer> degraded) {
        this.failed = failed.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(failed));
        this.degraded = degraded.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(degraded));
    }

    /** The layers whose store failed. */
    public Set<Layer> unavailable() {
        return failed.keySet();
    }

    /** The layers counted on a shared counter because the store was at its bound. */
    public Set<Layer> degraded() {
        return degraded;
    }

    /** Each failed layer with its cause, in the layers' order. */
    public List<Outage> outages() {
        return List.copyOf(failed.values());
    }

    /** Whether no layer's store failed. */
    public boolean noneFailed() {
        return failed.isEmpty();
    }

    static Throwable root(Throwable e) {
        Throwable t = e;
        for (int depth = 0; t.getCause() != null && t.getCause() != t && depth < 16; depth++) {
            t = t.getCause();
        }
        return t;
    }

    /** A message fit for an operator's event: no subject, one line, at most {@value #MAX_MESSAGE} characters. */
    static String scrub(String message) {
        if (message == null || message.isBlank()) {
            return "";
        }
        String s = SUBJECT_LIKE.matcher(message.replaceAll("\\s+", " ").trim()).replaceAll("?");
        return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE - 1) + "…";
    }

    @Override
    public String toString() {
        return (failed.isEmpty() ? "" : "unavailable=" + failed.keySet()) + (degraded.isEmpty() ? "" : " degraded=" + degraded);
    }
}
