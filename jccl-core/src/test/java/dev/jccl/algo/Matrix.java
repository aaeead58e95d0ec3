package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/** The parameter space the simulation tests sweep: algorithms, rank counts, topologies, counts, roots. */
final class Matrix {
    private Matrix() {}

    static final int[] RANKS = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
    static final long PRIME = 97;

    /** Every (collective, algorithm that implements it, rank count). */
    static Stream<Arguments> combos() {
        List<Arguments> out = new ArrayList<>();
        for (Collective c : Collective.values()) {
            for (Algorithm a : Algorithm.implementing(c)) {
                for (int n : RANKS) out.add(Arguments.of(c, a, n));
            }
        }
        return out.stream();
    }

    /** 0, 1, 7, n-1, n+1 and a prime, without repeats. */
    static List<Long> counts(int n) {
        return List.copyOf(new TreeSet<>(List.of(0L, 1L, 7L, (long) n - 1, (long) n + 1, PRIME)));
    }

    /**
     * One host; hosts that take ranks in turn (rank r on host r mod k), which makes the host-grouped
     * order differ from rank order; and for hierarchical, hosts of consecutive ranks too. Hierarchical
     * gets only uniform topologies, the others also get hosts of unequal size.
     */
    static List<HostTopology> topologies(int n, Algorithm a) {
        List<HostTopology> out = new ArrayList<>();
        out.add(HostTopology.singleHost(n));
        if (n == 1) return out;
        if (a == Algorithm.HIERARCHICAL) {
            int d = IntStream.rangeClosed(2, n).filter(k -> n % k == 0).findFirst().orElseThrow();
            out.add(interleaved(n, d));
            if (d != n) out.add(HostTopology.uniform(n / d, d));
        } else {
            out.add(interleaved(n, Math.min(3, n)));
        }
        return out;
    }

    static HostTopology interleaved(int n, int hosts) {
        return HostTopology.of(IntStream.range(0, n).map(r -> r % hosts).toArray());
    }

    static List<CollectiveArgs> args(Collective c, int n, long count) {
        if (!c.rooted()) return List.of(CollectiveArgs.of(c, count));
        return new TreeSet<>(List.of(0, n / 2, n - 1)).stream().map(root -> CollectiveArgs.rooted(c, count, root)).toList();
    }

    static List<Boolean> placements(Collective c) {
        return c == Collective.ALL_TO_ALL ? List.of(false) : List.of(false, true);
    }
}
