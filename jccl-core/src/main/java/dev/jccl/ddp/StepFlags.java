package dev.jccl.ddp;

import dev.jccl.DataType;
import dev.jccl.trace.Timeline;

import java.util.List;

/**
 * The step's verdicts that ride in the tail of the last bucket, and the averaged gradient's norm.
 *
 * <p>Before the last bucket leaves, this rank writes into its tail: 1 if any gradient it packed (or,
 * sharded, any averaged shard it received) was infinite or NaN, else 0; and, sharded, the sum of
 * squares of its averaged shards. The last bucket's sum then gives every rank the same overflow
 * verdict and the same global sum of squares, in the round that carries the last gradients anyway.
 */
final class StepFlags {
    private boolean overflowReduced;
    private double shardSumSquares;
    private boolean averaged;
    private boolean clipped;
    private double sumSquares = Double.NaN;
    private boolean begun;

    /** Called once when a synchronizing pass starts: the previous step's averages no longer hold. */
    void beginStep() {
        begun = true;
        averaged = false;
        clipped = false;
        sumSquares = Double.NaN;
        overflowReduced = false;
        shardSumSquares = 0;
    }

    /**
     * Fills the tail of {@code last} just before it leaves. Sharded, this first waits for every
     * scattered bucket and averages this rank's shards of them, since their sum of squares goes in.
     * Returns the nanoseconds spent waiting.
     */
    long writeTail(BucketState[] buckets, List<Ownership.Piece> owned, BucketState last, float average) {
        long waitedNs = 0;
        boolean nonFinite = false;
        for (BucketState b : buckets) nonFinite |= b.localNonFinite;
        double sumSq = 0;
        for (Ownership.Piece p : owned) {
            BucketState b = buckets[p.bucket()];
            if (!b.plan.scattered()) continue;
            long t0 = Timeline.nowNs();
            b.await();
            waitedNs += Timeline.nowNs() - t0;
            nonFinite |= GradientCodec.unpack(b.shard, p.resultElem(), b.plan.type(), p.param().grad(), p.from(), p.elements(), average);
            sumSq += GradientCodec.sumSquares(p.param().grad(), p.from(), p.elements());
        }
        long tail = last.plan.tailOffset();
        DataType type = last.plan.type();
        GradientCodec.write(last.buffer, tail + BucketPlan.TAIL_OVERFLOW, type, nonFinite ? 1f : 0f);
        if (last.plan.tailElems() > BucketPlan.TAIL_SUM_SQUARES) {
            GradientCodec.write(last.buffer, tail + BucketPlan.TAIL_SUM_SQUARES, type, (float) sumSq);
        }
        return waitedNs;
    }

    /** Averages the all-reduced buckets into the gradients and reads the reduced tail. */
    boolean unpackAllReduced(BucketState[] buckets, List<Ownership.Piece> owned, BucketPlan.Bucket last, float average) {
        boolean nonFinite = false;
        for (Ownership.Piece p : owned) {
            BucketState b = buckets[p.bucket()];
            if (b.plan.scattered()) continue;
            nonFinite |= GradientCodec.unpack(b.buffer, p.resultElem(), b.plan.type(), p.param().grad(), p.from(), p.elements(), average);
        }
        BucketState lastState = buckets[last.index()];
        float flag = GradientCodec.read(lastState.buffer, last.tailOffset() + BucketPlan.TAIL_OVERFLOW, last.type());
        overflowReduced = !(flag == 0f);
        if (last.tailElems() > BucketPlan.TAIL_SUM_SQUARES) {
            shardSumSquares = GradientCodec.read(lastState.buffer, last.tailOffset() + BucketPlan.TAIL_SUM_SQUARES, last.type());
        }
        return nonFinite;
    }

    boolean overflowReduced() {
        return overflowReduced;
    }

    void endStep(boolean usable) {
        averaged = usable;
        begun = false;
    }

    boolean begun() {
        return begun;
    }

    void requireAveraged() {
        if (!averaged) {
            throw new IllegalStateException("no averaged gradient: the last finish() did not synchronize, or its step was skipped");
        }
    }

    /** Global sum of squares, computed once per step before any clipping, in a fixed order. */
    double sumSquares(List<Ownership.Piece> owned, BucketPlan.Bucket last) {
        requireAveraged();
        if (Double.isNaN(sumSquares)) {
            // Sharded, the scattered buckets' part arrived summed over ranks in the tail; only the
            // all-reduced last bucket is summed here. Replicated, everything is summed here.
            boolean sharded = last.tailElems() > BucketPlan.TAIL_SUM_SQUARES;
            double s = sharded ? shardSumSquares : 0;
            for (Ownership.Piece p : owned) {
                if (!sharded || p.bucket() == last.index()) s += GradientCodec.sumSquares(p.param().grad(), p.from(), p.elements());
            }
            sumSquares = s;
        }
        return sumSquares;
    }

    void markClipped() {
        if (clipped) throw new IllegalStateException("clipGradNorm called twice for one step");
        clipped = true;
    }
}
