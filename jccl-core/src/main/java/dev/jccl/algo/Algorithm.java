package dev.jccl.algo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.jccl.algo.Collective.ALL_GATHER;
import static dev.jccl.algo.Collective.ALL_REDUCE;
import static dev.jccl.algo.Collective.ALL_TO_ALL;
import static dev.jccl.algo.Collective.BARRIER;
import static dev.jccl.algo.Collective.BROADCAST;
import static dev.jccl.algo.Collective.REDUCE;
import static dev.jccl.algo.Collective.REDUCE_SCATTER;

/** The schedule families, by the name {@code JCCL_ALGO} uses, and the collectives each implements. */
public enum Algorithm {
    /** Rings (and, rooted, pipelined chains) over the host-grouped order; bandwidth-optimal. */
    RING("ring", EnumSet.of(ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER, BROADCAST, REDUCE)),
    /** Binomial trees; log2(n) latency, full data at every level. */
    TREE("tree", EnumSet.of(ALL_REDUCE, BROADCAST, REDUCE)),
    /** Rabenseifner: recursive-halving reduce-scatter, recursive-doubling allgather. */
    HALVING_DOUBLING("halving_doubling", EnumSet.of(ALL_REDUCE)),
    /** Recursive doubling: log2(n) exchanges of the whole vector; the fewest latencies, for small messages. */
    RECURSIVE_DOUBLING("recursive_doubling", EnumSet.of(ALL_REDUCE)),
    /** Reduce-scatter within each host, allreduce across hosts, allgather within each host. */
    HIERARCHICAL("hierarchical", EnumSet.of(ALL_REDUCE)),
    /** Pairwise exchange: in step s, rank r sends to r+s and receives from r-s. */
    PAIRWISE("pairwise", EnumSet.of(ALL_TO_ALL)),
    /** Dissemination barrier: in round k, rank r signals r+2^k and hears from r-2^k. */
    DISSEMINATION("dissemination", EnumSet.of(BARRIER));

    private final String knobName;
    private final Set<Collective> implemented;

    Algorithm(String knobName, Set<Collective> implemented) {
        this.knobName = knobName;
        this.implemented = implemented;
    }

    /** The name as {@code JCCL_ALGO} and the logs spell it. */
    public String knobName() {
        return knobName;
    }

    public boolean implementsCollective(Collective c) {
        return implemented.contains(c);
    }

    /** Algorithms that implement {@code c}, in declaration order. */
    public static List<Algorithm> implementing(Collective c) {
        return Arrays.stream(values()).filter(a -> a.implementsCollective(c)).toList();
    }

    /**
     * Why this algorithm cannot build {@code c} over {@code topology}, or {@code null} if it can.
     * Hierarchical needs every host to hold the same number of ranks, because rank l of each host
     * owns block l of the host's data and meets the ranks l of the other hosts.
     */
    public String whyNotApplicable(Collective c, HostTopology topology) {
        if (!implementsCollective(c)) return knobName + " does not implement " + c.apiName();
        if (this == HIERARCHICAL && !topology.isUniform()) {
            return "hierarchical needs equal ranks per host, but there are " + topology.describe();
        }
        return null;
    }

    /** Parses one name, case-insensitively; '-' may stand for '_'. */
    public static Algorithm parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        for (Algorithm a : values()) if (a.knobName.equals(n)) return a;
        throw new IllegalArgumentException("unknown algorithm '" + name.trim() + "'; expected one of " + names());
    }

    /** Parses a comma list such as {@code "ring,tree"}; blanks are ignored, duplicates kept once. */
    public static List<Algorithm> parseList(String text) {
        List<Algorithm> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) continue;
            Algorithm a = parse(part);
            if (!out.contains(a)) out.add(a);
        }
        return out;
    }

    public static String names() {
        return Arrays.stream(values()).map(Algorithm::knobName).collect(Collectors.joining(", "));
    }
}
