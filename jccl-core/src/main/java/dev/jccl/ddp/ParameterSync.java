package dev.jccl.ddp;

import dev.jccl.DataType;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** Moving parameter values between ranks: the broadcast at start, the gather after a sharded step. */
final class ParameterSync {
    private ParameterSync() {}

    /** Every rank ends with rank 0's values; all buckets travel at once, then all are awaited. */
    static void broadcastFromRankZero(GradientCollectives coll, BucketState[] buckets, List<Param> params) {
        if (coll.worldSize() == 1) return;
        GradientCollectives.Pending[] pending = new GradientCollectives.Pending[buckets.length];
        for (BucketState b : buckets) {
            for (BucketPlan.Slot s : b.plan.slots()) {
                MemorySegment.copy(params.get(s.paramIndex()).value(), 0, b.values, s.offsetElems() * Float.BYTES, s.elems() * Float.BYTES);
            }
            pending[b.plan.index()] = coll.broadcast(b.values, DataType.FLOAT32, 0);
        }
        for (BucketState b : buckets) {
            pending[b.plan.index()].await();
            copyOut(b, params);
        }
    }

    /**
     * Sharded: each rank contributes the values of the pieces it updated, and every rank takes the
     * whole of every scattered bucket back. The last bucket was stepped identically everywhere.
     */
    static void gatherShards(GradientCollectives coll, BucketState[] buckets, List<Param> params,
                             List<Ownership.Piece> owned) {
        GradientCollectives.Pending[] pending = new GradientCollectives.Pending[buckets.length];
        for (Ownership.Piece p : owned) {
            BucketState b = buckets[p.bucket()];
            if (!b.plan.scattered()) continue;
            MemorySegment.copy(p.param().value(), p.from() * Float.BYTES, b.valueShard, p.resultElem() * Float.BYTES,
                    p.elements() * Float.BYTES);
        }
        for (BucketState b : buckets) {
            if (b.plan.scattered()) pending[b.plan.index()] = coll.allGather(b.valueShard, b.values, DataType.FLOAT32);
        }
        for (BucketState b : buckets) {
            if (!b.plan.scattered()) continue;
            pending[b.plan.index()].await();
            copyOut(b, params);
        }
    }

    private static void copyOut(BucketState b, List<Param> params) {
        for (BucketPlan.Slot s : b.plan.slots()) {
            MemorySegment.copy(b.values, s.offsetElems() * Float.BYTES, params.get(s.paramIndex()).value(), 0, s.elems() * Float.BYTES);
        }
    }
}
