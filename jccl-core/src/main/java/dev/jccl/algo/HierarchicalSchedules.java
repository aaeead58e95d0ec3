package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;

/**
 * Hierarchical allreduce over h hosts of L ranks each: a reduce-scatter within each host (shared
 * memory), an allreduce across hosts among the ranks with the same local rank (network), and an
 * allgather within each host. Rank l of a host owns block l of L, so only 1/L of the data leaves the
 * host per rank: each rank sends 2(h-1)/h · count/L elements across hosts, where a flat ring whose
 * link leaves the host sends 2(n-1)/n · count. It needs equal ranks per host; otherwise the tuner
 * falls back to another algorithm and says why.
 */
final class HierarchicalSchedules {
    private HierarchicalSchedules() {}

    static RankSchedule allReduce(ChannelJob job) {
        HostTopology t = job.topology();
        String why = Algorithm.HIERARCHICAL.whyNotApplicable(job.args().collective(), t);
        if (why != null) throw new IllegalArgumentException(why);
        ScheduleBuilder out = new ScheduleBuilder();
        int host = t.hostOf(job.rank());
        int[] local = t.ranksOn(host);
        int l = t.localRank(job.rank());
        int[] peersAcross = new int[t.hosts()];
        for (int hst = 0; hst < peersAcross.length; hst++) peersAcross[hst] = t.ranksOn(hst)[l];
        Blocks intra = Blocks.even(job.count(), local.length);
        long off = job.offset();
        if (t.nranks() == 1) out.copy(job.whole(INPUT), job.whole(OUTPUT));

        // Phase 1, reduce-scatter within the host: block j ends reduced over the host on local rank j.
        Ring.reduceScatter(out, local, l, new Ring.ReduceScatterSpans() {
            public Span contribution(int b) { return intra.span(INPUT, off, b); }
            public Span partial(int b, int step) { return intra.span(OUTPUT, off, b); }
        });

        // Phase 2, allreduce of block l across hosts: a ring over the ranks l of every host, on h
        // sub-blocks of block l. With one rank per host, phase 1 was empty and the data is still INPUT.
        Span mine = intra.span(OUTPUT, off, l);
        Blocks sub = Blocks.even(mine.count(), peersAcross.length);
        long subOff = mine.elemOffset();
        BufferId hostSum = local.length > 1 ? OUTPUT : INPUT;
        Ring.reduceScatter(out, peersAcross, host, new Ring.ReduceScatterSpans() {
            public Span contribution(int q) { return sub.span(hostSum, subOff, q); }
            public Span partial(int q, int step) { return sub.span(OUTPUT, subOff, q); }
        });
        Ring.allGather(out, peersAcross, host, sub.span(OUTPUT, subOff, host), q -> sub.span(OUTPUT, subOff, q), null);

        // Phase 3, allgather within the host: every local rank's fully reduced block to every other.
        Ring.allGather(out, local, l, mine, b -> intra.span(OUTPUT, off, b), null);
        return out.build(job.args(), Algorithm.HIERARCHICAL, job.rank(), job.nranks());
    }
}
