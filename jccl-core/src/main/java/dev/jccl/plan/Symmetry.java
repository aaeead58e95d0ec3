package dev.jccl.plan;

import dev.jccl.algo.Algorithm;
import dev.jccl.algo.HostTopology;

/**
 * A relabelling of ranks that maps host h onto host 0 and the schedule onto itself, so that every
 * host does what host 0 does at the same times and only host 0's ranks need simulating. The ring
 * and the hierarchical allreduce (over equal hosts, in host-grouped order) are invariant under a
 * shift by whole hosts (a test checks that host 0 alone gives the full simulation's time). The tree
 * has no such symmetry (the root is special); halving-doubling and recursive doubling are invariant
 * under XOR with a multiple of the host size, but queues booked in another order gave other times
 * there, so they are simulated in full. Blocks must be equal for
 * the relabelled ranks to move equal chunks, so the simulated size is a multiple of the rank count.
 */
enum Symmetry {
    NONE, HOST_SHIFT;

    static Symmetry of(Algorithm a, HostTopology t) {
        if (t.hosts() == 1 || !t.isUniform()) return NONE;
        return a == Algorithm.RING || a == Algorithm.HIERARCHICAL ? HOST_SHIFT : NONE;
    }

    /** How many ranks are simulated: host 0's, or all. */
    int simulated(HostTopology t) {
        return this == NONE ? t.nranks() : t.maxRanksPerHost();
    }

    /** The simulated rank standing for {@code rank}. */
    int representative(int rank, HostTopology t) {
        return this == NONE ? rank : rank % t.maxRanksPerHost();
    }

    /** {@code rank} after the relabelling that takes host {@code host} onto host 0. */
    int seenFrom(int rank, int host, HostTopology t) {
        return this == NONE ? rank : Math.floorMod(rank - host * t.maxRanksPerHost(), t.nranks());
    }

    /** The host whose queues stand for {@code host}'s. */
    int hostQueue(int host) {
        return this == NONE ? host : 0;
    }
}
