package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static dev.jccl.algo.BufferId.SCRATCH;

/**
 * Ring schedules over the host-grouped order: allreduce (reduce-scatter then allgather, each n-1
 * steps, so every rank sends 2(n-1)/n of the data), the two halves on their own, and the rooted
 * collectives as pipelined chains. Blocks may differ by one element when the count does not divide.
 */
final class RingSchedules {
    private RingSchedules() {}

    static RankSchedule allReduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] ring = job.topology().order();
        int pos = job.topology().position(job.rank());
        Blocks blocks = Blocks.even(job.count(), ring.length);
        long base = job.offset();
        if (ring.length == 1) out.copy(job.whole(INPUT), job.whole(OUTPUT));
        // Reduce-scatter: partial sums accumulate in OUTPUT, each block reduced with INPUT once.
        Ring.reduceScatter(out, ring, pos, new Ring.ReduceScatterSpans() {
            public Span contribution(int b) { return blocks.span(INPUT, base, b); }
            public Span partial(int b, int step) { return blocks.span(OUTPUT, base, b); }
        });
        // Allgather: each fully reduced block travels once around the ring.
        Ring.allGather(out, ring, pos, blocks.span(OUTPUT, base, pos), b -> blocks.span(OUTPUT, base, b), null);
        return out.build(job.args(), Algorithm.RING, job.rank(), job.nranks());
    }

    static RankSchedule reduceScatter(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] ring = job.topology().order();
        int g = ring.length;
        int pos = job.topology().position(job.rank());
        long m = job.count();
        if (g == 1) out.copy(job.blockOf(INPUT, job.rank()), job.whole(OUTPUT));
        // A partial sum lives from its receive to the next step's send, so two scratch blocks used
        // alternately suffice; the last step reduces straight into OUTPUT.
        if (g > 2) out.needScratch(2 * m);
        Ring.reduceScatter(out, ring, pos, new Ring.ReduceScatterSpans() {
            public Span contribution(int b) { return job.blockOf(INPUT, ring[b]); }
            public Span partial(int b, int step) {
                return step == g - 2 ? job.whole(OUTPUT) : Span.of(SCRATCH, (step % 2) * m, m);
            }
        });
        return out.build(job.args(), Algorithm.RING, job.rank(), job.nranks());
    }

    static RankSchedule allGather(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] ring = job.topology().order();
        int pos = job.topology().position(job.rank());
        LocalCopy own = new LocalCopy(job.whole(INPUT), job.blockOf(OUTPUT, job.rank()));
        Ring.allGather(out, ring, pos, job.whole(INPUT), b -> job.blockOf(OUTPUT, ring[b]), own);
        return out.build(job.args(), Algorithm.RING, job.rank(), job.nranks());
    }

    /**
     * Broadcast down a chain that starts at the root: every rank receives the slice and forwards it
     * to the next. Chunks pipeline, so the whole chain costs about one transfer plus n-1 latencies.
     */
    static RankSchedule broadcast(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] chain = job.orderFrom(job.args().root());
        int i = ChannelJob.indexOf(chain, job.rank());
        int n = chain.length;
        if (i == 0) {
            LocalCopy own = new LocalCopy(job.whole(INPUT), job.whole(OUTPUT));
            out.step(n > 1 ? new Send(chain[1], job.whole(INPUT)) : null, own, null);
        } else {
            out.recv(Recv.copy(chain[i - 1], job.whole(OUTPUT)));
            if (i < n - 1) out.send(chain[i + 1], job.whole(OUTPUT));
        }
        return out.build(job.args(), Algorithm.RING, job.rank(), job.nranks());
    }

    /**
     * Reduce up the same chain: the last rank sends its INPUT, every rank in between adds its own
     * contribution and passes the partial sum on, and the root adds last. Order: x[chain[n-1]] first,
     * then each rank towards the root, operand first.
     */
    static RankSchedule reduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] chain = job.orderFrom(job.args().root());
        int i = ChannelJob.indexOf(chain, job.rank());
        int n = chain.length;
        if (n == 1) {
            out.copy(job.whole(INPUT), job.whole(OUTPUT));
        } else if (i == 0) {
            out.recv(Recv.reduce(chain[1], job.whole(OUTPUT), job.whole(INPUT)));
        } else if (i == n - 1) {
            out.send(chain[i - 1], job.whole(INPUT));
        } else {
            Span partial = Span.of(SCRATCH, 0, job.count());
            out.needScratch(job.count());
            out.recv(Recv.reduce(chain[i + 1], partial, job.whole(INPUT)));
            out.send(chain[i - 1], partial);
        }
        return out.build(job.args(), Algorithm.RING, job.rank(), job.nranks());
    }
}
