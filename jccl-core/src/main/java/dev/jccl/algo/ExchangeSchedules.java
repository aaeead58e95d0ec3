package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static dev.jccl.algo.BufferId.SCRATCH;

/** Schedules where every rank talks to every other: pairwise allToAll and the dissemination barrier. */
final class ExchangeSchedules {
    private ExchangeSchedules() {}

    /**
     * Pairwise exchange: copy the own block, then in step s = 1..n-1 send block r+s to rank r+s and
     * receive block r-s from rank r-s. Each ordered pair meets exactly once, so no step waits on
     * another's data and all steps can be in flight together.
     */
    static RankSchedule allToAll(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int n = job.nranks();
        int r = job.rank();
        out.copy(job.blockOf(INPUT, r), job.blockOf(OUTPUT, r));
        for (int s = 1; s < n; s++) {
            int to = (r + s) % n;
            int from = (r - s + n) % n;
            out.step(new Send(to, job.blockOf(INPUT, to)), null, Recv.copy(from, job.blockOf(OUTPUT, from)));
        }
        return out.build(job.args(), Algorithm.PAIRWISE, r, n);
    }

    /**
     * Dissemination barrier: in round k rank r sends a one-element token to r+2^k and receives one from
     * r-2^k, ceil(log2 n) rounds. The token is a meaningless element of SCRATCH; what matters is that
     * every round's send reads the element the previous round's receive wrote, so under the
     * executor's ordering rules no rank finishes before it has heard, directly or through others,
     * from every rank.
     */
    static RankSchedule barrier(ChannelJob job, boolean carriesBarrier) {
        ScheduleBuilder out = new ScheduleBuilder();
        int n = job.nranks();
        int r = job.rank();
        if (carriesBarrier && n > 1) {
            Span token = Span.of(SCRATCH, 0, 1);
            out.needScratch(1);
            for (int dist = 1; dist < n; dist <<= 1) {
                out.step(new Send((r + dist) % n, token), null, Recv.copy((r - dist + n) % n, token));
            }
        }
        return out.build(job.args(), Algorithm.DISSEMINATION, r, n);
    }
}
