package dev.jccl.comm;

import dev.jccl.algo.HostTopology;

import java.util.List;

/**
 * Who is in the communicator and where: this rank, the size, every rank's host id and usable
 * providers (from the all-gather at init), and the host grouping the schedules use.
 */
record Membership(int rank, int size, List<String> hostOf, List<List<String>> providersOf, HostTopology topology) {
    Membership {
        hostOf = List.copyOf(hostOf);
        providersOf = List.copyOf(providersOf);
    }

    static Membership of(int rank, List<String> hostOf, List<List<String>> providersOf) {
        return new Membership(rank, hostOf.size(), hostOf, providersOf, HostTopology.fromHostNames(hostOf));
    }

    int localRank() {
        return topology.localRank(rank);
    }

    int localSize() {
        return topology.ranksOn(topology.hostOf(rank)).length;
    }
}
