package dev.jccl.cli.tool.detect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Names the slow rank or slow link of an all-pairs bandwidth matrix, the way an engineer reads
 * pairwise nccl-tests: a rank is slow when the median of its own pairs falls below
 * {@value #SLOW} of the median of the pairs it is not in (so a slow rank cannot drag the reference
 * down with it); with no slow rank, a link is slow when it falls below {@value #SLOW} of the median
 * of all pairs. When several ranks look slow the matrix is ambiguous, and {@link #bisect} measures
 * halves of the suspects (each with a rank known to be good) until one is left.
 *
 * @param ranks  the ranks named slow (empty: none)
 * @param links  the links named slow, as {i, j} (empty: none, or a slow rank explains them)
 * @param reason one line with the evidence
 */
public record SlowRanks(List<Integer> ranks, List<int[]> links, String reason) {
    public static final double SLOW = 0.7;

    /** Reads {@code bw[i][j]} (symmetric; the diagonal is ignored). Fewer than three ranks leave nothing to compare. */
    public static SlowRanks fromPairs(double[][] bw) {
        int n = bw.length;
        if (n < 3) return new SlowRanks(List.of(), List.of(), n + " rank(s): one pair at most, nothing to compare it with");
        List<Integer> slow = new ArrayList<>();
        StringBuilder why = new StringBuilder();
        for (int r = 0; r < n; r++) {
            double mine = Stats.median(pairs(bw, r, true));
            double others = Stats.median(pairs(bw, r, false));
            if (mine < SLOW * others) {
                slow.add(r);
                why.append(String.format(Locale.ROOT, "%srank %d's pairs: median %.3g vs %.3g for the others (%.0f%%)",
                        why.isEmpty() ? "" : "; ", r, mine, others, 100 * mine / others));
            }
        }
        if (!slow.isEmpty()) return new SlowRanks(slow, List.of(), why.toString());
        double all = Stats.median(pairs(bw, -1, false));
        List<int[]> links = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (bw[i][j] < SLOW * all) {
                    links.add(new int[] {i, j});
                    why.append(String.format(Locale.ROOT, "%slink %d-%d: %.3g vs median %.3g (%.0f%%)",
                            why.isEmpty() ? "" : "; ", i, j, bw[i][j], all, 100 * bw[i][j] / all));
                }
            }
        }
        if (links.isEmpty()) why.append(String.format(Locale.ROOT, "every pair within %.0f%% of the median %.3g", 100 * (1 - SLOW), all));
        return new SlowRanks(List.of(), links, why.toString());
    }

    /** Whether the matrix alone cannot say which rank is slow (several suspects). */
    public boolean ambiguous() {
        return ranks.size() > 1;
    }

    /**
     * Whether the slow ranks are every rank of one or more hosts, and of no other, in a job over
     * several hosts ({@code hostOf} is indexed by rank): ranks that share a host's link and all look
     * slow point at the host, and bisecting among them would only measure that link again.
     */
    public boolean wholeHosts(List<String> hostOf) {
        if (ranks.isEmpty() || hostOf.stream().distinct().count() < 2) return false;
        Map<String, List<Integer>> byHost = byHost(hostOf);
        if (byHost.size() == hostOf.stream().distinct().count()) return false;
        return byHost.entrySet().stream().allMatch(e -> e.getValue().size() == Collections.frequency(hostOf, e.getKey()));
    }

    /** How a finding names the slow ranks: "host X (ranks 4, 5)" when they are {@link #wholeHosts}, else "rank(s) [2]". */
    public String named(List<String> hostOf) {
        if (!wholeHosts(hostOf)) return "rank(s) " + ranks;
        List<String> parts = new ArrayList<>();
        byHost(hostOf).forEach((host, rs) -> parts.add(host + " (" + (rs.size() == 1 ? "rank " : "ranks ")
                + String.join(", ", rs.stream().map(String::valueOf).toList()) + ")"));
        return (parts.size() == 1 ? "host " : "hosts ") + String.join(", ", parts);
    }

    private Map<String, List<Integer>> byHost(List<String> hostOf) {
        Map<String, List<Integer>> by = new LinkedHashMap<>();
        for (int r : ranks) by.computeIfAbsent(hostOf.get(r), k -> new ArrayList<>()).add(r);
        return by;
    }

    /**
     * Narrows {@code suspects} of a world of {@code n} ranks to one: measures each half (with a rank
     * outside the suspects added to a half of one, since a lone rank moves no data) and keeps the
     * half that is below {@value #SLOW} of the other. Stops where neither half is slower.
     */
    public static SlowRanks bisect(List<Integer> suspects, int n, ToDoubleFunction<List<Integer>> groupBusBw) {
        List<Integer> left = new ArrayList<>(suspects);
        StringBuilder why = new StringBuilder("bisected " + suspects);
        while (left.size() > 1) {
            int reference = -1;
            for (int r = 0; r < n && reference < 0; r++) if (!suspects.contains(r)) reference = r;
            List<Integer> a = new ArrayList<>(left.subList(0, left.size() / 2));
            List<Integer> b = new ArrayList<>(left.subList(left.size() / 2, left.size()));
            double bwA = groupBusBw.applyAsDouble(withReference(a, reference));
            double bwB = groupBusBw.applyAsDouble(withReference(b, reference));
            why.append(String.format(Locale.ROOT, ": %s %.3g vs %s %.3g", a, bwA, b, bwB));
            if (bwA < SLOW * bwB) left = a;
            else if (bwB < SLOW * bwA) left = b;
            else break;
        }
        return new SlowRanks(List.copyOf(left), List.of(), why.toString());
    }

    private static List<Integer> withReference(List<Integer> group, int reference) {
        if (group.size() > 1 || reference < 0) return group;
        List<Integer> g = new ArrayList<>(group);
        g.add(reference);
        return g;
    }

    /** Pairs that involve {@code r} (mine) or do not ({@code r = -1}: every pair). */
    private static double[] pairs(double[][] bw, int r, boolean involving) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < bw.length; i++) {
            for (int j = i + 1; j < bw.length; j++) {
                boolean in = i == r || j == r;
                if (in == involving) out.add(bw[i][j]);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
