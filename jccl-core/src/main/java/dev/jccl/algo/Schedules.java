package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Builds the schedule of one rank and channel for an algorithm; the entry point of this package. */
public final class Schedules {
    private Schedules() {}

    /**
     * The schedule rank {@code rank} runs on channel {@code channel} of {@code nChannels}. Every rank
     * must pass the same algorithm, args, topology, channel split and grain.
     *
     * @param grainElems channel slices are multiples of this many elements (but the last)
     * @throws IllegalArgumentException naming the value when an argument is out of range or the
     *                                  algorithm cannot build this collective over this topology
     */
    public static RankSchedule build(Algorithm algorithm, CollectiveArgs args, HostTopology topology, int rank,
                                     int channel, int nChannels, long grainElems) {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(topology, "topology");
        if (rank < 0 || rank >= topology.nranks()) {
            throw new IllegalArgumentException("rank " + rank + " is not a rank of " + topology.nranks());
        }
        args.checkRanks(topology.nranks());
        String why = algorithm.whyNotApplicable(args.collective(), topology);
        if (why != null) throw new IllegalArgumentException(why);
        Channels.Slice slice = Channels.slice(args.unitCount(), nChannels, channel, grainElems);
        ChannelJob job = new ChannelJob(args, topology, rank, slice.offset(), slice.count());
        return switch (args.collective()) {
            case ALL_REDUCE -> switch (algorithm) {
                case RING -> RingSchedules.allReduce(job);
                case TREE -> TreeSchedules.allReduce(job);
                case HALVING_DOUBLING -> HalvingDoublingSchedules.allReduce(job);
                case RECURSIVE_DOUBLING -> RecursiveDoublingSchedules.allReduce(job);
                case HIERARCHICAL -> HierarchicalSchedules.allReduce(job);
                default -> throw unreachable(algorithm, args);
            };
            case REDUCE_SCATTER -> RingSchedules.reduceScatter(job);
            case ALL_GATHER -> RingSchedules.allGather(job);
            case BROADCAST -> algorithm == Algorithm.TREE ? TreeSchedules.broadcast(job) : RingSchedules.broadcast(job);
            case REDUCE -> algorithm == Algorithm.TREE ? TreeSchedules.reduce(job) : RingSchedules.reduce(job);
            case ALL_TO_ALL -> ExchangeSchedules.allToAll(job);
            case BARRIER -> ExchangeSchedules.barrier(job, channel == 0);
        };
    }

    /** The single-channel schedule. */
    public static RankSchedule build(Algorithm algorithm, CollectiveArgs args, HostTopology topology, int rank) {
        return build(algorithm, args, topology, rank, 0, 1, 1);
    }

    /** Every rank's schedule for one channel, indexed by rank (for simulation and {@code jccl plan}). */
    public static List<RankSchedule> buildAll(Algorithm algorithm, CollectiveArgs args, HostTopology topology,
                                              int channel, int nChannels, long grainElems) {
        List<RankSchedule> all = new ArrayList<>(topology.nranks());
        for (int r = 0; r < topology.nranks(); r++) all.add(build(algorithm, args, topology, r, channel, nChannels, grainElems));
        return all;
    }

    private static IllegalStateException unreachable(Algorithm a, CollectiveArgs args) {
        return new IllegalStateException(a.knobName() + " passed the check for " + args.collective().apiName() + " but has no builder");
    }
}
