package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;

/**
 * Rabenseifner's allreduce: a reduce-scatter by recursive halving, then an allgather by recursive
 * doubling, over p = the largest power of two not above n. Each rank sends 2(p-1)/p of the data in
 * 2·log2(p) steps. With n = p + rem, the first 2·rem ranks of the host-grouped order pair up
 * (2i, 2i+1): the even one folds its data into the odd one first, sits out, and receives the result
 * at the end.
 */
final class HalvingDoublingSchedules {
    private HalvingDoublingSchedules() {}

    static RankSchedule allReduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        PowerOfTwoFold fold = new PowerOfTwoFold(job, out);
        int p = fold.p;
        int vid = fold.vid;
        BufferId mine = fold.mine;
        Span in = job.whole(INPUT);
        Span result = job.whole(OUTPUT);

        if (vid >= 0) {
            Blocks blocks = Blocks.even(job.count(), p);
            long off = job.offset();
            int lo = 0;
            int hi = p;
            // Reduce-scatter by recursive halving: at distance p/2, p/4, ..., 1 keep the half of the
            // current block range that holds block vid, send the other half to the partner, and reduce
            // the partner's copy of the kept half into OUTPUT. Ends with block vid reduced over all.
            for (int mask = p / 2; mask >= 1; mask >>= 1) {
                int partner = vid ^ mask;
                int mid = (lo + hi) / 2;
                boolean keepLow = vid < partner;
                int keepLo = keepLow ? lo : mid;
                int keepHi = keepLow ? mid : hi;
                Span give = keepLow ? blocks.span(mine, off, mid, hi) : blocks.span(mine, off, lo, mid);
                Span keep = blocks.span(OUTPUT, off, keepLo, keepHi);
                int peer = fold.real(partner);
                out.step(new Send(peer, give), null, Recv.reduce(peer, keep, blocks.span(mine, off, keepLo, keepHi)));
                mine = OUTPUT;
                lo = keepLo;
                hi = keepHi;
            }
            if (p == 1) out.copy(in, result);
            // Allgather by recursive doubling: at distance 1, 2, ..., p/2 swap the block range held so
            // far with the partner's neighbouring range of the same size.
            for (int mask = 1; mask < p; mask <<= 1) {
                int peer = fold.real(vid ^ mask);
                int theirLo = (vid & mask) != 0 ? lo - mask : hi;
                out.step(new Send(peer, blocks.span(OUTPUT, off, lo, hi)), null,
                        Recv.copy(peer, blocks.span(OUTPUT, off, theirLo, theirLo + mask)));
                lo = Math.min(lo, theirLo);
                hi = Math.max(hi, theirLo + mask);
            }
        }

        fold.unfold(job, out);
        return out.build(job.args(), Algorithm.HALVING_DOUBLING, job.rank(), job.nranks());
    }
}
