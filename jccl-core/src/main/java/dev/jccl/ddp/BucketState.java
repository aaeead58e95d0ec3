package dev.jccl.ddp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One bucket during a step: its buffers, how many of its gradients have arrived, and its collective in
 * flight. Touched only by the training thread; the collective writes {@link #buffer} and
 * {@link #shard} until its {@link Launch} reports done.
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
    /** This step's collective; null until the bucket leaves. */
    Launch launch;

    /** Buffers from {@code coll} ({@link GradientCollectives#allocate}: shared where it can be, so peers read them in place). */
    BucketState(BucketPlan.Bucket plan, GradientCollectives coll, Arena arena) {
        this.plan = plan;
        int worldSize = coll.worldSize();
        this.buffer = coll.allocate(plan.bytes(), arena);
        this.values = coll.allocate(plan.paddedElems() * Float.BYTES, arena);
        this.shardElems = plan.scattered() ? plan.paddedElems() / worldSize : plan.paddedElems();
        this.shard = plan.scattered() ? coll.allocate(plan.type().bytes(shardElems), arena) : null;
        this.valueShard = plan.scattered() ? coll.allocate(shardElems * Float.BYTES, arena) : null;
    }

    boolean full() {
        return ready == plan.slots().size();
    }

    boolean launched() {
        return launch != null;
    }

    /** Notes the completion time if the collective is done. Never blocks. */
    void poll() {
        if (launch != null) launch.poll();
    }

    /** Waits for the collective (bounded by the collectives' timeout), driving its progress meanwhile. */
    void await() {
        if (launch == null) throw new IllegalStateException("bucket " + plan.index() + " was never launched");
        launch.await();
    }

    long launchNs() {
        return launch.launchNs;
    }

    long doneNs() {
        return launch.doneNs();
    }

    void reset() {
        ready = 0;
        localNonFinite = false;
        launch = null;
    }
}
