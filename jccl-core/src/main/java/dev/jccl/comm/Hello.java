package dev.jccl.comm;

import dev.jccl.verbs.VerbsException;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each rank tells every other at init: its host id, and for each provider usable here, in
 * this rank's JCCL_TRANSPORT order, the locality that provider reports
 * ({@link dev.jccl.verbs.VerbsProvider#locality}). From these alone every pair of ranks picks the
 * same provider without talking again.
 *
 * <p>{@code namedOrder} says the order came from JCCL_TRANSPORT, so the pair takes the first
 * provider in it that reaches; otherwise the pair takes the best {@link dev.jccl.verbs.PathKind}.
 *
 * <p>Encoded as UTF-8 lines: the host id, {@code order=named} or {@code order=best-path}, then one
 * {@code name=locality} line per provider. Names cannot hold '=' and nothing can hold a line break,
 * so decoding is unambiguous.
 */
record Hello(String hostId, boolean namedOrder, Map<String, String> localityByProvider) {
    private static final String NAMED = "order=named";
    private static final String BEST_PATH = "order=best-path";

    Hello {
        localityByProvider = Collections.unmodifiableMap(new LinkedHashMap<>(localityByProvider));
    }

    byte[] encode() {
        StringBuilder b = new StringBuilder(oneLine("host id", hostId)).append('\n').append(namedOrder ? NAMED : BEST_PATH);
        localityByProvider.forEach((name, locality) -> {
            if (name.isEmpty() || name.contains("=")) throw new VerbsException("provider name '" + name + "' is not usable");
            b.append('\n').append(oneLine(name, name)).append('=').append(oneLine(name + " locality", locality));
        });
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Hello decode(byte[] bytes, int fromRank) {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length < 2 || !(lines[1].equals(NAMED) || lines[1].equals(BEST_PATH))) {
            throw new VerbsException("rank " + fromRank + " sent a hello without its order line (a different jccl version?)");
        }
        Map<String, String> localities = new LinkedHashMap<>();
        for (int i = 2; i < lines.length; i++) {
            int eq = lines[i].indexOf('=');
            if (eq <= 0) throw new VerbsException("rank " + fromRank + " sent a malformed hello line: '" + lines[i] + "'");
            localities.put(lines[i].substring(0, eq), lines[i].substring(eq + 1));
        }
        return new Hello(lines[0], lines[1].equals(NAMED), localities);
    }

    /** For errors: "[shm (host-a fs dev 23), tcp]". */
    String describeProviders() {
        return localityByProvider.entrySet().stream()
                .map(e -> e.getValue().isEmpty() ? e.getKey() : e.getKey() + " (" + e.getValue() + ")")
                .toList().toString();
    }

    private static String oneLine(String what, String text) {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) throw new VerbsException(what + " holds a line break: '" + text + "'");
        return text;
    }
}
