package dev.jccl.ddp;

import dev.jccl.trace.Timeline;
import dev.jccl.util.Sizes;

import java.util.Arrays;
import java.util.Comparator;

/** Turns the buckets' launch and completion times into a {@link CommTiming}, and records them. */
final class StepTiming {
    private StepTiming() {}

    /**
     * @param finishNs  when finish() was called: backward had ended
     * @param waitEndNs when finish() stopped waiting for buckets
     * @param backwardWaitNs time gradReady spent blocked on buckets during backward: exposed too
     */
    static CommTiming of(BucketState[] buckets, long finishNs, long waitEndNs, long backwardWaitNs, Timeline timeline) {
        BucketState[] byLaunch = buckets.clone();
        Arrays.sort(byLaunch, Comparator.comparingLong(BucketState::launchNs));
        long busy = 0;
        long coveredUntil = Long.MIN_VALUE;
        long bytes = 0;
        for (BucketState b : byLaunch) {
            long start = Math.max(b.launchNs(), coveredUntil);
            if (b.doneNs() > start) busy += b.doneNs() - start;
            coveredUntil = Math.max(coveredUntil, b.doneNs());
            bytes += b.plan.bytes();
            if (timeline.enabled()) {
                String op = b.plan.scattered() ? "reduce-scatter" : "allreduce";
                timeline.complete(op + " bucket " + b.plan.index(), op + " b" + b.plan.index(), b.launchNs(), b.doneNs(),
                        Sizes.formatBytes(b.plan.bytes()) + " " + b.plan.type().ncclName() + ", " + b.plan.slots().size() + " params");
            }
        }
        long exposed = Math.min(busy, Math.max(0, waitEndNs - finishNs) + backwardWaitNs);
        return new CommTiming(busy, exposed, busy - exposed, bytes, buckets.length, backwardWaitNs);
    }
}
