package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;

/**
 * Recursive-doubling allreduce, the latency-optimal one for small messages: over p = the largest
 * power of two not above n, in each of log2(p) steps at distance 1, 2, ..., p/2 a rank swaps its
 * whole partial result with virtual rank vid ^ distance and both reduce, so two ranks need a single
 * exchange. Each rank sends log2(p) times the data, which is why large messages use other schedules.
 * Non-powers of two fold first ({@link PowerOfTwoFold}).
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
        PowerOfTwoFold fold = new PowerOfTwoFold(job, out);
        int vid = fold.vid;
        if (vid >= 0) {
            Span result = job.whole(OUTPUT);
            Span mine = job.whole(fold.mine);
            if (fold.p == 1) out.copy(job.whole(INPUT), result);
            for (int mask = 1; mask < fold.p; mask <<= 1) {
                int partner = vid ^ mask;
                int peer = fold.real(partner);
                // Canonical order: (lower vid's partial) (+) (higher vid's partial) on both sides.
                Recv reduce = vid < partner ? Recv.reduce(peer, result, mine) : Recv.reduceIncomingFirst(peer, result, mine);
                out.step(new Send(peer, mine), null, reduce);
                mine = result;
            }
        }
        fold.unfold(job, out);
        return out.build(job.args(), Algorithm.RECURSIVE_DOUBLING, job.rank(), job.nranks());
    }
}
