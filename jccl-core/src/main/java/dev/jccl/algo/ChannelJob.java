package dev.jccl.algo;

/**
 * What one algorithm builder gets: the call, the topology, this rank, and the slice of the unit
 * count this channel owns ({@code offset}, {@code count} in elements).
 */
record ChannelJob(CollectiveArgs args, HostTopology topology, int rank, long offset, long count) {
    int nranks() {
        return topology.nranks();
    }

    /** The host-grouped order rotated so that {@code first} stands at position 0. */
    int[] orderFrom(int first) {
        int n = nranks();
        int start = topology.position(first);
        int[] chain = new int[n];
        for (int i = 0; i < n; i++) chain[i] = topology.rankAt((start + i) % n);
        return chain;
    }

    /** This channel's slice of a buffer that holds the unit count once. */
    Span whole(BufferId buffer) {
        return Span.of(buffer, offset, count);
    }

    /** This channel's slice of block {@code block} of a buffer that holds one unit per rank. */
    Span blockOf(BufferId buffer, int block) {
        return Span.of(buffer, block * args.count() + offset, count);
    }

    static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) if (ranks[i] == rank) return i;
        throw new IllegalArgumentException("rank " + rank + " is not in the group");
    }
}
