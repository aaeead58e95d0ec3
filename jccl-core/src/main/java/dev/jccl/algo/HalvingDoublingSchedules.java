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
        int n = job.nranks();
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        int[] order = job.topology().order();
        int v = job.topology().position(job.rank());
        Span in = job.whole(INPUT);
        Span result = job.whole(OUTPUT);

        // Fold: ranks 2i hand their data to 2i+1, which reduces it (odd's own data first).
        int vid;
        BufferId mine;
        if (v < 2 * rem && v % 2 == 0) {
            out.send(order[v + 1], in);
            vid = -1;
            mine = null;
        } else if (v < 2 * rem) {
            out.recv(Recv.reduce(order[v - 1], result, in));
            vid = v / 2;
            mine = OUTPUT;
        } else {
            vid = v - rem;
            mine = INPUT;
        }

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
                int peer = real(order, rem, partner);
                out.step(new Send(peer, give), null, Recv.reduce(peer, keep, blocks.span(mine, off, keepLo, keepHi)));
                mine = OUTPUT;
                lo = keepLo;
                hi = keepHi;
            }
            if (p == 1) out.copy(in, result);
            // Allgather by recursive doubling: at distance 1, 2, ..., p/2 swap the block range held so
            // far with the partner's neighbouring range of the same size.
            for (int mask = 1; mask < p; mask <<= 1) {
                int peer = real(order, rem, vid ^ mask);
                int theirLo = (vid & mask) != 0 ? lo - mask : hi;
                out.step(new Send(peer, blocks.span(OUTPUT, off, lo, hi)), null,
                        Recv.copy(peer, blocks.span(OUTPUT, off, theirLo, theirLo + mask)));
                lo = Math.min(lo, theirLo);
                hi = Math.max(hi, theirLo + mask);
            }
        }

        // Unfold: the odd rank of each folded pair hands the result back.
        if (v < 2 * rem) {
            if (v % 2 == 0) out.recv(Recv.copy(order[v + 1], result));
            else out.send(order[v - 1], result);
        }
        return out.build(job.args(), Algorithm.HALVING_DOUBLING, job.rank(), n);
    }

    /** The rank playing virtual rank {@code vid}: the odd member of a folded pair, or a rank after them. */
    private static int real(int[] order, int rem, int vid) {
        return vid < rem ? order[2 * vid + 1] : order[vid + rem];
    }
}
