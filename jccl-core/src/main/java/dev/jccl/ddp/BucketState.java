package dev.jccl.ddp;

import dev.jccl.trace.Timeline;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One bucket during a step: its buffers, how many of its gradients have arrived, and its collective in
 * flight. Touched only by the training thread; the collective writes {@link #buffer} and
 * {@link #shard} until its {@link GradientCollectives.Pending} reports done.
 */
final class BucketState {
    final BucketPlan.Bucket plan;
    /** The gradients (and tail) in the communication type, paddedElems long. */
    final MemorySegment buffer;
    /** This rank's block of a reduce-scattered bucket; null when the bucket is all-reduced. */
    final MemorySegment shard;
    /** Parameter values as float32, paddedElems long: the broadcast at start and the gather after a sharded step. */
    final MemorySegment values;
    /** This rank's block of {@link #values} for the gather; null when the bucket is all-reduced. */
    final MemorySegment valueShard;
    final long shardElems;

    int ready;
    boolean localNonFinite;
    GradientCollectives.Pending pending;
    long launchNs;
    long doneNs;

    BucketState(BucketPlan.Bucket plan, int worldSize, Arena arena) {
        this.plan = plan;
        this.buffer = arena.allocate(plan.bytes(), 8);
        this.values = arena.allocate(plan.paddedElems() * Float.BYTES, 8);
        this.shardElems = plan.scattered() ? plan.paddedElems() / worldSize : plan.paddedElems();
        this.shard = plan.scattered() ? arena.allocate(plan.type().bytes(shardElems), 8) : null;
        this.valueShard = plan.scattered() ? arena.allocate(shardElems * Float.BYTES, 8) : null;
    }

    boolean full() {
        return ready == plan.slots().size();
    }

    boolean launched() {
        return pending != null;
    }

    /** Notes the completion time the first time the collective is seen done. Never blocks. */
    void poll() {
        if (pending != null && doneNs == 0 && pending.isDone()) doneNs = Timeline.nowNs();
    }

    /** Waits for the collective (bounded by the collectives' timeout). */
    void await() {
        if (pending == null) throw new IllegalStateException("bucket " + plan.index() + " was never launched");
        if (doneNs == 0) {
            pending.await();
            doneNs = Timeline.nowNs();
        }
    }

    void reset() {
        ready = 0;
        localNonFinite = false;
        pending = null;
        launchNs = 0;
        doneNs = 0;
    }
}
