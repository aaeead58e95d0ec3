package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;

/**
 * The fold that lets power-of-two schedules (halving-doubling, recursive doubling) run on any n:
 * with n = p + rem, p the largest power of two not above n, the first 2·rem ranks of the
 * host-grouped order pair up (2i, 2i+1). The even one hands its data to the odd one, which reduces
 * it (its own data first), sits out, and receives the result at the end; the odd ones and the rest
 * play virtual ranks 0..p-1.
 */
final class PowerOfTwoFold {
    final int p;
    /** This rank's virtual rank, or -1 if it sits out. */
    final int vid;
    /** Where this rank's data is after the fold: INPUT, or OUTPUT for a rank that reduced a partner's in. */
    final BufferId mine;
    private final int rem;
    private final int[] order;
    private final int v;

    /** Adds the fold step (if this rank takes part in one) to {@code out}. */
    PowerOfTwoFold(ChannelJob job, ScheduleBuilder out) {
        int n = job.nranks();
        p = Integer.highestOneBit(n);
        rem = n - p;
        order = job.topology().order();
        v = job.topology().position(job.rank());
        Span in = job.whole(INPUT);
        if (v < 2 * rem && v % 2 == 0) {
            out.send(order[v + 1], in);
            vid = -1;
            mine = null;
        } else if (v < 2 * rem) {
            out.recv(Recv.reduce(order[v - 1], job.whole(OUTPUT), in));
            vid = v / 2;
            mine = OUTPUT;
        } else {
            vid = v - rem;
            mine = INPUT;
        }
    }

    /** The rank playing virtual rank {@code virtualRank}: the odd member of a folded pair, or a rank after them. */
    int real(int virtualRank) {
        return virtualRank < rem ? order[2 * virtualRank + 1] : order[virtualRank + rem];
    }

    /** Adds the unfold: the odd rank of each folded pair hands the result back. */
    void unfold(ChannelJob job, ScheduleBuilder out) {
        if (v >= 2 * rem) return;
        Span result = job.whole(OUTPUT);
        if (v % 2 == 0) out.recv(Recv.copy(order[v + 1], result));
        else out.send(order[v - 1], result);
    }
}
