package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * The order in which each algorithm combines contributions, derived here from the textbook
 * description independently of the builders: an expression tree whose leaves are ranks and whose
 * inner nodes reduce (operand, incoming). Evaluated in double arithmetic it gives the exact bits a
 * correct schedule must produce.
 */
sealed interface ReductionOrder {
    record Leaf(int rank) implements ReductionOrder {}

    record Reduce(ReductionOrder operand, ReductionOrder incoming) implements ReductionOrder {}

    default long eval(Arith arith, IntToLongFunction contribution) {
        return switch (this) {
            case Leaf l -> contribution.applyAsLong(l.rank());
            case Reduce r -> arith.combine(r.operand().eval(arith, contribution), r.incoming().eval(arith, contribution));
        };
    }

    default List<Integer> leaves() {
        List<Integer> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    private static void collect(ReductionOrder o, List<Integer> out) {
        switch (o) {
            case Leaf l -> out.add(l.rank());
            case Reduce r -> { collect(r.operand(), out); collect(r.incoming(), out); }
        }
    }

    /** Ring reduce-scatter of the block owned by position q: starts at q+1, each hop adds its own first. */
    static ReductionOrder ring(int[] ring, int q) {
        int n = ring.length;
        ReductionOrder acc = new Leaf(ring[(q + 1) % n]);
        for (int j = 2; j <= n; j++) acc = new Reduce(new Leaf(ring[(q + j) % n]), acc);
        return n == 1 ? new Leaf(ring[0]) : acc;
    }

    /** Like {@link #ring} but over sub-results instead of ranks. */
    static ReductionOrder ringOf(List<ReductionOrder> parts, int q) {
        int n = parts.size();
        ReductionOrder acc = parts.get((q + 1) % n);
        for (int j = 2; j <= n; j++) acc = new Reduce(parts.get((q + j) % n), acc);
        return n == 1 ? parts.get(0) : acc;
    }

    /** Binomial subtree of v: own value, then children at distance 1, 2, 4, ... */
    static ReductionOrder binomial(int[] tree, int v) {
        ReductionOrder acc = new Leaf(tree[v]);
        for (int mask = 1; mask < tree.length && (v & mask) == 0; mask <<= 1) {
            if (v + mask < tree.length) acc = new Reduce(acc, binomial(tree, v + mask));
        }
        return acc;
    }

    /** Chain towards chain[0]: the far end first, each rank adds its own value first. */
    static ReductionOrder chain(int[] chain) {
        ReductionOrder acc = new Leaf(chain[chain.length - 1]);
        for (int i = chain.length - 2; i >= 0; i--) acc = new Reduce(new Leaf(chain[i]), acc);
        return acc;
    }

    /** Rabenseifner: fold pairs (odd's own first), then halving from distance p/2 down to 1. */
    static ReductionOrder halvingDoubling(int[] order, int block) {
        int n = order.length;
        int p = Integer.highestOneBit(n);
        return hd(order, n - p, p, block, 1);
    }

    /**
     * Recursive doubling: fold pairs (odd's own first), then at distance 1, 2, ..., p/2 each pair of
     * partners combines (lower virtual rank's partial, higher one's): one balanced tree over the
     * virtual ranks in order, the same for every element and every rank.
     */
    static ReductionOrder recursiveDoubling(int[] order) {
        int n = order.length;
        int p = Integer.highestOneBit(n);
        return rd(order, n - p, 0, p);
    }

    private static ReductionOrder rd(int[] order, int rem, int first, int size) {
        if (size == 1) {
            return first < rem ? new Reduce(new Leaf(order[2 * first + 1]), new Leaf(order[2 * first])) : new Leaf(order[first + rem]);
        }
        return new Reduce(rd(order, rem, first, size / 2), rd(order, rem, first + size / 2, size / 2));
    }

    private static ReductionOrder hd(int[] order, int rem, int p, int vid, int mask) {
        if (mask == p) {
            return vid < rem ? new Reduce(new Leaf(order[2 * vid + 1]), new Leaf(order[2 * vid])) : new Leaf(order[vid + rem]);
        }
        return new Reduce(hd(order, rem, p, vid, mask * 2), hd(order, rem, p, vid ^ mask, mask * 2));
    }
}
