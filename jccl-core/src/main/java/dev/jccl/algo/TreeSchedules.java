package dev.jccl.algo;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static dev.jccl.algo.BufferId.SCRATCH;

/**
 * Binomial trees. Ranks are numbered v = 0..n-1 by their place in the host-grouped order starting
 * at the root, so the low levels of the tree stay within a host. The parent of v is v minus its
 * lowest set bit; the children of v are v + 2^j for every 2^j below that bit. Every level moves the
 * whole slice, so a tree costs log2(n) latencies and suits small messages; chunks still pipeline
 * from level to level.
 */
final class TreeSchedules {
    private TreeSchedules() {}

    /**
     * Reduce towards v = 0: v receives from its children in increasing distance (1, 2, 4, ...),
     * reducing each into {@code acc} with its own data as the first operand, then sends to its parent.
     * The value sent up is x[v] (+) sub(v+1) (+) sub(v+2) (+) sub(v+4) ..., left to right.
     *
     * @return where the root's result is (INPUT when the root had no children)
     */
    static Span reduceUp(ScheduleBuilder out, int[] tree, int v, Span mine, Span acc) {
        Span held = mine;
        for (int mask = 1; mask < tree.length; mask <<= 1) {
            if ((v & mask) != 0) {
                out.send(tree[v - mask], held);
                return held;
            }
            if (v + mask < tree.length) {
                out.recv(Recv.reduce(tree[v + mask], acc, held));
                held = acc;
            }
        }
        return held;
    }

    /** Broadcast from v = 0: v receives from its parent, then sends to its children, farthest first. */
    static void broadcastDown(ScheduleBuilder out, int[] tree, int v, Span rootData, Span into) {
        int n = tree.length;
        int mask = 1;
        while (mask < n) {
            if ((v & mask) != 0) {
                out.recv(Recv.copy(tree[v - mask], into));
                break;
            }
            mask <<= 1;
        }
        Span have = v == 0 ? rootData : into;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < n) out.send(tree[v + mask], have);
        }
    }

    /** Allreduce for small messages: reduce to the first rank of the order, then broadcast back. */
    static RankSchedule allReduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] tree = job.topology().order();
        int v = job.topology().position(job.rank());
        // Reduce phase: partial sums accumulate in OUTPUT, which the broadcast overwrites later.
        Span result = reduceUp(out, tree, v, job.whole(INPUT), job.whole(OUTPUT));
        if (v == 0 && result.buffer() == INPUT) out.copy(result, job.whole(OUTPUT));
        // Broadcast phase: the root's OUTPUT goes down the same tree.
        broadcastDown(out, tree, v, job.whole(OUTPUT), job.whole(OUTPUT));
        return out.build(job.args(), Algorithm.TREE, job.rank(), job.nranks());
    }

    static RankSchedule broadcast(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] tree = job.orderFrom(job.args().root());
        int v = ChannelJob.indexOf(tree, job.rank());
        if (v == 0) out.copy(job.whole(INPUT), job.whole(OUTPUT));
        broadcastDown(out, tree, v, job.whole(INPUT), job.whole(OUTPUT));
        return out.build(job.args(), Algorithm.TREE, job.rank(), job.nranks());
    }

    /** Reduce to the root: the root accumulates in OUTPUT, inner ranks in SCRATCH (no OUTPUT there). */
    static RankSchedule reduce(ChannelJob job) {
        ScheduleBuilder out = new ScheduleBuilder();
        int[] tree = job.orderFrom(job.args().root());
        int v = ChannelJob.indexOf(tree, job.rank());
        boolean hasChild = (v & 1) == 0 && v + 1 < tree.length;
        Span acc = v == 0 ? job.whole(OUTPUT) : Span.of(SCRATCH, 0, job.count());
        if (v != 0 && hasChild) out.needScratch(job.count());
        Span result = reduceUp(out, tree, v, job.whole(INPUT), acc);
        if (v == 0 && result.buffer() == INPUT) out.copy(result, job.whole(OUTPUT));
        return out.build(job.args(), Algorithm.TREE, job.rank(), job.nranks());
    }
}
