package dev.jccl.comm;

import dev.jccl.algo.HostTopology;

import java.util.List;

/**
 * Who is in the communicator and where: this rank, the size, every rank's host id (from the
 * all-gather at init), and the host grouping the schedules use.
 */
record Membership(int rank, int size, List<String> hostOf, HostTopology topology) {
    Membership {
        hostOf = List.copyOf(hostOf);
    }

    static Membership of(int rank, List<String> hostOf) {
        return new Membership(rank, hostOf.size(), hostOf, HostTopology.fromHostNames(hostOf));
    }

    int localRank() {
        return topology.localRank(rank);
    }

    int localSize() {
        return topology.ranksOn(topology.hostOf(rank)).length;
    }
}
