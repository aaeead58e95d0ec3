package dev.jccl.algo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ranks share a host: the only topology the schedules and the tuner need. Hosts are numbered
 * in order of their first rank. {@link #order()} lists ranks grouped by host (hosts in that order,
 * ranks ascending within a host); rings, chains and trees number ranks by this order so that
 * neighbours share a host and a ring crosses each host boundary once. Immutable.
 */
public final class HostTopology {
    private final int[] hostOf;
    private final int[][] members;
    private final int[] order;
    private final int[] positionOf;

    private HostTopology(int[] hostLabels) {
        if (hostLabels.length == 0) throw new IllegalArgumentException("a topology needs at least one rank");
        Map<Integer, Integer> index = new HashMap<>();
        List<List<Integer>> byHost = new ArrayList<>();
        hostOf = new int[hostLabels.length];
        for (int r = 0; r < hostLabels.length; r++) {
            int h = index.computeIfAbsent(hostLabels[r], k -> { byHost.add(new ArrayList<>()); return byHost.size() - 1; });
            hostOf[r] = h;
            byHost.get(h).add(r);
        }
        members = new int[byHost.size()][];
        order = new int[hostLabels.length];
        positionOf = new int[hostLabels.length];
        int p = 0;
        for (int h = 0; h < members.length; h++) {
            members[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
            for (int r : members[h]) {
                positionOf[r] = p;
                order[p++] = r;
            }
        }
    }

    /** {@code hostLabels[r]} names the host of rank r; equal labels mean the same host. */
    public static HostTopology of(int... hostLabels) {
        return new HostTopology(hostLabels.clone());
    }

    public static HostTopology fromHostNames(List<String> hostOfRank) {
        Map<String, Integer> ids = new HashMap<>();
        return new HostTopology(hostOfRank.stream().mapToInt(h -> ids.computeIfAbsent(h, k -> ids.size())).toArray());
    }

    public static HostTopology singleHost(int nranks) {
        return new HostTopology(new int[nranks]);
    }

    /** {@code hosts} hosts of {@code ranksPerHost} consecutive ranks each. */
    public static HostTopology uniform(int hosts, int ranksPerHost) {
        if (hosts < 1 || ranksPerHost < 1) throw new IllegalArgumentException(hosts + " hosts x " + ranksPerHost + " ranks");
        int[] labels = new int[hosts * ranksPerHost];
        for (int r = 0; r < labels.length; r++) labels[r] = r / ranksPerHost;
        return new HostTopology(labels);
    }

    public int nranks() {
        return hostOf.length;
    }

    public int hosts() {
        return members.length;
    }

    public int hostOf(int rank) {
        return hostOf[rank];
    }

    public boolean sameHost(int a, int b) {
        return hostOf[a] == hostOf[b];
    }

    /** Ranks on {@code host}, ascending. */
    public int[] ranksOn(int host) {
        return members[host].clone();
    }

    /** Index of {@code rank} among the ranks of its host. */
    public int localRank(int rank) {
        return Arrays.binarySearch(members[hostOf[rank]], rank);
    }

    /** Whether every host has the same number of ranks. */
    public boolean isUniform() {
        for (int[] m : members) if (m.length != members[0].length) return false;
        return true;
    }

    /** Ranks per host when uniform; otherwise the largest host's count. */
    public int maxRanksPerHost() {
        int max = 0;
        for (int[] m : members) max = Math.max(max, m.length);
        return max;
    }

    /** All ranks, grouped by host. */
    public int[] order() {
        return order.clone();
    }

    /** Where {@code rank} stands in {@link #order()}. */
    public int position(int rank) {
        return positionOf[rank];
    }

    public int rankAt(int position) {
        return order[position];
    }

    /** "1 host x 8 ranks", "2 hosts x 4 ranks" or "3 hosts with 4,4,3 ranks". */
    public String describe() {
        if (isUniform()) {
            return members.length + (members.length == 1 ? " host x " : " hosts x ") + members[0].length
                    + (members[0].length == 1 ? " rank" : " ranks");
        }
        StringBuilder b = new StringBuilder();
        for (int[] m : members) b.append(b.isEmpty() ? "" : ",").append(m.length);
        return members.length + " hosts with " + b + " ranks";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostTopology t && Arrays.equals(hostOf, t.hostOf);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hostOf);
    }

    @Override
    public String toString() {
        return describe();
    }
}
