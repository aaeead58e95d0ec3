package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;

/**
 * Recursive-doubling allreduce, the latency-optimal one for small messages: over p = the largest
 * power of two not above n, in each of log2(p) steps at distance 1, 2, ..., p/2 a rank swaps its
 * whole partial result with virtual rank vid ^ distance and both reduce, so two ranks need a single
 * exchange. Each rank sends log2(p) times the data, which is why large messages use other schedules.
 * Non-powers of two fold as in {@link HalvingDoublingSchedules}: with n = p + rem, the first 2·rem
 * ranks of the host-grouped order pair up (2i, 2i+1), the even one folds its data into the odd one
 * (odd's own first), sits out, and receives the result at the end.
 *
 * <p>Unlike the other allreduces, every rank computes the final reduction itself rather than copying
 * it from the one rank that did. The bits still agree because both partners of an exchange
 * evaluate the same expression: the lower virtual rank's partial first, the higher one's second
 * (the higher one reduces {@link Recv#reduceIncomingFirst incoming first}). By induction every
 * rank of an aligned group of 2^k virtual ranks holds the same bits, and the result is one balanced
 * tree over the virtual ranks in order.
 *
 * <p>The send and the receive of a step cover the same whole span of OUTPUT (or INPUT in place).
 * No scratch copy is needed: {@link ChunkHazards} makes each receive chunk wait until the send of
 * that chunk has completed locally (write after read), so the transport has read the partial result
 * before the reduction overwrites it.
 */
final class RecursiveDoublingSchedules {
    private RecursiveDoublingSchedules() {}

    static RankSchedule allReduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int n = job.nranks();
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        int[] order = job.topology().order();
        int v = job.topology().position(job.rank());
        Span in = job.whole(INPUT);
        Span result = job.whole(OUTPUT);

        // Fold: ranks 2i hand their data to 2i+1, which reduces it (odd's own data first).
        int vid;
        Span mine;
        if (v < 2 * rem && v % 2 == 0) {
            out.send(order[v + 1], in);
            vid = -1;
            mine = null;
        } else if (v < 2 * rem) {
            out.recv(Recv.reduce(order[v - 1], result, in));
            vid = v / 2;
            mine = result;
        } else {
            vid = v - rem;
            mine = in;
        }

        if (vid >= 0) {
            if (p == 1) out.copy(in, result);
            for (int mask = 1; mask < p; mask <<= 1) {
                int partner = vid ^ mask;
                int peer = real(order, rem, partner);
                // Canonical order: (lower vid's partial) (+) (higher vid's partial) on both sides.
                Recv reduce = vid < partner ? Recv.reduce(peer, result, mine) : Recv.reduceIncomingFirst(peer, result, mine);
                out.step(new Send(peer, mine), null, reduce);
                mine = result;
            }
        }

        // Unfold: the odd rank of each folded pair hands the result back.
        if (v < 2 * rem) {
            if (v % 2 == 0) out.recv(Recv.copy(order[v + 1], result));
            else out.send(order[v - 1], result);
        }
        return out.build(job.args(), Algorithm.RECURSIVE_DOUBLING, job.rank(), n);
    }

    /** The rank playing virtual rank {@code vid}: the odd member of a folded pair, or a rank after them. */
    private static int real(int[] order, int rem, int vid) {
        return vid < rem ? order[2 * vid + 1] : order[vid + rem];
    }
}
