package dev.jccl.algo;

import java.util.function.IntFunction;

/**
 * The two ring phases every ring-shaped schedule is made of. A ring is a list of ranks; the rank at
 * position p sends to position p+1 and receives from p-1 (mod the ring's length g). The data is cut
 * into g blocks indexed by position.
 */
final class Ring {
    private Ring() {}

    /** Where the reduce-scatter finds and keeps each block (blocks indexed by ring position). */
    interface ReduceScatterSpans {
        /** This rank's own, not yet reduced data for {@code block}. */
        Span contribution(int block);

        /** Where {@code block} lands when received in {@code step}; the last step's place is final. */
        Span partial(int block, int step);
    }

    /**
     * Reduce-scatter, g-1 steps. In step s the rank at position p sends block p-s-1 (its own data at
     * s = 0, afterwards the partial sum it received in step s-1) to the next rank, and receives block
     * p-s-2 from the previous one, reducing it with its own contribution. Block b starts at position
     * b+1 and picks up one contribution per hop, so after the last step position p holds block p
     * reduced over the whole ring, in the order b+1, b+2, ..., b (operand first at every hop).
     */
    static void reduceScatter(ScheduleBuilder out, int[] ring, int pos, ReduceScatterSpans at) {
        int g = ring.length;
        int next = ring[(pos + 1) % g];
        int prev = ring[(pos + g - 1) % g];
        for (int s = 0; s < g - 1; s++) {
            int sendBlock = Math.floorMod(pos - s - 1, g);
            int recvBlock = Math.floorMod(pos - s - 2, g);
            Span from = s == 0 ? at.contribution(sendBlock) : at.partial(sendBlock, s - 1);
            out.step(new Send(next, from), null, Recv.reduce(prev, at.partial(recvBlock, s), at.contribution(recvBlock)));
        }
    }

    /**
     * Allgather, g-1 steps. In step s the rank at position p forwards block p-s (its own, from
     * {@code own}, at s = 0) to the next rank and copies block p-s-1 from the previous one into
     * place. {@code ownCopy}, if any, puts this rank's own block into place in the first step.
     */
    static void allGather(ScheduleBuilder out, int[] ring, int pos, Span own, IntFunction<Span> block, LocalCopy ownCopy) {
        int g = ring.length;
        if (g == 1) {
            if (ownCopy != null) out.step(null, ownCopy, null);
            return;
        }
        int next = ring[(pos + 1) % g];
        int prev = ring[(pos + g - 1) % g];
        for (int s = 0; s < g - 1; s++) {
            Span from = s == 0 ? own : block.apply(Math.floorMod(pos - s, g));
            out.step(new Send(next, from), s == 0 ? ownCopy : null, Recv.copy(prev, block.apply(Math.floorMod(pos - s - 1, g))));
        }
    }
}
