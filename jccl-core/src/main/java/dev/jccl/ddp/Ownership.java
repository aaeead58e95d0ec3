package dev.jccl.ddp;

import java.util.ArrayList;
import java.util.List;

/**
 * Which gradient elements this rank holds after a step and updates. Replicated: all of them. Sharded:
 * block {@code rank} of every reduce-scattered bucket, cut along parameter boundaries, plus the whole
 * last bucket (all-reduced, so every rank holds and steps it identically).
 */
final class Ownership {
    /**
     * One owned piece: elements [from, to) of a parameter, at element {@code bucketElem} of its bucket
     * buffer and at {@code resultElem} of the buffer its reduced gradient lands in (the shard when the
     * bucket is scattered, else the bucket buffer itself).
     */
    record Piece(Param param, int bucket, long from, long to, long bucketElem, long resultElem) {
        long elements() {
            return to - from;
        }
    }

    private Ownership() {}

    static List<Piece> of(BucketPlan plan, List<Param> params, int rank) {
        List<Piece> out = new ArrayList<>();
        for (BucketPlan.Bucket b : plan.buckets()) {
            long lo = 0;
            long hi = Long.MAX_VALUE;
            if (b.scattered()) {
                long shard = b.paddedElems() / b.blocks();
                lo = rank * shard;
                hi = lo + shard;
            }
            for (BucketPlan.Slot s : b.slots()) {
                long from = Math.max(lo, s.offsetElems());
                long to = Math.min(hi, s.offsetElems() + s.elems());
                if (from < to) {
                    out.add(new Piece(params.get(s.paramIndex()), b.index(), from - s.offsetElems(),
                            to - s.offsetElems(), from, from - lo));
                }
            }
        }
        return out;
    }
}
